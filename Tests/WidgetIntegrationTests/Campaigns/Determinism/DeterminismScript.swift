@testable import WidgetIntegrationSupport

/// One fixed script of requests on the virtual clock, whose outputs must be
/// byte for byte the same however busy the machine is. It uses the model check's widgets
/// (`ModelWidgets`) and one more kind, `m.slow`, whose provider takes 0.3 s to answer. Steps
/// name instances `#1`, `#2`, ... by the order of their adds.
enum DeterminismScript {
    static let slowKind = "m.slow"
    static let stacks = ["home", "work"]

    /// The settings, providers and descriptors; returns the `widgetd` arguments.
    static func install(in fixture: DaemonFixture) throws -> [String] {
        let arguments = try ModelWidgets.install(in: fixture)
        // The answer of model-c (so a gamma-like timeline), 0.3 s late; a launch of its own.
        try fixture.provider("model-slow", """
            #!/bin/sh
            sleep 0.3
            exec "${0%/*}/model-c"
            """)
        try fixture.descriptor(slowKind, exec: ["./model-slow"], intent: ModelWidgets.intent(for: .gamma))
        return arguments
    }

    typealias Step = (method: String, params: [String: Any])

    static var steps: [Step] { [
        ("stack.create", ["name": "home"]),
        ("stack.create", ["name": "work"]),
        add(ModelKind.alpha.rawValue, topic: 1, mode: 0, stack: "home"),  // #1
        add(slowKind, topic: 2, mode: 1, stack: "home"),  // #2
        // Pushed at once: the slow first load is still running and lands after it.
        push("#2", [("2026-01-05T08:00:00Z", 5, 0), ("2026-01-05T08:20:00Z", 1, 0)], policy: ["after": "2026-01-05T09:00:00Z"]),
        add(ModelKind.push.rawValue, topic: 1, mode: 0, stack: "home", family: "systemMedium"),  // #3
        push("#3", [("2026-01-05T08:00:00Z", 2, 0), ("2026-01-05T08:30:00Z", 4, 600), ("2026-01-05T09:00:00Z", 1, 0)], policy: "never"),
        add(ModelKind.gamma.rawValue, topic: 1, mode: 0, stack: "work"),  // #4
        push("#4", [("2026-01-05T08:00:00Z", 3, 0)], policy: ["after": "2026-01-05T08:10:00Z"]),
        add(ModelKind.beta.rawValue, topic: 3, mode: 3, stack: "work"),  // #5
        ("stack.add", ["name": "work", "instances": ["#3"]]),
        donate("ModelTopic", ["topic": 1], at: "2026-01-04T08:10:00Z", id: "d1", group: "g1"),
        advance(600),
        ("reloadTimelines", ["kinds": [ModelKind.alpha.rawValue]]),
        ("reloadTimelines", ["kinds": [slowKind], "userInitiated": true]),
        ("stack.swipe", ["name": "home", "instance": "#3"]),
        donate("ModelGamma", ["topic": 1, "mode": 0], at: "2026-01-05T08:10:00Z", id: "d2", group: "g2"),
        advance(1500),
        ("configure", ["id": "#1", "configuration": ["topic": 2]]),
        add(slowKind, topic: 0, mode: 0, stack: "work"),  // #6
        push("#6", [("2026-01-05T08:35:00Z", 2, 0), ("2026-01-05T08:50:00Z", 3, 300)], policy: "atEnd"),
        advance(3600),
        push("#5", [("2026-01-05T09:35:00Z", 4, 0), ("2026-01-05T09:40:00Z", -1, 0)], policy: "atEnd"),
        ("reloadAllTimelines", [:]),
        advance(7200),
        ("stack.swipe", ["name": "work", "instance": "#6"]),
        donate("ModelTopic", ["topic": 2], at: "2026-01-05T11:35:00Z", id: "d3", group: "g3"),
        ("donations.delete", ["group": "g1"]),
        ("clock.set", ["date": "2026-01-05T16:00:00Z"]),
        ("reloadTimelines", ["kinds": [ModelKind.gamma.rawValue, ModelKind.beta.rawValue]]),
        advance(5400),
        ("stack.smartRotate", ["name": "work", "on": false]),
        advance(1800),
        ("stack.smartRotate", ["name": "work", "on": true]),
        advance(3600),
    ] }

    private static func add(_ kind: String, topic: Int, mode: Int, stack: String, family: String = "systemSmall") -> Step {
        ("add", ["kind": kind, "family": family, "configuration": ["topic": topic, "mode": mode], "stack": stack])
    }

    private static func push(_ instance: String, _ entries: [(String, Double, Int)], policy: Any) -> Step {
        let items = entries.enumerated().map { index, entry -> [String: Any] in
            ["date": entry.0, "content": ["v": "\(instance) pushed \(index)"], "relevance": ["score": entry.1, "duration": entry.2]]
        }
        return ("push", ["id": instance, "timeline": ["entries": items, "policy": policy]])
    }

    private static func donate(_ type: String, _ parameters: [String: Any], at date: String, id: String, group: String) -> Step {
        ("donate", ["intentType": type, "parameters": parameters, "date": date, "id": id, "group": group])
    }

    private static func advance(_ seconds: Int) -> Step { ("clock.advance", ["seconds": seconds]) }

    /// `value` with every string `#k` replaced by the id of the k-th add.
    static func resolving(_ value: Any, ids: [String]) -> Any {
        switch value {
        case let text as String:
            guard text.hasPrefix("#"), let index = Int(text.dropFirst()), index >= 1, index <= ids.count else { return text }
            return ids[index - 1]
        case let array as [Any]:
            return array.map { resolving($0, ids: ids) }
        case let object as [String: Any]:
            return object.mapValues { resolving($0, ids: ids) }
        default:
            return value
        }
    }
}
