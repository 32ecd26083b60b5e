import Foundation
import Logging
import WidgetCore
import WidgetProtocol

/// Decodes one request line, calls the engine, encodes the answer. Holds no state, so it is
/// testable without a socket.
public struct RequestRouter: Sendable {
    let engine: Engine
    let logger: Logger
    /// The daemon's own uid: its callers, like root's, need no decision (no hop into the engine).
    let daemonUID: UInt32

    public init(engine: Engine, logger: Logger) {
        self.engine = engine
        self.logger = logger
        self.daemonUID = engine.accessDaemonUID
    }

    /// What one request line produces: the answer (nil for a notification) and, for
    /// `subscribe`, the event stream the connection forwards from then on.
    public struct Reply: Sendable {
        public var answer: Data?
        public var subscription: (id: UInt64, events: AsyncStream<Data>)?
    }

    /// The answer line (without its newline), or nil for a notification. Without a connection
    /// to forward events to, a subscription is ended at once. The caller is this process
    /// unless given.
    public func handle(_ line: Data, caller: PeerCredentials = .currentProcess) async -> Data? {
        let reply = await process(line, caller: caller)
        if let subscription = reply.subscription { unsubscribe(subscription.id) }
        return reply.answer
    }

    /// Decodes the line once and answers it for `caller` (who connected).
    public func process(_ line: Data, caller: PeerCredentials) async -> Reply {
        let request: IncomingRequest
        switch RequestDecoder.decode(line) {
        case .failure(let failure):
            return Reply(answer: Self.encode(RPCFailure(id: failure.id, error: failure.error)))
        case .success(let decoded):
            request = decoded
        }
        if request.method == RPCMethod.subscribe.rawValue {
            let answer = Self.reply(request.id, ["subscribed": true])
            return Reply(answer: request.isNotification ? nil : answer, subscription: engine.events.subscribe())
        }
        let answer: Data
        do {
            answer = try await dispatch(request, caller: caller)
        } catch let error as RPCError {
            answer = Self.encode(RPCFailure(id: request.id, error: error))
        } catch {
            logger.error("request failed", metadata: ["method": "\(request.method)", "error": "\(error)"])
            answer = Self.encode(RPCFailure(
                id: request.id, error: RPCError(code: RPCError.Code.internalError, message: "internal error: \(error)")))
        }
        return Reply(answer: request.isNotification ? nil : answer)
    }

