/// Versions reported by `ping`. The protocol number changes only when a stable method
/// changes incompatibly; new methods and new result fields do not change it.
public enum ProtocolVersion {
    public static let current = 1
    public static let daemonVersion = "0.1.0"
}
