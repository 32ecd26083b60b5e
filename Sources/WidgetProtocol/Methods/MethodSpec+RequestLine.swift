import Foundation
import WidgetCore

extension MethodSpec {
    /// A request line for this method (without its newline) with params already written as
    /// one JSON object, passed on as they are: for a server that hands the engine a payload it
    /// received (an MQTT message) and so leaves its checks, and their messages, to the method.
    public static func requestLine(id: Int64, params: some Collection<UInt8>) -> [UInt8] {
        var out = JSONText(capacity: params.count + 64)
        out.raw(#"{"jsonrpc":"2.0","id":"#)
        out.integer(id)
        out.raw(#","method":"#)
        out.string(name)
        out.raw(#","params":"#)
        var line = out.bytes
        line.append(contentsOf: params)
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// A request line for this method with typed params.
    public static func requestLine(id: Int64, params: Params) throws -> [UInt8] {
        requestLine(id: id, params: try WidgetJSON.encoder.encode(params))
    }
}
