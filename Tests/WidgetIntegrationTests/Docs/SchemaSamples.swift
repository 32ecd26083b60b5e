/// Documents for the schema-versus-parser tests: each with whether it is valid.
enum SchemaSamples {
    struct Sample {
        var valid: Bool
        var text: String
    }

    private static let base = #""kind": "com.example.k", "supportedFamilies": ["systemSmall"]"#

    private static func parameter(_ json: String) -> String {
        #"{\#(base), "intent": {"type": "T", "parameters": [\#(json)]}}"#
    }

    static let descriptors: [Sample] = [
        // Valid.
        Sample(valid: true, text: "{\(base)}"),
        Sample(valid: true, text: "[]"),
        Sample(valid: true, text: #"[{\#(base)}, {"kind": "b.two", "supportedFamilies": ["systemLarge", "systemLarge"]}]"#),
        Sample(valid: true, text: #"{\#(base), "displayName": "K", "description": "", "provider": {"exec": ["./p", "--x"], "timeout": 2.5, "batch": true}}"#),
        Sample(valid: true, text: #"{\#(base), "owner": {"user": "alice"}}"#),
        Sample(valid: true, text: #"{\#(base), "owner": {"group": "apps"}}"#),
        Sample(valid: true, text: #"{\#(base), "intent": {"type": "T"}}"#),
        Sample(valid: true, text: parameter(#"{"name": "a", "title": "A", "type": "integer", "default": 5, "min": 1, "max": 10}"#)),
        Sample(valid: true, text: parameter(#"{"name": "a", "type": "decimal", "default": 0.5, "min": -1.5}"#)),
        Sample(valid: true, text: parameter(#"{"name": "a", "type": "enum", "default": "x", "cases": [{"id": "x", "display": "X"}, {"id": "y"}]}"#)),
        Sample(valid: true, text: parameter(#"{"name": "a", "type": "entity", "multiple": true, "count": {"systemSmall": 2}, "default": ["p", "q"]}"#)),
        Sample(valid: true, text: parameter(#"{"name": "a", "type": "date", "default": "2026-01-05T08:00:00Z"}"#)),
        Sample(valid: true, text: parameter(#"{"name": "a", "type": "boolean", "default": false}, {"name": "b", "type": "string", "showIf": {"parameter": "a", "equals": true}}"#)),
        Sample(valid: true, text: #"{\#(base), "intent": {"type": "T", "parameters": [{"name": "a", "type": "string"}], "supportedCombinations": [["a"], []]}}"#),
        // Invalid: keys.
        Sample(valid: false, text: #"{\#(base), "colour": "red"}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "timout": 5}}"#),
        Sample(valid: false, text: #"{\#(base), "intent": {"type": "T", "parameter": []}}"#),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "string", "tilte": "A"}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "enum", "cases": [{"id": "x", "dispaly": "X"}]}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "boolean"}, {"name": "b", "type": "string", "showIf": {"parameter": "a", "equal": true}}"#)),
        Sample(valid: false, text: #"{\#(base), "owner": {"usr": "alice"}}"#),
        Sample(valid: false, text: #"{\#(base), "owner": {"user": "alice", "group": "apps"}}"#),
        // Invalid: values.
        Sample(valid: false, text: #"{"supportedFamilies": ["systemSmall"]}"#),
        Sample(valid: false, text: #"{"kind": "com.example/k", "supportedFamilies": ["systemSmall"]}"#),
        Sample(valid: false, text: #"{"kind": "", "supportedFamilies": ["systemSmall"]}"#),
        Sample(valid: false, text: #"{"kind": "k"}"#),
        Sample(valid: false, text: #"{"kind": "k", "supportedFamilies": []}"#),
        Sample(valid: false, text: #"{"kind": "k", "supportedFamilies": ["systemHuge"]}"#),
        Sample(valid: false, text: #"{\#(base), "displayName": 1}"#),
        Sample(valid: false, text: #"{\#(base), "description": null}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": []}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x", ""]}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "timeout": 0}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "timeout": 3601}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "timeout": "5"}}"#),
        Sample(valid: true, text: #"{\#(base), "provider": {"exec": ["x"], "memoryMax": 16777216, "cpuMax": 86400}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "memoryMax": 16777215}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "memoryMax": 16777216.5}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "cpuMax": 0}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "cpuMax": 1.5}}"#),
        Sample(valid: false, text: #"{\#(base), "provider": {"exec": ["x"], "batch": "yes"}}"#),
        Sample(valid: false, text: #"{\#(base), "intent": {"parameters": []}}"#),
        Sample(valid: false, text: #"{\#(base), "intent": []}"#),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "color"}"#)),
        Sample(valid: false, text: parameter(#"{"type": "string"}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "enum"}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "enum", "cases": []}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "enum", "cases": [{"id": "x", "display": 5}]}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "string", "cases": [{"id": "x"}]}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "string", "min": 1}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "entity", "count": {"systemSmall": 2}}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "entity", "multiple": true, "count": {"systemHuge": 2}}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "entity", "multiple": true, "count": {"systemSmall": 1001}}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "string", "default": 5}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "boolean", "default": "yes"}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "integer", "default": 1.5}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "date", "default": "tomorrow"}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "string", "default": ["x"]}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "string", "multiple": true, "default": "x"}"#)),
        Sample(valid: false, text: parameter(#"{"name": "a", "type": "string", "multiple": "yes"}"#)),
        Sample(valid: false, text: parameter(#"{"name": "b", "type": "string", "showIf": {"parameter": "a"}}"#)),
        // Invalid: the document.
        Sample(valid: false, text: "42"),
        Sample(valid: false, text: #"[{\#(base)}, 7]"#),
        Sample(valid: false, text: #"{\#(base),}"#),
        Sample(valid: false, text: #"{"kind": "k", "kind": "k", "supportedFamilies": ["systemSmall"]}"#),
        Sample(valid: false, text: #"{\#(base)"#),
    ]

    private static let entry = #"{"date": "2026-01-05T08:00:00Z", "content": {"n": 1}}"#

    static let timelines: [Sample] = [
        Sample(valid: true, text: #"{"entries": []}"#),
        Sample(valid: true, text: #"{"entries": [\#(entry)], "policy": "atEnd"}"#),
        Sample(valid: true, text: #"{"entries": [\#(entry)], "policy": "never"}"#),
        Sample(valid: true, text: #"{"entries": [\#(entry)], "policy": {"after": "2026-01-05T10:00:00Z"}}"#),
        Sample(valid: true, text: #"{"entries": [\#(entry)], "policy": null}"#),
        Sample(valid: true, text: #"{"entries": [{"date": "2026-01-05T17:00:00.250+09:00"}]}"#),
        Sample(valid: true, text: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "content": "text", "relevance": {"score": 0.8}}]}"#),
        Sample(valid: true, text: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "relevance": {"score": -1, "duration": 3600}}]}"#),
        Sample(valid: true, text: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "relevance": null}]}"#),
        // Keys a later widgetd may define are ignored.
        Sample(valid: true, text: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "later": 1}], "later": true}"#),
        Sample(valid: false, text: #"{"policy": "atEnd"}"#),
        Sample(valid: false, text: #"{"entries": {}}"#),
        Sample(valid: false, text: #"{"entries": [1]}"#),
        Sample(valid: false, text: #"{"entries": [{"content": 1}]}"#),
        Sample(valid: false, text: #"{"entries": [{"date": "2026-01-05T08:00:00"}]}"#),
        Sample(valid: false, text: #"{"entries": [{"date": "tomorrow"}]}"#),
        Sample(valid: false, text: #"{"entries": [], "policy": "sometimes"}"#),
        Sample(valid: false, text: #"{"entries": [], "policy": {"after": "soon"}}"#),
        Sample(valid: false, text: #"{"entries": [], "policy": {}}"#),
        Sample(valid: false, text: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "relevance": {"duration": 5}}]}"#),
        Sample(valid: false, text: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "relevance": {"score": "high"}}]}"#),
        Sample(valid: false, text: #"{"entries": [{"date": "2026-01-05T08:00:00Z", "relevance": {"score": 1, "duration": -1}}]}"#),
        Sample(valid: false, text: #"[]"#),
        Sample(valid: false, text: #"{"entries": [],}"#),
    ]
}
