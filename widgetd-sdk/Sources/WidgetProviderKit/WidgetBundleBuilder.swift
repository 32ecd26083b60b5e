/// Collects the configurations listed in a ``WidgetProviderBundle``'s `body` (WidgetKit's
/// `@WidgetBundleBuilder`), with `if`, `switch` and `for` allowed.
@resultBuilder
public enum WidgetBundleBuilder {
    public static func buildExpression(_ configuration: any WidgetConfiguration) -> [any WidgetConfiguration] {
        [configuration]
    }

    public static func buildExpression(_ configurations: [any WidgetConfiguration]) -> [any WidgetConfiguration] {
        configurations
    }

    public static func buildBlock(_ parts: [any WidgetConfiguration]...) -> [any WidgetConfiguration] {
        parts.flatMap { $0 }
    }

    public static func buildOptional(_ part: [any WidgetConfiguration]?) -> [any WidgetConfiguration] {
        part ?? []
    }

    public static func buildEither(first part: [any WidgetConfiguration]) -> [any WidgetConfiguration] { part }

    public static func buildEither(second part: [any WidgetConfiguration]) -> [any WidgetConfiguration] { part }

    public static func buildArray(_ parts: [[any WidgetConfiguration]]) -> [any WidgetConfiguration] {
        parts.flatMap { $0 }
    }
}
