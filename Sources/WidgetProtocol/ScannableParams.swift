import Foundation

/// Params that can be read straight from the request's bytes, without `JSONDecoder`: the
/// methods apps and hosts call most (`reloadTimelines`, `donate`, `push`, `visible`); every
/// other method decodes with `JSONDecoder`.
///
/// `scan` must give exactly the value `WidgetJSON.decoder` gives, or nil: nil for anything
/// but plainly valid input, which the general decoder then reads (and whose error it gives),
/// so error answers are the same text whichever path a request takes. `scripts/fuzz` checks
/// every value a scanner gives against `JSONDecoder`'s.
public protocol ScannableParams: Decodable {
    /// `json`: the bytes of the params object (`{}` when the request has none).
    static func scan(_ json: UnsafeRawBufferPointer) -> Self?
}

extension IncomingRequest {
    /// Decodes params as `P` once; absent params decode as an empty object; a mismatch is
    /// an invalid-params error naming the field (`params.kinds: expected an array`).
    ///
    /// When `P` is `ScannableParams` its scanner reads the bytes first; this overload finds
    /// that out at run time (one conformance lookup, cached by the runtime), the one below
    /// when the caller names a scannable type. `fastPath: false` uses `JSONDecoder` only
    /// (tests and the fuzzer compare the two).
    public func params<P: Decodable>(_ type: P.Type, fastPath: Bool = true) throws(RPCError) -> P {
        if fastPath, let scannable = P.self as? any ScannableParams.Type, let value = scanned(scannable, as: P.self) {
            return value
        }
        return try decodedParams(P.self)
    }

    /// As above, for a type known to be scannable where the call is written.
    public func params<P: ScannableParams>(_ type: P.Type, fastPath: Bool = true) throws(RPCError) -> P {
        if fastPath, let value = scanned(P.self) { return value }
        return try decodedParams(P.self)
    }

    /// `S` is `P`, known only at run time; cast from one to the other, not through an
    /// existential, which cost a heap box and several hundred nanoseconds for `DonateParams`.
    private func scanned<S: ScannableParams, P>(_ scannable: S.Type, as type: P.Type) -> P? {
        guard let value = scanned(S.self) else { return nil }
        return value as? P
    }

    /// The scanner's value, or nil: it gave up, or only the general decoder can find the
    /// params (the envelope went that way).
    private func scanned<P: ScannableParams>(_ type: P.Type) -> P? {
        switch paramsBytes {
        case .absent: return StaticString("{}").withUTF8Buffer { P.scan(UnsafeRawBufferPointer($0)) }
        case .object(let bytes): return bytes.withUnsafeBytes { P.scan($0) }
        case .request: return nil
        }
    }
}
