import Logging
import WidgetCore

/// What both log handlers write of an event: its message and metadata with control
/// characters escaped (`ControlEscaping`), so a name or error a client or provider chose
/// cannot forge a line or send a terminal escape to whoever reads the log.
enum LogText {
    static func message(_ message: Logger.Message) -> String {
        ControlEscaping.escaped(message.description)
    }

    /// The handler's, the provider's and the event's metadata merged (the later wins), keys
    /// sorted, every key and value escaped.
    static func metadata(
        _ base: Logger.Metadata, provider: Logger.MetadataProvider?, event: Logger.Metadata?
    ) -> [(key: String, value: String)] {
        var merged = base
        if let provided = provider?.get() { merged.merge(provided) { $1 } }
        if let event { merged.merge(event) { $1 } }
        return merged.sorted { $0.key < $1.key }.map { (ControlEscaping.escaped($0.key), ControlEscaping.escaped("\($0.value)")) }
    }
}
