import WidgetCore

/// The bus names, paths and interfaces of the services widgetd reads the session from.
enum SessionNames {
    static let logind = "org.freedesktop.login1"
    static let logindPath = "/org/freedesktop/login1"
    static let logindManager = "org.freedesktop.login1.Manager"
    static let logindSession = "org.freedesktop.login1.Session"
    static let upower = "org.freedesktop.UPower"
    static let upowerPath = "/org/freedesktop/UPower"
    static let powerProfiles = "net.hadess.PowerProfiles"
    static let powerProfilesPath = "/net/hadess/PowerProfiles"
    static let bluez = "org.bluez"
    static let bluezDevice = "org.bluez.Device1"
    static let geoclue = "org.freedesktop.GeoClue2"
    static let geoclueManagerPath = "/org/freedesktop/GeoClue2/Manager"
    static let geoclueManager = "org.freedesktop.GeoClue2.Manager"
    static let geoclueClient = "org.freedesktop.GeoClue2.Client"
    static let geoclueLocation = "org.freedesktop.GeoClue2.Location"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// The bus name each source owns.
    static func busName(_ source: ContextSource) -> String {
        switch source {
        case .logind: logind
        case .upower: upower
        case .powerProfiles: powerProfiles
        case .bluez: bluez
        case .geoclue: geoclue
        }
    }

    static func source(busName: String) -> ContextSource? {
        ContextSource.allCases.first { self.busName($0) == busName }
    }

    /// The match rules the watchers add once connected: owners of the names, and the signals
    /// of each service, each limited to its sender.
    static let matchRules: [String] = ContextSource.allCases.map {
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(busName($0))'"
    } + [
        "type='signal',sender='\(logind)',path='\(logindPath)',interface='\(logindManager)'",
        "type='signal',sender='\(logind)',interface='\(properties)',member='PropertiesChanged',arg0='\(logindSession)'",
        "type='signal',sender='\(upower)',path='\(upowerPath)',interface='\(properties)',member='PropertiesChanged',arg0='\(upower)'",
        "type='signal',sender='\(powerProfiles)',path='\(powerProfilesPath)',interface='\(properties)',member='PropertiesChanged',arg0='\(powerProfiles)'",
        "type='signal',sender='\(bluez)',interface='\(properties)',member='PropertiesChanged',arg0='\(bluezDevice)'",
        "type='signal',sender='\(bluez)',interface='\(objectManager)'",
        "type='signal',sender='\(geoclue)',interface='\(geoclueClient)',member='LocationUpdated'",
    ]
}
