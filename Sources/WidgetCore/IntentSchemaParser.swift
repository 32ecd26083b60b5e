import Foundation

/// Reads the `intent` object of a descriptor. Errors name the field, e.g.
/// `intent.parameters[2].max`; the caller adds the file.
enum IntentSchemaParser {
    static let intentKeys = KnownKeys("type", "parameters", "supportedCombinations")
    static let parameterKeys = KnownKeys("name", "title", "type", "cases", "default", "min", "max", "multiple", "count", "showIf")
    static let caseKeys = KnownKeys("id", "display")
    static let showIfKeys = KnownKeys("parameter", "equals")

    /// An action's intent type (`actions[i]`) is read by the same rules, under its own
    /// field name and without `supportedCombinations`.
    static let actionKeys = KnownKeys("type", "parameters")

    static func parse(
        _ object: [String: JSONValue], at prefix: String = "intent", keys: KnownKeys = intentKeys,
        fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) -> IntentSchema {
        try keys.check(object, at: prefix, fail: fail)
        guard case .string(let type)? = object["type"], !type.isEmpty else { throw fail("\(prefix).type", "required non-empty string") }
        var parameters: [IntentParameter] = []
        if let value = object["parameters"] {
            guard case .array(let items) = value else { throw fail("\(prefix).parameters", "expected an array") }
            for (index, item) in items.enumerated() {
                let field = "\(prefix).parameters[\(index)]"
                guard case .object(let fields) = item else { throw fail(field, "expected an object") }
                let parameter = try parameter(fields, field: field, fail: fail)
                guard !parameters.contains(where: { $0.name == parameter.name }) else {
                    throw fail("\(field).name", "'\(parameter.name)' is declared twice")
                }
                parameters.append(parameter)
            }
        }
        for (index, parameter) in parameters.enumerated() {
            guard let showIf = parameter.showIf else { continue }
            let field = "\(prefix).parameters[\(index)].showIf"
            guard let parent = parameters[..<index].first(where: { $0.name == showIf.parameter }) else {
                throw fail("\(field).parameter", "'\(showIf.parameter)' is not a parameter declared before '\(parameter.name)'")
            }
            if let reason = ValueCheck.problem(showIf.equals, for: parent, family: nil, entityIDs: nil) {
                throw fail("\(field).equals", reason)
            }
        }
        var combinations: [[String]] = []
        if let value = object["supportedCombinations"] {
            guard case .array(let sets) = value else { throw fail("\(prefix).supportedCombinations", "expected an array of arrays of names") }
            for (index, set) in sets.enumerated() {
                guard case .array(let names) = set else {
                    throw fail("\(prefix).supportedCombinations[\(index)]", "expected an array of parameter names")
                }
                var combination: [String] = []
                for name in names {
                    guard case .string(let text) = name, parameters.contains(where: { $0.name == text }) else {
                        throw fail("\(prefix).supportedCombinations[\(index)]", "\(name.compactText) is not a declared parameter")
                    }
                    combination.append(text)
                }
                combinations.append(combination)
            }
        }
        return IntentSchema(type: type, parameters: parameters, supportedCombinations: combinations)
    }

    private static func parameter(
        _ fields: [String: JSONValue], field: String, fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) -> IntentParameter {
        try parameterKeys.check(fields, at: field, fail: fail)
        guard case .string(let name)? = fields["name"], !name.isEmpty else { throw fail("\(field).name", "required non-empty string") }
        var title = name
        if let value = fields["title"] {
            guard case .string(let text) = value else { throw fail("\(field).title", "expected a string") }
            title = text
        }
        guard case .string(let typeName)? = fields["type"], let type = ParameterType(rawValue: typeName) else {
            let known = ParameterType.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail("\(field).type", "required, one of \(known)")
        }
        var parameter = IntentParameter(name: name, title: title, type: type)
        if type == .enum {
            guard case .array(let items)? = fields["cases"], !items.isEmpty else {
                throw fail("\(field).cases", "an enum needs a non-empty array of {\"id\", \"display\"}")
            }
            var cases: [EnumCase] = []
            for (index, item) in items.enumerated() {
                if case .object(let object) = item { try caseKeys.check(object, at: "\(field).cases[\(index)]", fail: fail) }
                guard case .object(let object) = item, case .string(let id)? = object["id"], !id.isEmpty else {
                    throw fail("\(field).cases[\(index)]", "expected {\"id\": STRING, \"display\": STRING}")
                }
                var display = id
                if let value = object["display"] {
                    guard case .string(let text) = value else { throw fail("\(field).cases[\(index)].display", "expected a string") }
                    display = text
                }
                guard !cases.contains(where: { $0.id == id }) else { throw fail("\(field).cases[\(index)].id", "'\(id)' is repeated") }
                cases.append(EnumCase(id: id, display: display))
            }
            parameter.cases = cases
        } else if fields["cases"] != nil {
            throw fail("\(field).cases", "only an enum parameter has cases")
        }
        for key in ["min", "max"] {
            guard let value = fields[key] else { continue }
            guard type == .integer || type == .decimal else { throw fail("\(field).\(key)", "only integer and decimal parameters have \(key)") }
            guard let number = value.number else { throw fail("\(field).\(key)", "expected a number") }
            if key == "min" { parameter.min = number } else { parameter.max = number }
        }
        if let min = parameter.min, let max = parameter.max, min > max {
            throw fail("\(field).min", "\(min) is above max \(max)")
        }
        if let value = fields["multiple"] {
            guard case .bool(let multiple) = value else { throw fail("\(field).multiple", "expected true or false") }
            parameter.multiple = multiple
        }
        if let value = fields["count"] {
            guard parameter.multiple else { throw fail("\(field).count", "only a multiple parameter has a count") }
            guard case .object(let counts) = value else { throw fail("\(field).count", "expected {FAMILY: NUMBER, ...}") }
            var byFamily: [WidgetFamily: Int] = [:]
            for (familyName, number) in counts {
                guard let family = WidgetFamily(rawValue: familyName) else { throw fail("\(field).count", "unknown family '\(familyName)'") }
                guard case .integer(let count) = number, count >= 0, count <= 1000 else {
                    throw fail("\(field).count.\(familyName)", "expected an integer 0...1000")
                }
                byFamily[family] = Int(count)
            }
            parameter.count = byFamily
        }
        if let value = fields["showIf"] {
            if case .object(let object) = value { try showIfKeys.check(object, at: "\(field).showIf", fail: fail) }
            guard case .object(let object) = value, case .string(let parent)? = object["parameter"], let equals = object["equals"] else {
                throw fail("\(field).showIf", "expected {\"parameter\": NAME, \"equals\": VALUE}")
            }
            parameter.showIf = ShowIf(parameter: parent, equals: equals)
        }
        if let value = fields["default"] {
            // An entity default cannot be checked against the provider's options here.
            if let reason = ValueCheck.problem(value, for: parameter, family: nil, entityIDs: nil) {
                throw fail("\(field).default", reason)
            }
            parameter.default = value
        }
        return parameter
    }
}

extension JSONValue {
    /// The value as a number, for integers and decimals.
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
