import Foundation

/// Turns the bytes of one descriptor file into descriptors. Pure: the caller reads the file.
public enum DescriptorParser {
    /// A file holds one descriptor object or an array of them. Any error rejects the whole
    /// file, with a reason that says where: a line and column for broken JSON, else the JSON
    /// path of the value (`$.provider.timeout`, `$[1].kind`). A key a descriptor does not
    /// define is an error too. `accounts` resolves an `owner`'s name; with the default (no
    /// accounts) a descriptor that names an owner is rejected. `programs` says whether a
    /// provider's program can be run: one that cannot leaves the kind loaded, its `problem` set.
    public static func parse(
        _ data: Data, path: String, accounts: any AccountDirectory = AccountTable(),
        programs: any ProgramDirectory = UncheckedPrograms()
    ) throws(DescriptorProblem) -> [WidgetDescriptor] {
        if let error = JSONSyntax.check(Array(data)) {
            throw DescriptorProblem(path: path, reason: "not valid JSON: \(error)")
        }
        let json: JSONValue
        do {
            json = try WidgetJSON.decoder.decode(JSONValue.self, from: data)
        } catch {
            // The syntax is sound, so what is left is text that is not UTF-8 or a number too large.
            throw DescriptorProblem(path: path, reason: "not valid JSON: not UTF-8, or a number out of range")
        }
        let context = Context(
            folder: (path as NSString).deletingLastPathComponent, path: path, accounts: accounts, programs: programs)
        switch json {
        case .object(let object):
            return [try descriptor(object, at: "$", context)]
        case .array(let items):
            var result: [WidgetDescriptor] = []
            for (index, item) in items.enumerated() {
                guard case .object(let object) = item else {
                    throw DescriptorProblem(path: path, reason: "$[\(index)]: expected an object")
                }
                result.append(try descriptor(object, at: "$[\(index)]", context))
            }
            return result
        default:
            throw DescriptorProblem(path: path, reason: "$: expected an object or an array of objects")
        }
    }

    private struct Context {
        var folder: String
        var path: String
        var accounts: any AccountDirectory
        var programs: any ProgramDirectory
    }

    static let descriptorKeys = KnownKeys(
        "kind", "displayName", "description", "supportedFamilies", "provider", "intent", "owner",
        "accentColor", "backgroundColor", "templates", "actions", "clues")
    static let templateKeys = KnownKeys("html", "text", "tooltip")
    static let providerKeys = KnownKeys("exec", "timeout", "batch", "memoryMax", "cpuMax")

    /// `clues`: the kinds of context clue the kind's entries may name, each once.
    private static func clueKinds(
        _ value: JSONValue, fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) -> Set<ClueKind> {
        let known = ClueKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .array(let items) = value else { throw fail("clues", "expected an array of clue names (\(known))") }
        var kinds = Set<ClueKind>()
        for (index, item) in items.enumerated() {
            guard case .string(let name) = item, let kind = ClueKind(rawValue: name) else {
                throw fail("clues[\(index)]", "unknown clue \(item.compactText) (known: \(known))")
            }
            guard kinds.insert(kind).inserted else { throw fail("clues[\(index)]", "'\(name)' is named twice") }
        }
        return kinds
    }

    /// `actions`: intent types read by the intent schema's rules, each type named once.
    private static func actionTypes(
        _ value: JSONValue, fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) -> [IntentSchema] {
        guard case .array(let items) = value else { throw fail("actions", "expected an array of {\"type\", \"parameters\"}") }
        var types: [IntentSchema] = []
        for (index, item) in items.enumerated() {
            let field = "actions[\(index)]"
            guard case .object(let fields) = item else { throw fail(field, "expected an object") }
            let type = try IntentSchemaParser.parse(fields, at: field, keys: IntentSchemaParser.actionKeys, fail: fail)
            guard !types.contains(where: { $0.type == type.type }) else { throw fail("\(field).type", "'\(type.type)' is declared twice") }
            types.append(type)
        }
        return types
    }

