import Foundation
import WidgetCore

/// Reads `widgetd.conf`: the given path, else `/etc/widgetd/widgetd.conf` when present,
/// else the embedded defaults.
public enum SettingsLoader {
    public static let defaultPath = "/etc/widgetd/widgetd.conf"

    public static func load(path: String?, budgetDisabled: Bool) throws -> DaemonSettings {
        var settings = DaemonSettings()
        let chosen = path ?? (FileManager.default.fileExists(atPath: defaultPath) ? defaultPath : nil)
        if let chosen {
            guard let data = FileManager.default.contents(atPath: chosen) else {
                throw ServerError("cannot read settings file \(chosen)")
            }
            do {
                settings = try DaemonSettings.parse(String(decoding: data, as: UTF8.self))
            } catch {
                throw ServerError("\(chosen): \(error)")
            }
        }
        if budgetDisabled { settings.budgetEnabled = false }
        return settings
    }
}
