import Glibc
import WidgetCore

/// User and group names resolved through the system's databases (NSS: /etc/passwd,
/// /etc/group, ...). Asked when descriptors and settings load, never per request.
public struct SystemAccounts: AccountDirectory {
    public init() {}

    public func userID(named name: String) -> UInt32? {
        lookup { buffer in
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            let status = getpwnam_r(name, &entry, buffer.baseAddress!, buffer.count, &found)
            return (status, found == nil ? nil : entry.pw_uid)
        }
    }

    public func groupID(named name: String) -> UInt32? {
        lookup { buffer in
            var entry = group()
            var found: UnsafeMutablePointer<group>?
            let status = getgrnam_r(name, &entry, buffer.baseAddress!, buffer.count, &found)
            return (status, found == nil ? nil : entry.gr_gid)
        }
    }

    /// Calls `body` with a growing buffer until the entry fits (a group with many members
    /// needs more than the usual 16 KiB).
    private func lookup(_ body: (UnsafeMutableBufferPointer<CChar>) -> (CInt, UInt32?)) -> UInt32? {
        var size = 16 * 1024
        while size <= 16 * 1024 * 1024 {
            var buffer = [CChar](repeating: 0, count: size)
            let (status, id) = buffer.withUnsafeMutableBufferPointer { body($0) }
            if status == ERANGE {
                size *= 4
                continue
            }
            return status == 0 ? id : nil
        }
        return nil
    }
}
