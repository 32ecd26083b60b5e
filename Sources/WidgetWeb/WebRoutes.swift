import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import WidgetCore
import WidgetPictures
import WidgetProtocol
import WidgetdClient

/// The host's routes: the page and its assets, the event stream, and a JSON API that the page
/// calls, each route one daemon method (docs/hosts.md lists them) with that method's typed
/// params and result. Query values are read by `QueryValues` and checked here: a value the
/// daemon would refuse, or that could not even be sent to it, is answered 400 naming the
/// parameter.
struct WebRoutes: Sendable {
    /// `log`'s `limit`, as widgetd takes it.
    static let logLimits = 1...100_000

    let daemon: DaemonClient
    let hub: BrowserHub
    let renderer: CardRenderer

    func add(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in Self.page(await FirstPaint.read(daemon, renderer: renderer)) }
        router.get("/app.js") { _, _ in Self.asset(PageAssets.script, "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in Self.asset(PageAssets.style, "text/css; charset=utf-8") }
        router.get("/events") { request, _ in events(request) }

        router.get("/api/page") { _, _ in
            await answer { [renderer] () throws(DaemonCallError) in
                try await daemon.run { connection throws(WidgetdClientError) in try PageModel.read(connection, renderer: renderer) }
            }
        }
        router.post("/api/visible") { request, _ in await visible(request) }
        router.get("/api/widgets") { _, _ in await passOn(Methods.Widgets.self, EmptyParams()) }
        router.get("/api/schedule") { _, _ in await passOn(Methods.Schedule.self, EmptyParams()) }
        router.get("/simulate.svg") { request, _ in
            let hours = try QueryValues(request.uri.query).number(
                "hours", standard: SimulateParams.defaultHours, in: 0...SimulateParams.maxHours, excludingLower: true,
                "a number of hours above 0, at most \(Int(SimulateParams.maxHours))")
            return await simulation(hours: hours)
        }
        router.post("/api/instances") { request, _ in await passOn(Methods.Add.self, try await body(request)) }
        router.post("/api/instances/:id/configure") { request, context in
            await passOn(Methods.Configure.self, try await body(request, ["id": try Self.parameter("id", context)]))
        }
        // A button of the card: the daemon runs the provider's `perform` and reloads the instance.
        router.post("/api/instances/:id/perform") { request, context in
            await passOn(Methods.Perform.self, try await body(request, ["instance": try Self.parameter("id", context)]))
        }
        router.delete("/api/instances/:id") { _, context in
            await passOn(Methods.Remove.self, InstanceParams(id: try Self.parameter("id", context)))
        }
        router.get("/api/instances/:id/timeline") { _, context in
            await passOn(Methods.WidgetTimeline.self, InstanceParams(id: try Self.parameter("id", context)))
        }
        router.get("/api/instances/:id/budget") { _, context in
            await passOn(Methods.Budget.self, InstanceParams(id: try Self.parameter("id", context)))
        }
        router.post("/api/preview") { request, _ in await preview(try await body(request)) }
        router.get("/api/options") { request, _ in await passOn(Methods.Options.self, try QueryValues(request.uri.query).object()) }
        router.post("/api/stacks") { request, _ in await passOn(Methods.StackCreate.self, try await body(request)) }
        router.post("/api/stacks/:name/swipe") { request, context in
            await passOn(Methods.StackSwipe.self, try await body(request, ["name": try Self.parameter("name", context)]))
        }
        router.post("/api/stacks/:name/smart-rotate") { request, context in
            await passOn(Methods.StackSmartRotate.self, try await body(request, ["name": try Self.parameter("name", context)]))
        }
        router.get("/api/stacks/:name/explain") { _, context in
            await passOn(Methods.Explain.self, StackNameParams(name: try Self.parameter("name", context)))
        }
        router.get("/api/stacks/:name/log") { request, context in
            let limit = try QueryValues(request.uri.query).integer("limit", standard: 50, in: Self.logLimits)
            return await passOn(Methods.Log.self, LogParams(stack: try Self.parameter("name", context), limit: limit))
        }
    }

    // MARK: Events

    /// Server-sent events: `hello` (the browser's id for its `visible` reports), then every
    /// daemon event named by its type, and `daemon` when widgetd goes away or comes back.
    private func events(_ request: Request) -> Response {
        let hub = self.hub
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let (id, events) = hub.connect()
            // A browser that closes the page ends its stream at once, so what it showed
            // stops being reported without waiting for a write to fail; SIGTERM ends it too,
            // or the server would wait for the browser before it stops.
            try await withGracefulShutdownHandler {
                try await request.body.consumeWithInboundCloseHandler { _ in
                    try await Self.pass(events, to: &writer, keepingAlive: id, hub)
                } onInboundClosed: {
                    hub.disconnect(id)
                }
            } onGracefulShutdown: {
                hub.disconnect(id)
            }
            hub.disconnect(id)
            try await writer.finish(nil)
        })
    }

    /// Writes each event until the stream ends (the browser left, or the host stops).
    private static func pass(
        _ events: AsyncStream<String>, to writer: inout any ResponseBodyWriter, keepingAlive id: Int, _ hub: BrowserHub
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // A proxy or a sleeping laptop may drop an idle connection silently; a
                // comment now and then finds out.
                while true {
                    try await Task.sleep(for: .seconds(25))
                    hub.keepAlive(id)
                }
            }
            for await event in events {
                try await writer.write(ByteBuffer(string: event))
            }
            group.cancelAll()
        }
    }

    /// `{"client": ID, "instances": [...]}`: what one browser's page shows now.
    private func visible(_ request: Request) async -> Response {
        do {
            let params = try await object(request)
            guard case .integer(let client) = params["client"], case .array(let items) = params["instances"] else {
                return Self.failure(400, "expected {\"client\": NUMBER, \"instances\": [ID, ...]}")
            }
            let instances = Set(items.compactMap(\.stringValue))
            guard hub.show(instances, client: Int(client)) else {
                return Self.failure(404, "no browser \(client) is connected to /events")
            }
            return Self.json(.object(["shown": .array(hub.shown.map(JSONValue.string))]))
        } catch {
            return Self.failure(400, "\(error)")
        }
    }

    /// A preview entry (the provider's snapshot) and its card.
    private func preview(_ body: Data) async -> Response {
        let renderer = self.renderer
        return await answer { () throws(DaemonCallError) in
            let params = try Self.params(Methods.Preview.self, body)
            let kind = params.kind
            let (preview, kinds) = try await daemon.run { connection throws(WidgetdClientError) in
                let preview = try connection.call(Methods.Preview.self, params)
                let kinds = try connection.call(Methods.Widgets.self)
                return (preview, kinds)
            }
            let info = kinds.widgets.first { $0.kind == kind }
            let extra: [String: JSONValue] = [
                "kind": .string(kind), "family": .string(preview.family.rawValue), "displayName": .string(info?.displayName ?? kind),
            ]
            return PreviewCard(family: preview.family.rawValue, entry: preview.entry, html: renderer.html(preview.entry, kind: info, extra: extra))
        }
    }

    /// The coming hours as `widgetctl simulate --svg` draws them: the daemon's dry run of its
    /// state, drawn by the same renderer.
    private func simulation(hours: Double) async -> Response {
        do throws(DaemonCallError) {
            let report = try await daemon.call(Methods.Simulate.self, SimulateParams(hours: hours))
            var headers = HTTPFields()
            headers[.contentType] = "image/svg+xml"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: SimulationPicture.svg(report))))
        } catch {
            let data = (try? WidgetJSON.encoder.encode(["error": error.error])) ?? Data()
            return Self.response(HTTPResponse.Status(code: error.status), data)
        }
    }

    // MARK: Plumbing

    /// Calls `spec`'s method with params already typed.
    private func passOn<Spec: MethodSpec>(_ spec: Spec.Type, _ params: Spec.Params) async -> Response {
        await answer { () throws(DaemonCallError) in try await daemon.call(spec, params) }
    }

    /// Calls `spec`'s method with params read from a JSON object (a body, a query), as the
    /// daemon reads them: members the method does not take are not passed on, and a value of
    /// the wrong form is answered 400 with the daemon's own message.
    private func passOn<Spec: MethodSpec>(_ spec: Spec.Type, _ json: Data) async -> Response {
        await answer { () throws(DaemonCallError) in try await daemon.call(spec, try Self.params(spec, json)) }
    }

    private static func params<Spec: MethodSpec>(_ spec: Spec.Type, _ json: Data) throws(DaemonCallError) -> Spec.Params {
        do {
            return try Spec.params(fromObject: json)
        } catch {
            throw DaemonCallError(status: 400, error: error)
        }
    }

    private func answer<R: Encodable & Sendable>(_ work: () async throws(DaemonCallError) -> R) async -> Response {
        do {
            let value = try await work()
            let data = try WidgetJSON.encoder.encode(value)
            return Self.response(.ok, data)
        } catch let failure as DaemonCallError {
            let data = (try? WidgetJSON.encoder.encode(["error": failure.error])) ?? Data()
            return Self.response(HTTPResponse.Status(code: failure.status), data)
        } catch {
            return Self.failure(500, "\(error)")
        }
    }

    /// The request's JSON object. A body that is not JSON (or holds a number no JSON encoder
    /// writes again, such as 1e999) is the client's fault: 400.
    private func object(_ request: Request) async throws -> [String: JSONValue] {
        let buffer = try await request.body.collect(upTo: 1 << 20)
        guard buffer.readableBytes > 0 else { return [:] }
        let value: JSONValue
        do {
            value = try WidgetJSON.decoder.decode(JSONValue.self, from: Data(buffer.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "the body is not JSON the host can pass on: \(error)")
        }
        guard case .object(let fields) = value else { throw HTTPError(.badRequest, message: "expected a JSON object") }
        return fields
    }

    /// The body's JSON object with the route's path parameters set, as a method's params to read.
    private func body(_ request: Request, _ path: [String: String] = [:]) async throws -> Data {
        var fields = try await object(request)
        for (key, value) in path { fields[key] = .string(value) }
        return Data(JSONValue.object(fields).compactText.utf8)
    }

    /// A path parameter as the page wrote it: Hummingbird leaves a path's percent-encoding
    /// in place (a stack named "my desk" arrives as `my%20desk`).
    private static func parameter(_ name: String, _ context: BasicRequestContext) throws -> String {
        let raw = try context.parameters.require(name)
        return raw.removingPercentEncoding ?? raw
    }

    static func json(_ value: JSONValue) -> Response {
        response(.ok, Data(value.compactText.utf8))
    }

    static func failure(_ status: Int, _ message: String) -> Response {
        let body = JSONValue.object(["error": .object(["code": .integer(-32600), "message": .string(message)])])
        return response(HTTPResponse.Status(code: status), Data(body.compactText.utf8))
    }

    private static func response(_ status: HTTPResponse.Status, _ data: Data) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The page drawn as it is now: never kept by the browser, or a reload would show it as
    /// it was.
    private static func page(_ first: FirstPaint) -> Response {
        var response = asset(PageAssets.html(first), "text/html; charset=utf-8")
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private static func asset(_ text: String, _ type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// `/api/preview`'s answer.
struct PreviewCard: Encodable, Sendable {
    var family: String
    var entry: WidgetEntry?
    var html: String
}
