/// One kind served by a bundle: a ``StaticConfiguration`` or an ``IntentConfiguration``,
/// listed in ``WidgetProviderBundle/body``. Other types cannot be served.
///
/// Unlike WidgetKit's, it carries no view and no display name, description or supported
/// families: those live in the kind's descriptor JSON.
public protocol WidgetConfiguration: Sendable {
    /// The kind, exactly as in its descriptor (`"kind": "com.example.random-number"`).
    var kind: String { get }
}