    private func dispatch(_ request: IncomingRequest, caller: PeerCredentials) async throws -> Data {
        guard let method = RPCMethod(rawValue: request.method) else { throw RPCError.methodNotFound(request.method) }
        let id = request.id
        let trusted = caller.uid == 0 || caller.uid == daemonUID
        // nil: every kind; else the kinds a request that names none may act on.
        var scope: Set<String>?
        if !trusted, method.access != .open {
            switch await engine.authorize(caller, method: method, subject: try subject(of: method, request)) {
            case .allowed: break
            case .allowedKinds(let kinds): scope = Set(kinds)
            case .refused(let refusal):
                logRefusal(refusal, caller: caller)
                throw RPCError.permissionDenied(refusal)
            }
        }
        switch method {
        case .ping: return Self.reply(id, await engine.ping())
        case .status: return Self.reply(id, await engine.status())
        case .widgets: return Self.reply(id, await engine.widgets())
        case .add: return Self.reply(id, try await engine.add(request.params(AddParams.self)))
        case .remove: return Self.reply(id, try await engine.remove(request.params(InstanceParams.self)))
        case .configure: return Self.reply(id, try await engine.configure(request.params(ConfigureParams.self)))
        case .list: return Self.reply(id, await engine.list())
        case .timeline: return Self.reply(id, try await engine.timeline(request.params(InstanceParams.self)))
        case .push: return Self.reply(id, try await engine.push(request.params(PushParams.self)))
        case .reloadTimelines:
            return Self.reply(id, try await engine.reloadTimelines(request.params(ReloadTimelinesParams.self)))
        case .reloadAllTimelines:
            return Self.reply(id, try await engine.reloadAllTimelines(request.params(ReloadAllParams.self), onlyKinds: scope))
        case .schedule: return Self.reply(id, await engine.schedule())
        case .budget: return Self.reply(id, try await engine.budget(request.params(InstanceParams.self)))
        case .clock: return Self.reply(id, await engine.clockInfo())
        case .clockAdvance: return Self.reply(id, try await engine.advance(request.params(ClockAdvanceParams.self)))
        case .clockSet: return Self.reply(id, try await engine.setClock(request.params(ClockSetParams.self)))
        case .preview: return Self.reply(id, try await engine.preview(request.params(PreviewParams.self)))
        case .placeholder: return Self.reply(id, try await engine.placeholder(request.params(PreviewParams.self)))
        case .options: return Self.reply(id, try await engine.options(request.params(OptionsParams.self)))
        case .stackCreate: return Self.reply(id, try await engine.createStack(request.params(StackCreateParams.self)))
        case .stackAdd: return Self.reply(id, try await engine.addToStack(request.params(StackAddParams.self)))
        case .stackShow:
            return Self.reply(id, try await engine.showStack(request.params(StackNameParams.self), viewer: trusted ? nil : caller))
        case .stackList: return Self.reply(id, await engine.listStacks())
        case .stackSwipe: return Self.reply(id, try await engine.swipe(request.params(StackSwipeParams.self)))
        case .stackSmartRotate: return Self.reply(id, try await engine.setSmartRotate(request.params(StackSmartRotateParams.self)))
        case .stackRemove: return Self.reply(id, try await engine.removeStack(request.params(StackNameParams.self)))
        case .donate: return Self.reply(id, try await engine.donate(request.params(DonateParams.self)))
        case .donationsDelete:
            return Self.reply(id, try await engine.deleteDonations(request.params(DonationsDeleteParams.self), onlyKinds: scope))
        case .log: return Self.reply(id, try await engine.decisionLog(request.params(LogParams.self)))
        case .explain: return Self.reply(id, try await engine.explain(request.params(StackNameParams.self)))
        case .visible: return Self.reply(id, try await engine.reportVisible(request.params(VisibleParams.self)))
        case .subscribe:
            // Answered by `process`, which also opens the event stream.
            return Self.reply(id, ["subscribed": true])
        case .invalidateConfigurationRecommendations:
            return Self.reply(
                id, await engine.invalidateConfigurationRecommendations(try request.params(InvalidateParams.self), onlyKinds: scope))
        }
    }

    /// What a kind-scoped request acts on, read from its params.
    private func subject(of method: RPCMethod, _ request: IncomingRequest) throws(RPCError) -> AccessSubject {
        switch method {
        case .push: return .instance(try request.params(InstanceParams.self).id)
        case .reloadTimelines: return .kinds(try request.params(ReloadTimelinesParams.self).kinds)
        case .donate: return .intentType(try request.params(DonateParams.self).intentType)
        case .invalidateConfigurationRecommendations:
            return try request.params(InvalidateParams.self).kind.map { .kinds([$0]) } ?? .callersKinds
        case .reloadAllTimelines, .donationsDelete: return .callersKinds
        default: return .none
        }
    }

    /// Each refusal once, with the fields a journal query wants.
    private func logRefusal(_ refusal: AccessRefusal, caller: PeerCredentials) {
        var metadata: Logger.Metadata = [
            "uid": "\(caller.uid)", "gid": "\(caller.gid)", "pid": "\(caller.pid)", "method": "\(refusal.method)",
            "allowed": "\(refusal.allowed.joined(separator: "; "))",
        ]
        if let kind = refusal.kind { metadata["kind"] = "\(kind)" }
        if let type = refusal.intentType { metadata["intent_type"] = "\(type)" }
        logger.warning("permission denied", metadata: metadata)
    }

    public func unsubscribe(_ id: UInt64) {
        engine.events.unsubscribe(id)
    }

    static func reply<R: Encodable>(_ id: RPCID?, _ result: R) -> Data {
        encode(RPCSuccess(id: id, result: result))
    }

    /// The hot answers (reload, donate) skip `JSONEncoder`; the bytes are the same.
    static func reply<R: DirectJSONEncodable>(_ id: RPCID?, _ result: R) -> Data {
        RPCSuccess(id: id, result: result).directJSON()
    }

    static func encode<T: Encodable>(_ value: T) -> Data {
        (try? WidgetJSON.encoder.encode(value))
            ?? Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error: answer not encodable"}}"#.utf8)
    }
}