    private static func descriptor(
        _ object: [String: JSONValue], at prefix: String, _ context: Context
    ) throws(DescriptorProblem) -> WidgetDescriptor {
        func fail(_ field: String, _ reason: String) -> DescriptorProblem {
            let separator = field.isEmpty || field.hasPrefix(".") || field.hasPrefix("[") ? "" : "."
            return DescriptorProblem(path: context.path, reason: "\(prefix)\(separator)\(field): \(reason)")
        }
        try descriptorKeys.check(object, at: "", fail: fail)
        guard case .string(let kind)? = object["kind"] else { throw fail("kind", "required string") }
        guard isValidKind(kind) else {
            throw fail("kind", "'\(kind)' must be 1-200 letters, digits, '.', '-' or '_'")
        }
        var displayName = kind
        if let value = object["displayName"] {
            guard case .string(let name) = value else { throw fail("displayName", "expected a string") }
            displayName = name
        }
        var description = ""
        if let value = object["description"] {
            guard case .string(let text) = value else { throw fail("description", "expected a string") }
            description = text
        }
        guard case .array(let familyValues)? = object["supportedFamilies"], !familyValues.isEmpty else {
            throw fail("supportedFamilies", "required non-empty array of family names")
        }
        var families: [WidgetFamily] = []
        for (index, value) in familyValues.enumerated() {
            guard case .string(let name) = value, let family = WidgetFamily(rawValue: name) else {
                let known = WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
                throw fail("supportedFamilies[\(index)]", "unknown family \(value.compactText) (known: \(known))")
            }
            if !families.contains(family) { families.append(family) }
        }
        var provider: ProviderSpec?
        if let value = object["provider"] {
            provider = try providerSpec(value, folder: context.folder, fail: fail)
        }
        var intent: IntentSchema?
        if let value = object["intent"] {
            guard case .object(let fields) = value else { throw fail("intent", "expected an object") }
            intent = try IntentSchemaParser.parse(fields, fail: fail)
        }
        var owner: KindOwner?
        if let value = object["owner"] {
            owner = try kindOwner(value, accounts: context.accounts, fail: fail)
        }
        // After the owner: who may own the program depends on it.
        var problem: String?
        if let provider, let reason = context.programs.problem(running: provider.exec[0], owner: owner) {
            problem = fail("provider.exec[0]", reason).reason
        }
        var descriptor = WidgetDescriptor(
            kind: kind, displayName: displayName, description: description, supportedFamilies: families,
            provider: provider, intent: intent, source: context.path, owner: owner, problem: problem)
        descriptor.accentColor = try colour(object["accentColor"], "accentColor", fail: fail)
        descriptor.backgroundColor = try colour(object["backgroundColor"], "backgroundColor", fail: fail)
        if let value = object["templates"] {
            descriptor.templates = try templates(value, folder: context.folder, fail: fail)
        }
        if let value = object["actions"] {
            descriptor.actions = try actionTypes(value, fail: fail)
        }
        if let value = object["clues"] {
            descriptor.clues = try clueKinds(value, fail: fail)
        }
        return descriptor
    }

