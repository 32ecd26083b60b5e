import WidgetCore

/// What each signal leads to, on the watchers' thread.
extension SessionWatchers {
    func handleInbox() {
        let signals = inbox
        inbox = []
        for signal in signals { handle(signal) }
    }

    private func handle(_ signal: SessionSignal) {
        switch signal.meaning {
        case .events(let events):
            apply(events)
        case .ownerChanged(let source, let present, let hadOwner):
            let known = tracker.present.contains(source)
            // An owner that came between the match and the first look was read already.
            if present && known && !hadOwner { return }
            // A new owner while one was known is a restart: forgotten, then read afresh.
            if known { vanished(source) }
            if present { appeared(source) }
        case .sessionNew(let path):
            apply(readSession(path))
        case .prepareForSleep(let starting):
            logger.info(starting ? "the system is going to sleep: syncing commits" : "the system resumed from sleep")
            preparingForSleep = starting
            if !starting { takeInhibitor() }
            sleepSignal(starting) { [self] in post(.releaseInhibitor) }
        case .locationUpdated(let client, let path):
            if client == geoclueClient { readLocation(path) }
        case .ignored:
            break
        }
    }

    /// A service's name got an owner: its state is read whole.
    func appeared(_ source: ContextSource) {
        var events: [SessionEvent] = [.appeared(source)]
        switch source {
        case .logind:
            let answer = call(SessionNames.logind, SessionNames.logindPath, SessionNames.logindManager, "ListSessions")
            let listed = SessionSignal.sessions(listed: answer?.first)
            for case .session(let path, _, _) in listed { events += readSession(path) }
            takeInhibitor()
        case .upower:
            events.append(.upower(properties(SessionNames.upower, SessionNames.upowerPath, SessionNames.upower)))
        case .powerProfiles:
            events.append(.powerProfiles(properties(SessionNames.powerProfiles, SessionNames.powerProfilesPath, SessionNames.powerProfiles)))
        case .bluez:
            let objects = call(SessionNames.bluez, "/", SessionNames.objectManager, "GetManagedObjects")?.first
            events += SessionSignal.devices(managedObjects: objects)
        case .geoclue:
            break
        }
        logger.info("session source present", metadata: ["source": "\(source.rawValue)"])
        apply(events)
        if source == .geoclue, locationWanted { startLocation() }
    }

    func vanished(_ source: ContextSource) {
        logger.info("session source gone", metadata: ["source": "\(source.rawValue)"])
        switch source {
        case .logind: closeInhibitor()
        case .geoclue: geoclueClient = nil
        default: break
        }
        apply([.vanished(source)])
    }

    /// A session's owner, seat and hints, from its properties.
    func readSession(_ path: String) -> [SessionEvent] {
        let values = properties(SessionNames.logind, path, SessionNames.logindSession)
        guard case .array(let user)? = values["User"], case .integer(let uid)? = user.first, let narrow = UInt32(exactly: uid) else {
            return []
        }
        var seated = false
        if case .array(let seat)? = values["Seat"], case .string(let id)? = seat.first { seated = !id.isEmpty }
        return [.session(path: path, uid: narrow, seated: seated), .sessionProperties(path: path, values)]
    }
}
