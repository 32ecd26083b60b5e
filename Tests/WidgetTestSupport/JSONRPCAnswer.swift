/// The parts of a JSON-RPC answer decoded with `JSONSerialization`.
extension Dictionary where Key == String, Value == Any {
    /// `error.code` of a JSON-RPC answer.
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
    var result: Any? { self["result"] }
}
