import Foundation
import WidgetCore

extension EventNotification {
    /// The event line (without its newline), byte for byte what `WidgetJSON.encoder` writes
    /// (sorted keys, absent optionals left out), without `JSONEncoder`: every reload is told to
    /// every subscriber, and through the encoder the line cost more than the rest of telling it.
    /// nil for what is left to the encoder: an entry change (its content is any JSON), a
    /// decision with a number that is not finite, and a read of the widgets directories (rare).
    public func directJSON() -> Data? {
        let event = params
        guard event.entry == nil, event.widgets == nil else { return nil }
        var out = JSONText(capacity: 192 + 12 * (event.instances?.count ?? 0))
        out.raw(#"{"jsonrpc":"2.0","method":"event","params":{"#)
        if let action = event.action {
            out.raw(#""action":"#)
            out.string(action)
            out.raw(",")
        }
        out.raw(#""date":"#)
        out.date(event.date)
        if let decision = event.decision {
            guard let text = decision.jsonText else { return nil }
            out.raw(#","decision":"#)
            out.json(text)
        }
        if let error = event.error {
            out.raw(#","error":"#)
            out.string(error)
        }
        if let instance = event.instance {
            out.raw(#","instance":"#)
            out.string(instance)
        }
        if let instances = event.instances {
            out.raw(#","instances":"#)
            out.strings(instances)
        }
        if let kind = event.kind {
            out.raw(#","kind":"#)
            out.string(kind)
        }
        if let stack = event.stack {
            out.raw(#","stack":"#)
            stack.writeJSON(to: &out)
        }
        if let stackName = event.stackName {
            out.raw(#","stackName":"#)
            out.string(stackName)
        }
        out.raw(#","type":"#)
        out.string(event.type.rawValue)
        out.raw("}}")
        return Data(out.bytes)
    }
}
