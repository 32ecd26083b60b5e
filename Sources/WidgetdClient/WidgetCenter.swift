import Foundation
import WidgetCore
import WidgetProtocol

/// WidgetKit's `WidgetCenter` for apps on Linux: asks widgetd to reload an app's widgets
/// and reads which widgets are placed. Finds the socket as `widgetctl` does (`WIDGETD_SOCKET`,
/// else the default path).
///
/// The WidgetKit-named reload calls do not throw, as on iOS (a reload is a request, and a
/// missing daemon is not the app's problem); each has a throwing twin with typed errors for
/// apps that want to know.
public final class WidgetCenter: Sendable {
    public static let shared = WidgetCenter()

    /// The socket this center talks to; nil means the default location at each call.
    public let socketPath: String?

    public init(socketPath: String? = nil) {
        self.socketPath = socketPath
    }

    // MARK: WidgetKit names

    /// Makes every instance of `kind` due for a reload now (budgeted, like iOS).
    public func reloadTimelines(ofKind kind: String) {
        reportRefusal { () throws(WidgetCenterError) in try requestReload(ofKinds: [kind]) }
    }

    /// Makes these instances due for a reload now (budgeted), where WidgetKit can only reload
    /// a whole kind: an app that knows which of its widgets changed spends no other's budget.
    public func reloadTimelines(ofInstances ids: [String]) {
        reportRefusal { () throws(WidgetCenterError) in try requestReload(ofInstances: ids) }
    }

    /// Asks the providers of `kind`'s instances for fresh relevance about what they show, and
    /// ranks the stacks again, without new content (iOS 18's `invalidateRelevance(ofKind:)`).
    public func invalidateRelevance(ofKind kind: String) {
        reportRefusal { () throws(WidgetCenterError) in try requestRelevance(ofKinds: [kind]) }
    }

    /// Makes every instance of every kind due for a reload now: from a kind's owner, of the
    /// kinds it owns.
    public func reloadAllTimelines() {
        reportRefusal { () throws(WidgetCenterError) in try requestReloadAll() }
    }

    /// The placed widgets, delivered to `completion` (on a background thread).
    public func getCurrentConfigurations(_ completion: @escaping @Sendable (Result<[WidgetInfo], WidgetCenterError>) -> Void) {
        Thread.detachNewThread {
            completion(Result { () throws(WidgetCenterError) -> [WidgetInfo] in try self.configurations() })
        }
    }

