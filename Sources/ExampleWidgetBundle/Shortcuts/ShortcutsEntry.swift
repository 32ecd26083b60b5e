import Foundation
import WidgetProviderKit

/// The tutorial's `DynamicIntentWidgetEntry`: the chosen buttons, in order.
/// Content: `{"buttons": [{"id": "scan", "title": "Scan", "imageName": "widget_scan",
/// "url": "alipays://widget/scan"}, ...]}`.
struct ShortcutsEntry: TimelineEntry {
    struct Button: Encodable, Sendable {
        let id: String
        let title: String
        let imageName: String
        let url: String
    }

    let date: Date
    let buttons: [Button]

    init(date: Date, buttons: [ShortcutButton]) {
        self.date = date
        self.buttons = buttons.map { Button(id: $0.rawValue, title: $0.title, imageName: $0.imageName, url: $0.url) }
    }
}
