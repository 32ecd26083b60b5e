import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// The effective configuration of `given` for a kind and family, or the invalid-params
    /// error naming the parameter. Entity ids are checked against the provider's options.
    func validated(
        _ given: [String: JSONValue], for descriptor: WidgetDescriptor, family: WidgetFamily
    ) async throws(RPCError) -> [String: JSONValue] {
        let effective: [String: JSONValue]
        do {
            effective = try descriptor.effectiveConfiguration(given, family: family)
        } catch {
            throw .invalidConfiguration(error)
        }
        guard let intent = descriptor.intent else { return effective }
        // Entity ids given for a parameter that showIf hides are checked too: a wrong value is
        // an error even where it would be dropped.
        var entities = effective
        for (name, value) in given where value != .null && entities[name] == nil && intent.parameter(name)?.type == .entity {
            entities[name] = value
        }
        var offered: [String: Set<String>] = [:]
        for name in intent.entityParameters(in: entities) {
            let options = try await entityOptions(descriptor, parameter: name, family: family, configuration: effective, search: nil)
            offered[name] = Set(options.map(\.id))
        }
        do {
            try intent.checkEntities(entities, family: family, options: offered)
        } catch {
            throw .invalidConfiguration(error)
        }
        return effective
    }

    /// `widgetctl preview`: the provider's snapshot for a configuration, as a gallery shows it.
    func preview(_ params: PreviewParams, _ call: Reply<EntryResult>) async {
        await answer(call) { () async throws(RPCError) -> EntryResult in
            try await entry(verb: "snapshot", params, isPreview: true, call.call)
        }
    }

    /// The provider's placeholder entry, with the default configuration.
    func placeholder(_ params: PreviewParams, _ call: Reply<EntryResult>) async {
        await answer(call) { () async throws(RPCError) -> EntryResult in
            try await entry(verb: "placeholder", params, isPreview: nil, call.call)
        }
    }

    private func entry(verb: String, _ params: PreviewParams, isPreview: Bool?, _ caller: Call) async throws(RPCError) -> EntryResult {
        let (descriptor, family) = try kindAndFamily(params.kind, params.family)
        try checked { () throws(StateError) in try state.checkConfigurationSize(params.configuration ?? [:]) }
        let configuration = try await validated(params.configuration ?? [:], for: descriptor, family: family)
        try admitPreviewLaunch(caller)
        let data = try await call(descriptor, ProviderRequest(
            verb: verb, kind: descriptor.kind, family: family, configuration: configuration, now: now, isPreview: isPreview))
        do {
            return EntryResult(kind: descriptor.kind, family: family, configuration: configuration, entry: try CallAnswer.entry(from: data))
        } catch {
            throw .providerFailed(descriptor.kind, error.description)
        }
    }

    /// Dynamic options of an entity parameter, optionally filtered by search text.
    func options(_ params: OptionsParams, _ call: Reply<OptionsResult>) async {
        await answer(call) { () async throws(RPCError) -> OptionsResult in
            guard let descriptor = state.descriptors[params.kind] else { throw unknownKind(params.kind) }
            let family: WidgetFamily
            if let name = params.family {
                (_, family) = try kindAndFamily(params.kind, name)
            } else {
                family = descriptor.supportedFamilies[0]
            }
            guard let parameter = descriptor.intent?.parameter(params.parameter) else {
                throw .invalidParams("params.parameter: kind '\(params.kind)' has no parameter '\(params.parameter)'")
            }
            guard parameter.type == .entity else {
                throw .invalidParams(
                    "params.parameter: '\(params.parameter)' is a \(parameter.type.rawValue) parameter; only entity parameters have dynamic options")
            }
            let defaults = (try? descriptor.effectiveConfiguration([:], family: family)) ?? [:]
            let options = try await entityOptions(
                descriptor, parameter: parameter.name, family: family, configuration: defaults, search: params.search,
                for: call.call)
            return OptionsResult(kind: descriptor.kind, parameter: parameter.name, options: options)
        }
    }

    /// WidgetCenter's `invalidateConfigurationRecommendations()`: cached option lists are
    /// dropped, so the next configuration check or `options` call asks the providers again.
    /// From a kind's owner without a kind: the options of the kinds in its scope.
    func invalidateConfigurationRecommendations(_ params: InvalidateParams, _ call: Reply<InvalidateResult>) {
        let cleared = launches.options.invalidate(kind: params.kind, onlyKinds: call.scope)
        io.logger.info("configuration recommendations invalidated", metadata: ["kind": "\(params.kind ?? "all")"])
        call.succeed(InvalidateResult(cleared: cleared))
    }

    /// Counts a launch `preview`, `placeholder` or `options` makes for a caller other than
    /// root or the daemon's own user, within `preview-launches-per-minute`.
    private func admitPreviewLaunch(_ caller: Call) throws(RPCError) {
        guard !caller.trusted else { return }
        let now = self.now
        try checked { () throws(StateError) in try state.admitPreviewLaunch(for: caller.caller.uid, at: now) }
    }

    /// The options of an entity parameter, from the cache or the provider. With `caller`
    /// (the `options` method), a launch counts within its rate; the checks of `add` and
    /// `configure`, open only to those who may manage instances, are not counted.
    private func entityOptions(
        _ descriptor: WidgetDescriptor, parameter: String, family: WidgetFamily, configuration: [String: JSONValue],
        search: String?, for caller: Call? = nil
    ) async throws(RPCError) -> [EntityOption] {
        // Options may depend on the values chosen so far (a city list on the country), but
        // not on the entity being chosen.
        let context = configuration.filter { descriptor.intent?.parameter($0.key)?.type != .entity }
        let key = OptionsKey(kind: descriptor.kind, family: family, parameter: parameter, configuration: context)
        if search == nil, let cached = launches.options.cached[key] { return cached }
        if let caller { try admitPreviewLaunch(caller) }
        let generation = launches.options.generation
        let data = try await call(descriptor, ProviderRequest(
            verb: "options", kind: descriptor.kind, family: family, configuration: configuration, now: now,
            parameter: parameter, search: search))
        let answer: [EntityOption]
        do {
            answer = try CallAnswer.options(from: data)
        } catch {
            throw .providerFailed(descriptor.kind, error.description)
        }
        // An invalidation that came while the provider answered wins.
        if search == nil, generation == launches.options.generation { launches.options.cached[key] = answer }
        return answer
    }

    func call(_ descriptor: WidgetDescriptor, _ request: ProviderRequest) async throws(RPCError) -> Data {
        guard let provider = descriptor.provider else { throw .noProvider(descriptor.kind) }
        // A kind whose program may not be run (missing, or writable by others) is never
        // launched, for a preview or options either: those are open to every reader.
        if let problem = descriptor.problem { throw .unusableKind(descriptor.kind, problem: problem) }
        // Every request the daemon builds names its verb.
        let verb = request.verb ?? ""
        let invocation = ProviderInvocation(
            exec: provider.exec, verb: verb, request: (try? WidgetJSON.encoder.encode(request)) ?? Data("{}".utf8),
            timeout: provider.timeout ?? state.settings.providerTimeout, maxAnswerBytes: state.settings.maxAnswerBytes,
            owner: descriptor.owner, memoryMax: state.settings.memoryMax(for: provider),
            cpuMax: state.settings.cpuMax(for: provider), cpuQuota: state.settings.providerCPUQuota)
        do {
            return try await io.runner.run(invocation)
        } catch {
            io.logger.warning("provider call failed", metadata: ["kind": "\(descriptor.kind)", "verb": "\(verb)", "error": "\(error)"])
            throw .providerFailed(descriptor.kind, error.description)
        }
    }

    func kindAndFamily(_ kind: String, _ familyName: String) throws(RPCError) -> (WidgetDescriptor, WidgetFamily) {
        guard let descriptor = state.descriptors[kind] else { throw unknownKind(kind) }
        guard let family = WidgetFamily(rawValue: familyName) else {
            throw .invalidParams(
                "params.family: unknown family '\(familyName)' (known: \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard descriptor.supports(family) else {
            throw .unsupportedFamily(familyName, kind: kind, supported: descriptor.supportedFamilies)
        }
        return (descriptor, family)
    }

    /// Answers `call` with what `body` returns, or its error.
    func answer<R>(_ call: Reply<R>, _ body: () async throws(RPCError) -> R) async {
        do {
            call.succeed(try await body())
        } catch {
            call.fail(error)
        }
    }
}
