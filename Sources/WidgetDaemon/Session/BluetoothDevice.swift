import WidgetCore

/// What BlueZ says of one device (`org.bluez.Device1`): only what tells a connected headset.
struct BluetoothDevice: Sendable, Equatable {
    var connected = false
    var icon = ""
    var deviceClass: UInt32 = 0

    /// Icons BlueZ gives headsets and headphones (from their class or their own report).
    static let headsetIcons: Set<String> = ["audio-headset", "audio-headphones"]

    /// A headset or headphones, by icon or by class of device: major class Audio/Video (4),
    /// minor "wearable headset" (1) or "headphones" (6). A hands-free car kit (2) is not one.
    var isHeadset: Bool {
        if Self.headsetIcons.contains(icon) { return true }
        let major = (deviceClass >> 8) & 0x1F
        let minor = (deviceClass >> 2) & 0x3F
        return major == 4 && (minor == 1 || minor == 6)
    }

    /// The properties of a `PropertiesChanged` or of `GetManagedObjects`, applied.
    mutating func update(_ properties: [String: JSONValue]) {
        if case .bool(let value)? = properties["Connected"] { connected = value }
        if case .string(let value)? = properties["Icon"] { icon = value }
        if case .integer(let value)? = properties["Class"], let narrow = UInt32(exactly: value) { deviceClass = narrow }
    }
}