    /// A CSS colour as a host's style sheet takes it (`#0a84ff`, `rgb(10 132 255)`, `teal`).
    /// Only its characters are checked: enough that the value cannot end a declaration and
    /// start another, while every colour syntax a browser knows still passes.
    private static func colour(
        _ value: JSONValue?, _ field: String, fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value, (1...64).contains(text.utf8.count),
            text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "0123456789#(),.%/ -".unicodeScalars.contains($0)) })
        else {
            throw fail(field, "expected a CSS colour such as \"#0a84ff\", \"rgb(10 132 255)\" or \"teal\"")
        }
        return text
    }

    private static func templates(
        _ value: JSONValue, folder: String, fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) -> DisplayTemplates {
        guard case .object(let object) = value else { throw fail("templates", "expected an object") }
        try templateKeys.check(object, at: "templates", fail: fail)
        func text(_ key: String) throws(DescriptorProblem) -> String? {
            guard let value = object[key] else { return nil }
            guard case .string(let text) = value, !text.isEmpty, !text.contains("\u{0}") else {
                throw fail("templates.\(key)", "expected a non-empty string")
            }
            return text
        }
        var html = try text("html")
        if let path = html {
            guard path.hasSuffix(".mustache") else {
                throw fail("templates.html", "expected the path of a .mustache file")
            }
            html = path.hasPrefix("/") ? path : lexicallyNormalised((folder.isEmpty ? "." : folder) + "/" + path)
        }
        return DisplayTemplates(html: html, text: try text("text"), tooltip: try text("tooltip"))
    }

    /// `{"user": NAME}` or `{"group": NAME}`, exactly one, naming an account that exists.
    private static func kindOwner(
        _ value: JSONValue, accounts: any AccountDirectory, fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) -> KindOwner {
        if case .object(let object) = value { try KnownKeys("user", "group").check(object, at: "owner", fail: fail) }
        guard case .object(let object) = value, object.count == 1, let (key, nameValue) = object.first else {
            throw fail("owner", "expected {\"user\": NAME} or {\"group\": NAME}")
        }
        guard case .string(let name) = nameValue, AccessSettings.isValidAccountName(name) else {
            throw fail("owner.\(key)", "expected a \(key) name")
        }
        if key == "user" {
            guard let uid = accounts.userID(named: name) else { throw fail("owner.user", "no user named '\(name)'") }
            return .user(name: name, uid: uid)
        }
        guard let gid = accounts.groupID(named: name) else { throw fail("owner.group", "no group named '\(name)'") }
        return .group(name: name, gid: gid)
    }

    private static func providerSpec(
        _ value: JSONValue, folder: String, fail: (String, String) -> DescriptorProblem
    ) throws(DescriptorProblem) -> ProviderSpec {
        guard case .object(let object) = value else { throw fail("provider", "expected an object") }
        try providerKeys.check(object, at: "provider", fail: fail)
        guard case .array(let argv)? = object["exec"], !argv.isEmpty else {
            throw fail("provider.exec", "required non-empty array of strings")
        }
        var exec: [String] = []
        for (index, item) in argv.enumerated() {
            guard case .string(let text) = item, !text.isEmpty, !text.contains("\u{0}") else {
                throw fail("provider.exec[\(index)]", "expected a non-empty string")
            }
            exec.append(text)
        }
        exec[0] = resolveProgram(exec[0], folder: folder)
        var timeout: TimeInterval?
        if let value = object["timeout"] {
            let seconds: Double
            switch value {
            case .integer(let number): seconds = Double(number)
            case .number(let number): seconds = number
            default: throw fail("provider.timeout", "expected a number of seconds")
            }
            guard seconds > 0, seconds <= 3600 else { throw fail("provider.timeout", "must be > 0 and <= 3600 seconds") }
            timeout = seconds
        }
        var batch = false
        if let value = object["batch"] {
            guard case .bool(let flag) = value else { throw fail("provider.batch", "expected true or false") }
            batch = flag
        }
        // Only lower than `memory-max` and `cpu-max` of widgetd.conf take effect (the launch
        // takes the smaller); the ranges are the settings'.
        var memoryMax: Int?
        if let value = object["memoryMax"] {
            let range = DaemonSettings.providerMemoryRange
            guard case .integer(let bytes) = value, range.contains(Int(clamping: bytes)) else {
                throw fail("provider.memoryMax", "expected an integer number of bytes in \(range.lowerBound)...\(range.upperBound)")
            }
            memoryMax = Int(bytes)
        }
        var cpuMax: Int?
        if let value = object["cpuMax"] {
            guard case .integer(let seconds) = value, (1...86_400).contains(seconds) else {
                throw fail("provider.cpuMax", "expected an integer number of seconds in 1...86400")
            }
            cpuMax = Int(seconds)
        }
        return ProviderSpec(exec: exec, timeout: timeout, batch: batch, memoryMax: memoryMax, cpuMax: cpuMax)
    }

    /// A path with a slash is relative to the descriptor's folder; a bare name stays bare and is
    /// looked up on PATH when launched.
    static func resolveProgram(_ program: String, folder: String) -> String {
        guard program.contains("/"), !program.hasPrefix("/") else { return program }
        return lexicallyNormalised((folder.isEmpty ? "." : folder) + "/" + program)
    }

    /// Removes `.` and resolves `..` without touching the file system, so a provider that is
    /// a symlink (a multi-call binary) keeps the name the descriptor gave it.
    static func lexicallyNormalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !path.hasPrefix("/") { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    static func isValidKind(_ kind: String) -> Bool {
        guard (1...200).contains(kind.utf8.count) else { return false }
        return kind.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || scalar == "." || scalar == "-" || scalar == "_"
        }
    }
}
