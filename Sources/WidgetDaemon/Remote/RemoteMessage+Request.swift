import Foundation
import WidgetCore
import WidgetProtocol

extension RemoteMessage {
    /// The request the socket would get for this update, so that a remote update goes through
    /// the same method (params checks, authorization, commit) as a local one. A payload goes
    /// on as it came (it was checked to be exactly one JSON object), for the method to read;
    /// bytes that are not UTF-8 as U+FFFD, as JSON text holds them.
    func requestLine(id: Int64) -> [UInt8] {
        switch self {
        case .reload(let kinds):
            var params = JSONText()
            params.raw(#"{"kinds":"#)
            params.strings(kinds)
            params.raw("}")
            return Methods.ReloadTimelines.requestLine(id: id, params: params.bytes)
        case .reloadAll:
            return Methods.ReloadAllTimelines.requestLine(id: id, params: Array("{}".utf8))
        case .push(let instance, let timeline):
            var params = JSONText(capacity: timeline.count + 64)
            params.raw(#"{"id":"#)
            params.string(instance)
            params.raw(#","timeline":"#)
            params.json(String(decoding: timeline, as: UTF8.self))
            params.raw("}")
            return Methods.Push.requestLine(id: id, params: params.bytes)
        case .donate(let params):
            return Methods.Donate.requestLine(id: id, params: String(decoding: params, as: UTF8.self).utf8)
        }
    }
}
