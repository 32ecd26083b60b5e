import WidgetCore

// What a configuration UI asks providers for: previews, placeholders, dynamic options.

extension Methods {
    /// The methods of configuration UIs.
    static let configuration: [any MethodSpec.Type] = [
        Preview.self, Placeholder.self, Options.self, InvalidateConfigurationRecommendations.self,
    ]

    public enum Preview: MethodSpec {
        public typealias Params = PreviewParams
        public typealias Result = EntryResult
        public static let name = "preview"
        public static let access = MethodAccess.open
        public static let summary = "A snapshot entry for a configuration UI or gallery (the provider's `snapshot` verb)."
        public static var example: PreviewParams {
            PreviewParams(kind: "com.example.weather", family: "systemSmall", configuration: ["city": .string("Paris")])
        }
    }

    public enum Placeholder: MethodSpec {
        public typealias Params = PreviewParams
        public typealias Result = EntryResult
        public static let name = "placeholder"
        public static let access = MethodAccess.open
        public static let summary = "The provider's placeholder entry, for the configuration given or the default one."
        public static var example: PreviewParams { Preview.example }
    }

    public enum Options: MethodSpec {
        public typealias Params = OptionsParams
        public typealias Result = OptionsResult
        public static let name = "options"
        public static let access = MethodAccess.open
        public static let summary = "Dynamic options of an `entity` parameter (the provider's `options` verb)."
        public static var example: OptionsParams {
            OptionsParams(kind: "com.example.weather", parameter: "city", search: "Pa", family: "systemSmall")
        }
    }

    public enum InvalidateConfigurationRecommendations: MethodSpec {
        public typealias Params = InvalidateParams
        public typealias Result = InvalidateResult
        public static let name = "invalidateConfigurationRecommendations"
        public static let access = MethodAccess.kinds(.invalidate)
        public static let summary = "WidgetCenter's `invalidateConfigurationRecommendations()`: forgets cached options."
        public static var example: InvalidateParams { InvalidateParams(kind: "com.example.weather") }
        public static func subject(of params: InvalidateParams) -> AccessSubject {
            params.kind.map { .kinds([$0]) } ?? .callersKinds
        }
    }
}
