import Foundation

extension MethodSpec {
    /// Reads params given as a JSON object outside a request (a web host's body), exactly as
    /// the daemon reads a request's: the same checks and the same error text
    /// (`params.family: expected a string`).
    public static func params(fromObject json: Data) throws(RPCError) -> Params {
        try IncomingRequest(id: nil, hasID: false, method: name, params: .object(json)).params(Params.self)
    }
}
