/// The eight functions the payment-app tutorial offers (its `ButtonType`), each with the
/// image and deep link its button uses.
enum ShortcutButton: String, CaseIterable, Sendable {
    case scan, pay, collect, card, transfer, bills, travel, health

    var title: String {
        switch self {
        case .scan: "Scan"
        case .pay: "Pay"
        case .collect: "Collect"
        case .card: "Card Wallet"
        case .transfer: "Transfer"
        case .bills: "Bills"
        case .travel: "Travel"
        case .health: "Health Code"
        }
    }

    var imageName: String { "widget_\(rawValue)" }

    /// Where a tap goes; the host opens it (WidgetKit's `Link` / `widgetURL`).
    var url: String { "alipays://widget/\(rawValue)" }

    /// The tutorial's `defaultSelectButtons(for:)`; the descriptor's default says the same.
    static let defaults: [ShortcutButton] = [.scan, .pay, .collect, .card]
}
