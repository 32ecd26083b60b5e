import WidgetStore

/// widgetd's exit status when it cannot start, chosen so that systemd does not restart it in
/// a loop for a fault a restart cannot fix: the unit lists these in RestartPreventExitStatus=.
/// Values from sysexits.h, so they also read well outside systemd.
public enum StartupExitStatus {
    /// Anything else (e.g. the socket is taken): 1, and systemd may retry.
    public static let failure: Int32 = 1
    /// EX_USAGE: the command line is invalid. ArgumentParser exits with it before `run()`;
    /// named here so that this list is every status docs/running.md gives.
    public static let badCommandLine: Int32 = 64
    /// EX_DATAERR: the state database is damaged or not a database (damaged pages, tables its
    /// recorded migrations made missing, rows a migration cannot read). A row that merely does
    /// not decode is not a failed start: it is left out and reported.
    public static let corruptState: Int32 = 65
    /// EX_CANTCREAT: the state directory or database cannot be written (read-only, full,
    /// permissions, I/O error).
    public static let stateNotWritable: Int32 = 73
    /// EX_CONFIG: widgetd.conf cannot be read or is invalid.
    public static let badConfiguration: Int32 = 78

    static func status(for error: any Error) -> Int32 {
        switch error {
        case let error as StoreError:
            switch error.kind {
            case .corrupt: corruptState
            case .notWritable: stateNotWritable
            case .other: failure
            }
        case is SettingsFileError: badConfiguration
        default: failure
        }
    }
}
