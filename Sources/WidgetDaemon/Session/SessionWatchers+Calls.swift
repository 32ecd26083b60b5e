import CSystemd
import Glibc
import WidgetCore

/// Calls to the services, on the watchers' thread; each waits at most `callTimeout`.
extension SessionWatchers {
    enum Argument {
        case plain(DBusValue)
        case variant(DBusValue)
    }

    /// The answer's args as JSON, or nil when the call failed (logged at debug: a service that
    /// is missing is the ordinary case).
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ args: [Argument] = []) -> [JSONValue]? {
        withReply(destination, path, interface, member, args) { reply in try? DBusMessageCoding.readAll(reply) } ?? nil
    }

    /// Makes the call and hands its reply to `read`; nil when it failed.
    func withReply<T>(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ args: [Argument],
        _ read: (OpaquePointer) -> T
    ) -> T? {
        guard let bus else { return nil }
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, destination, path, interface, member) >= 0, let message else { return nil }
        defer { sd_bus_message_unref(message) }
        do {
            for arg in args {
                switch arg {
                case .plain(let value): try DBusMessageCoding.append(message, value)
                case .variant(let value): try DBusMessageCoding.appendVariant(message, value)
                }
            }
        } catch {
            return nil
        }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message, Self.callTimeout, &error, &reply)
        guard result >= 0, let reply else {
            logger.debug("session call failed", metadata: [
                "destination": "\(destination)", "member": "\(member)",
                "error": "\(error.message.map { String(cString: $0) } ?? String(cString: strerror(-result)))",
            ])
            return nil
        }
        defer { sd_bus_message_unref(reply) }
        return read(reply)
    }

    /// `Properties.GetAll` of one interface (empty when the call failed).
    func properties(_ destination: String, _ path: String, _ interface: String) -> [String: JSONValue] {
        guard case .object(let values)? = call(destination, path, SessionNames.properties, "GetAll", [.plain(.string(interface))])?.first else {
            return [:]
        }
        return values
    }

    func nameHasOwner(_ name: String) -> Bool {
        let answer = call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.plain(.string(name))])
        return answer?.first == .bool(true)
    }

    // MARK: The delay inhibitor

    /// Takes logind's delay inhibitor for sleep (once: a second is not taken while one is held).
    func takeInhibitor() {
        guard inhibitor < 0 else { return }
        let args: [Argument] = [
            .plain(.string("sleep")), .plain(.string("widgetd")),
            .plain(.string("Finishing state writes before sleep")), .plain(.string("delay")),
        ]
        let fd = withReply(SessionNames.logind, SessionNames.logindPath, SessionNames.logindManager, "Inhibit", args) { reply -> Int32 in
            var received: Int32 = -1
            guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "h")), &received) >= 0, received >= 0 else { return -1 }
            // The reply owns its descriptor: keep a copy of our own.
            return fcntl(received, F_DUPFD_CLOEXEC, 3)
        }
        guard let fd, fd >= 0 else {
            logger.warning("logind refused a delay inhibitor: a commit under way may be cut by sleep")
            return
        }
        inhibitor = fd
        logger.debug("sleep delay inhibitor taken")
    }

    /// The commits are synced: sleep may go on.
    func releaseInhibitor() {
        guard inhibitor >= 0 else { return }
        closeInhibitor()
        logger.info("commits synced: sleep may go on")
    }

    func closeInhibitor() {
        guard inhibitor >= 0 else { return }
        close(inhibitor)
        inhibitor = -1
    }
}
