import Foundation
import Glibc

/// Tells the engine when /etc/localtime is replaced or changed (`timedatectl
/// set-timezone` swaps the link with a rename), so local times are recomputed at once
/// rather than at the next wake-up.
///
/// It watches the link itself, not /etc: every write in /etc (a DHCP client rewriting
/// resolv.conf, a package install) would otherwise wake the daemon for nothing. A rename
/// over the link ends that watch (the old link is gone), and the new link is watched in its
/// place. Only while /etc/localtime does not exist is /etc watched, for its creation.
enum TimeZoneWatcher {
    private static let linkEvents = UInt32(IN_ATTRIB | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_DELETE_SELF)
    private static let folderEvents = UInt32(IN_CREATE | IN_MOVED_TO)

    /// Starts a thread that calls `changed` after each change; false when inotify is not available.
    @discardableResult
    static func start(_ changed: @escaping @Sendable () -> Void) -> Bool {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return false }
        guard let first = Watch.start(fd) else {
            close(fd)
            return false
        }
        Thread.detachNewThread {
            Thread.current.name = "widgetd-zone"
            var watch = first
            let size = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            while true {
                let count = read(fd, buffer, size)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                let events = InotifyEvent.parse(buffer, count: count)
                var relevant = false
                switch watch {
                case .link(let descriptor):
                    relevant = events.contains { $0.watch == descriptor }
                    // The link was replaced, moved or removed: watch what is there now.
                    let gone = events.contains {
                        $0.watch == descriptor && ($0.has(IN_IGNORED) || $0.has(IN_MOVE_SELF) || $0.has(IN_DELETE_SELF))
                    }
                    if gone {
                        inotify_rm_watch(fd, descriptor)
                        watch = Watch.start(fd) ?? watch
                    }
                case .folder(let descriptor):
                    relevant = events.contains { $0.watch == descriptor && $0.name == "localtime" }
                    if relevant, let linked = Watch.onLink(fd) {
                        inotify_rm_watch(fd, descriptor)
                        watch = linked
                    }
                }
                if relevant { changed() }
            }
        }
        return true
    }

    /// What is watched: the link, or /etc while there is no link.
    private enum Watch {
        case link(Int32)
        case folder(Int32)

        static func onLink(_ fd: Int32) -> Watch? {
            let descriptor = inotify_add_watch(fd, SystemTimeZone.path, linkEvents | UInt32(IN_DONT_FOLLOW))
            return descriptor >= 0 ? Watch.link(descriptor) : nil
        }

        static func start(_ fd: Int32) -> Watch? {
            if let watch = onLink(fd) { return watch }
            let folder = inotify_add_watch(fd, "/etc", folderEvents)
            guard folder >= 0 else { return nil }
            // Made between the two calls: take the link now, or its creation goes unseen.
            if let watch = onLink(fd) {
                inotify_rm_watch(fd, folder)
                return watch
            }
            return .folder(folder)
        }
    }
}
