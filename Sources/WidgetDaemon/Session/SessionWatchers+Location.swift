import WidgetCore

/// GeoClue2's client, run only while a location clue is in use (and the location source is
/// on): a client that is running makes GeoClue look for the position, which costs power.
extension SessionWatchers {
    /// GeoClue reports a move only past this distance (metres): a region's edge is never
    /// sharper than a street, and smaller moves would wake widgetd for nothing.
    static let distanceThreshold: UInt32 = 100
    static let desktopID = "widgetd"

    func startLocation() {
        guard geoclueClient == nil, tracker.present.contains(.geoclue),
            let path = call(SessionNames.geoclue, SessionNames.geoclueManagerPath, SessionNames.geoclueManager, "GetClient")?.first?.stringValue
        else { return }
        let client = SessionNames.geoclueClient
        _ = call(SessionNames.geoclue, path, SessionNames.properties, "Set", [
            .plain(.string(client)), .plain(.string("DesktopId")), .variant(.string(Self.desktopID)),
        ])
        _ = call(SessionNames.geoclue, path, SessionNames.properties, "Set", [
            .plain(.string(client)), .plain(.string("DistanceThreshold")), .variant(.uint32(Self.distanceThreshold)),
        ])
        guard call(SessionNames.geoclue, path, client, "Start") != nil else {
            logger.warning("GeoClue refused to start widgetd's client: the location is unknown")
            return
        }
        geoclueClient = path
        logger.info("location client started")
        // A client may know its location already (no LocationUpdated then).
        let current = call(SessionNames.geoclue, path, SessionNames.properties, "Get", [.plain(.string(client)), .plain(.string("Location"))])
        if let location = current?.first?.stringValue, location != "/" { readLocation(location) }
    }

    func stopLocation() {
        if let client = geoclueClient {
            _ = call(SessionNames.geoclue, client, SessionNames.geoclueClient, "Stop")
            logger.info("location client stopped: no location clue in use")
        }
        geoclueClient = nil
        apply([.location(nil)])
    }

    /// The position of a location object GeoClue named (never logged).
    func readLocation(_ path: String) {
        guard geoclueClient != nil else { return }
        apply([.location(SessionSignal.point(.object(properties(SessionNames.geoclue, path, SessionNames.geoclueLocation))))])
    }
}