    /// The placed widgets. The socket I/O blocks, so it runs on a thread of its own rather
    /// than on the concurrency pool.
    public func currentConfigurations() async throws(WidgetCenterError) -> [WidgetInfo] {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[WidgetInfo], WidgetCenterError>, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(WidgetCenterError) -> [WidgetInfo] in try self.configurations() })
            }
        }
        return try result.get()
    }

    /// Tells widgetd that the options the app's providers offer have changed: the cached
    /// dynamic options are dropped and asked for again when next needed.
    public func invalidateConfigurationRecommendations() {
        reportRefusal { () throws(WidgetCenterError) in try invalidateRecommendations() }
    }

    /// The non-throwing calls ignore a missing daemon, as on iOS, but a permission error is
    /// a deployment mistake (the app's user does not own the kind): it goes to stderr.
    private func reportRefusal(_ body: () throws(WidgetCenterError) -> some Any) {
        do throws(WidgetCenterError) {
            _ = try body()
        } catch {
            if error.isPermissionDenied { FileHandle.standardError.write(Data("WidgetCenter: \(error.description)\n".utf8)) }
        }
    }

    // MARK: Throwing twins and additions

    /// `reloadTimelines(ofKind:)` for several kinds; `userInitiated` marks a tap, which the
    /// budget exempts. Returns the instances now due.
    @discardableResult
    public func requestReload(ofKinds kinds: [String], userInitiated: Bool = false) throws(WidgetCenterError) -> [String] {
        try call(Methods.ReloadTimelines.self, ReloadTimelinesParams(kinds: kinds, userInitiated: userInitiated)).instances
    }

    /// `invalidateRelevance(ofKind:)` for several kinds; says which instances were refreshed,
    /// left out by the hourly limit, dropped or failed.
    @discardableResult
    public func requestRelevance(ofKinds kinds: [String]) throws(WidgetCenterError) -> InvalidateRelevanceResult {
        try call(Methods.InvalidateRelevance.self, InvalidateRelevanceParams(kinds: kinds))
    }

    /// Runs the action `action` of the entry instance `id` shows, as a host does when its
    /// button is tapped (iOS 17's `Button(intent:)`): the provider performs the intent, the
    /// instance is invalidated and reloaded at once. Returns what the provider answered.
    @discardableResult
    public func perform(instance id: String, action: String) throws(WidgetCenterError) -> PerformResult {
        try call(Methods.Perform.self, PerformParams(instance: id, action: action))
    }

    /// Reloads of single instances; `userInitiated` as above. Returns the instances now due.
    @discardableResult
    public func requestReload(ofInstances ids: [String], userInitiated: Bool = false) throws(WidgetCenterError) -> [String] {
        try call(Methods.ReloadTimelines.self, ReloadTimelinesParams(instances: ids, userInitiated: userInitiated)).instances
    }

    @discardableResult
    public func requestReloadAll(userInitiated: Bool = false) throws(WidgetCenterError) -> [String] {
        try call(Methods.ReloadAllTimelines.self, ReloadAllParams(userInitiated: userInitiated)).instances
    }

    public func configurations() throws(WidgetCenterError) -> [WidgetInfo] {
        try call(Methods.List.self, EmptyParams()).map { WidgetInfo(id: $0.id, kind: $0.kind, family: $0.family, configuration: $0.configuration) }
    }

    @discardableResult
    public func invalidateRecommendations(ofKind kind: String? = nil) throws(WidgetCenterError) -> Int {
        try call(Methods.InvalidateConfigurationRecommendations.self, InvalidateParams(kind: kind)).cleared
    }

    /// Records that the user looked at `intentType` with these parameter values (an intent
    /// donation); Smart Stacks rank matching widgets higher around the same time of day.
    /// Returns the instances it matches.
    @discardableResult
    public func donate(
        intentType: String, parameters: [String: JSONValue] = [:], date: Date? = nil, identifier: String? = nil,
        groupIdentifier: String? = nil
    ) throws(WidgetCenterError) -> [String] {
        let params = DonateParams(intentType: intentType, parameters: parameters, date: date, id: identifier, group: groupIdentifier)
        return try call(Methods.Donate.self, params).matched
    }

    /// Deletes donations by identifier, by group identifier, or all (neither given).
    @discardableResult
    public func deleteDonations(identifier: String? = nil, groupIdentifier: String? = nil) throws(WidgetCenterError) -> Int {
        let params = DonationsDeleteParams(
            id: identifier, group: identifier == nil ? groupIdentifier : nil, all: identifier == nil && groupIdentifier == nil ? true : nil)
        return try call(Methods.DonationsDelete.self, params).deleted
    }

    /// Installs a timeline for an instance from the app: any `Encodable` that encodes as
    /// Timeline JSON (docs/widgets.md), e.g. `WidgetProviderKit.Timeline` or `WidgetCore.Timeline`.
    public func push<T: Encodable>(_ timeline: T, to instance: String) throws(WidgetCenterError) {
        let json: JSONValue
        do {
            json = try WidgetJSON.decoder.decode(JSONValue.self, from: WidgetJSON.encoder.encode(timeline))
        } catch {
            throw .invalidTimeline("\(error)")
        }
        _ = try call(Methods.Push.self, sending: RawPush(id: instance, timeline: json))
    }

    private func call<Spec: MethodSpec>(_ spec: Spec.Type, _ params: Spec.Params) throws(WidgetCenterError) -> Spec.Result {
        try call(spec, sending: params)
    }

    private func call<Spec: MethodSpec, Params: Encodable>(
        _ spec: Spec.Type, sending params: Params
    ) throws(WidgetCenterError) -> Spec.Result {
        do {
            let connection = try WidgetdConnection(path: socketPath)
            return try connection.call(spec, sending: params)
        } catch {
            throw WidgetCenterError(error)
        }
    }
}

/// `push` params with the timeline as sent, so the daemon's validation messages apply.
private struct RawPush: Encodable {
    var id: String
    var timeline: JSONValue
}

/// WidgetKit's `WidgetInfo`: one placed widget.
public struct WidgetInfo: Sendable, Hashable {
    public var id: String
    public var kind: String
    public var family: WidgetFamily
    /// The effective configuration (defaults filled in, hidden parameters removed).
    public var configuration: [String: JSONValue]
}

/// Why a WidgetCenter call failed.
public enum WidgetCenterError: Error, Sendable, CustomStringConvertible {
    /// widgetd is not running, or its socket is elsewhere or not accessible.
    case daemonUnreachable(String)
    /// widgetd refused the request (unknown kind, invalid timeline, ...).
    case refused(code: Int, message: String)
    case invalidTimeline(String)
    case protocolError(String)

    init(_ error: WidgetdClientError) {
        switch error {
        case .cannotConnect, .permissionDenied, .connectionLost: self = .daemonUnreachable(error.description)
        case .daemon(let rpc): self = .refused(code: rpc.code, message: rpc.message)
        case .badResponse(let reason): self = .protocolError(reason)
        }
    }

    /// widgetd refused the caller (`-32013`): the message says who may instead.
    public var isPermissionDenied: Bool {
        if case .refused(let code, _) = self { return code == RPCError.Code.permissionDenied }
        return false
    }

    public var description: String {
        switch self {
        case .daemonUnreachable(let reason): reason
        case .refused(_, let message): message
        case .invalidTimeline(let reason): "timeline not encodable: \(reason)"
        case .protocolError(let reason): reason
        }
    }
}
