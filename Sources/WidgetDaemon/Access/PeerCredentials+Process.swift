import Glibc
import WidgetCore

extension PeerCredentials {
    /// This process: what an in-process caller (a handler test) is.
    public static var currentProcess: PeerCredentials {
        PeerCredentials(uid: geteuid(), gid: getegid(), pid: getpid())
    }
}
