import Foundation
import WidgetCore
import WidgetDescriptorFiles

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

    /// The settings and the access policy they name, with the host group resolved to a gid
    /// now (at start and on SIGHUP), not per request. A host group other than the default
    /// must exist; the default may be missing (a user's own daemon), and then only root and
    /// the daemon's own user manage.
    public static func loadWithAccess(
        path: String?, budgetDisabled: Bool, singleUser: Bool = false, accounts: any AccountDirectory = SystemAccounts()
    ) throws -> (settings: DaemonSettings, access: AccessPolicy) {
        let settings = try load(path: path, budgetDisabled: budgetDisabled)
        let name = settings.access.hostGroup
        let gid = accounts.groupID(named: name)
        // A user service has no hosts besides its user: the group is not looked at.
        if gid == nil, !settings.access.hostGroupMayBeMissing, !singleUser {
            throw ServerError("\(path ?? defaultPath): [access] host-group: no group named '\(name)'")
        }
        return (settings, AccessPolicy(daemonUID: geteuid(), hostGroupName: name, hostGID: gid, singleUser: singleUser))
    }
}
