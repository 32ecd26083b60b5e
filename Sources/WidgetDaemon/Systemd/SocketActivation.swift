import CSystemd
import Foundation

/// Sockets passed by systemd (`sd_listen_fds_with_names`).
public enum SocketActivation {
    /// The inherited listening socket named `control` (`FileDescriptorName=control`). When
    /// systemd passes exactly one socket without that name (e.g. `systemd-socket-activate`
    /// without `--fdname`), that one is used.
    public static func controlSocket() -> CInt? {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        guard count > 0 else { return nil }
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        var chosen: CInt?
        for index in 0..<Int(count) {
            let name = names?[index].map { String(cString: $0) } ?? ""
            if name == "control" { chosen = SD_LISTEN_FDS_START + CInt(index) }
        }
        if chosen == nil, count == 1 { chosen = SD_LISTEN_FDS_START }
        return chosen
    }
}
