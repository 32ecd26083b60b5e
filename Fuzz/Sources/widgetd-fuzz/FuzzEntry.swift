import Foundation
import WidgetCore
import WidgetProtocol

/// libFuzzer calls this with every input it tries. Each input goes through every parser;
/// they must answer with a value or a typed error and never trap. What they accept must also
/// survive a round trip through the encoder, since the daemon stores and re-sends it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Data(bytes: bytes, count: count)
    fuzzRequestLine(input)
    fuzzParamsScanners(input)
    fuzzDescriptor(input)
    fuzzTimeline(input)
    fuzzProviderAnswer(input)
    return 0
}

/// A control-socket line, a single request or a batch. The fast paths (`RequestScanner`,
/// `ScannableParams`) must agree with the general decoder on every line they accept: the
/// same requests, and for each params type the same value or the same error.
private func fuzzRequestLine(_ line: Data) {
    let fast = line.withUnsafeBytes { RequestDecoder.decodeLine($0) }
    let general = line.withUnsafeBytes { RequestDecoder.decodeLine($0, fastPath: false) }
    switch (fast, general) {
    case (.single(let a), .single(let b)):
        compareRequests(a, b, line)
    case (.batch(let a), .batch(let b)) where a.count == b.count:
        for (a, b) in zip(a, b) { compareRequests(a, b, line) }
    default:
        fatalError("the paths read different shapes from \(String(decoding: line, as: UTF8.self))")
    }
    // The older entry point, which reads one request (an array is no request to it).
    compareRequests(RequestDecoder.decode(line), RequestDecoder.decode(line, fastPath: false), line)
}

private func compareRequests(
    _ fast: Result<IncomingRequest, RequestFailure>, _ general: Result<IncomingRequest, RequestFailure>, _ line: Data
) {
    switch (fast, general) {
    case (.success(let fast), .success(let general)):
        guard fast.id == general.id, fast.hasID == general.hasID, fast.method == general.method,
            fast.hasParams == general.hasParams
        else { fatalError("the envelope paths disagree on \(String(decoding: line, as: UTF8.self))") }
        // Every method's params, as its spec declares them (a scanner among them is compared
        // by its outcome); the scanned ones also by value below.
        for spec in paramsSpecs { compareParams(fast, general, spec) }
        compareScanned(fast, general, PushParams.self)
        compareScanned(fast, general, ReloadTimelinesParams.self)
        compareParams(fast, general, ReloadAllParams.self)
        compareScanned(fast, general, DonateParams.self)
        compareScanned(fast, general, VisibleParams.self)
        compareParams(fast, general, StackNameParams.self)
        compareScanned(fast, general, InstanceParams.self)
        compareParams(fast, general, EmptyParams.self)
    case (.failure(let a), .failure(let b)):
        guard a.id == b.id, a.error == b.error, a.isNotification == b.isNotification else {
            fatalError("the paths give different errors (\(a.error), \(b.error)) for \(String(decoding: line, as: UTF8.self))")
        }
        // The error is what the caller reads: it must encode.
        guard (try? WidgetJSON.encoder.encode(a.error)) != nil else { fatalError("request error does not encode: \(a.error)") }
    default:
        fatalError("one envelope path failed and the other did not on \(String(decoding: line, as: UTF8.self))")
    }
}

/// The params as JSON, or the error's text: what the caller would read.
private func outcome<P: Encodable>(_ read: () throws(RPCError) -> P) -> String {
    do {
        return String(decoding: try WidgetJSON.encoder.encode(read()), as: UTF8.self)
    } catch {
        return "error: \(error)"
    }
}

/// One spec per params type: methods that share a type would repeat the same comparison.
private let paramsSpecs: [any MethodSpec.Type] = {
    var seen = Set<ObjectIdentifier>()
    return Methods.all.filter { seen.insert(paramsType($0)).inserted }
}()

private func paramsType<Spec: MethodSpec>(_ spec: Spec.Type) -> ObjectIdentifier {
    ObjectIdentifier(Spec.Params.self)
}

private func compareParams<Spec: MethodSpec>(_ fast: IncomingRequest, _ general: IncomingRequest, _ spec: Spec.Type) {
    compareParams(fast, general, Spec.Params.self)
}

private func compareParams<P: Codable>(_ fast: IncomingRequest, _ general: IncomingRequest, _ type: P.Type) {
    let a = outcome { () throws(RPCError) in try fast.params(type) }
    let b = outcome { () throws(RPCError) in try general.params(type, fastPath: false) }
    guard a == b else { fatalError("params as \(P.self) differ: \(a) against \(b)") }
}

/// A scanner's value is `==` to `JSONDecoder`'s (finer than their JSON: dates to the
/// microsecond, `.integer(2)` against `.number(2.0)`), and its JSON and errors are the same.
private func compareScanned<P: ScannableParams & Codable & Equatable>(
    _ fast: IncomingRequest, _ general: IncomingRequest, _ type: P.Type
) {
    compareParams(fast, general, type)
    let a = try? fast.params(type)
    let b = try? general.params(type, fastPath: false)
    guard a == b else { fatalError("params as \(P.self) are not equal: \(String(describing: a)) against \(String(describing: b))") }
}

/// The input as a params object, straight into each scanner: whatever a scanner reads,
/// `JSONDecoder` reads too, to an equal value.
private func fuzzParamsScanners(_ input: Data) {
    scanAgainstDecoder(input, PushParams.self)
    scanAgainstDecoder(input, ReloadTimelinesParams.self)
    scanAgainstDecoder(input, DonateParams.self)
    scanAgainstDecoder(input, VisibleParams.self)
    scanAgainstDecoder(input, InstanceParams.self)
}

private func scanAgainstDecoder<P: ScannableParams & Codable & Equatable>(_ input: Data, _ type: P.Type) {
    guard let scanned = input.withUnsafeBytes({ P.scan($0) }) else { return }
    let text = String(decoding: input, as: UTF8.self)
    guard let decoded = try? WidgetJSON.decoder.decode(P.self, from: input) else {
        fatalError("\(P.self) scanner read what JSONDecoder refuses: \(text)")
    }
    guard scanned == decoded, outcome({ scanned }) == outcome({ decoded }) else {
        fatalError("\(P.self) scanner and JSONDecoder differ: \(scanned) against \(decoded) from \(text)")
    }
}

private func fuzzDescriptor(_ data: Data) {
    _ = try? DescriptorParser.parse(data, path: "fuzz.json")
}

/// A timeline as pushed or printed by a provider.
private func fuzzTimeline(_ data: Data) {
    guard let timeline = try? WidgetJSON.decoder.decode(WidgetTimeline.self, from: data) else { return }
    guard let encoded = try? WidgetJSON.encoder.encode(timeline),
        let again = try? WidgetJSON.decoder.decode(WidgetTimeline.self, from: encoded)
    else { fatalError("an accepted timeline does not survive encoding: \(String(decoding: data, as: UTF8.self))") }
    // Dates may be rounded once by the encoding, but a second round trip changes nothing.
    guard again.entries.count == timeline.entries.count, (try? WidgetJSON.encoder.encode(again)) == encoded else {
        fatalError("timeline changed in a round trip: \(String(decoding: data, as: UTF8.self))")
    }
}

/// A provider's `timeline` answer, for a launch of one instance and of three: whatever the
/// scan over the bytes reads, the reference path (`JSONDecoder` through a `JSONValue` tree)
/// reads too, to the same bits, per-instance faults included.
private func fuzzProviderAnswer(_ data: Data) {
    for count in [1, 3] {
        guard let scanned = data.withUnsafeBytes({ ProviderAnswer.scannedTimelines($0, count: count) }) else { continue }
        let text = String(decoding: data, as: UTF8.self)
        guard let decoded = try? ProviderAnswer.decodedTimelines(from: data, count: count) else {
            fatalError("the answer scan read what the reference path refuses: \(text)")
        }
        let a = answerText(scanned)
        let b = answerText(decoded)
        guard a == b else { fatalError("the answer scan and the reference path differ: \(a) against \(b) from \(text)") }
    }
}

/// Everything the daemon takes from an answer, to the bit (`-0.0` is not `0.0` here).
private func answerText(_ results: [Result<WidgetTimeline, ProviderAnswer.Fault>]) -> String {
    results.map { result in
        switch result {
        case .failure(let fault): return "fault(\(fault.reason))"
        case .success(let timeline):
            let entries = timeline.entries.map { entry in
                let relevance = entry.relevance.map { "\($0.score.bitPattern)/\($0.duration.bitPattern)" } ?? "-"
                return "\(entry.date.timeIntervalSince1970.bitPattern) \(entry.contentJSON) \(relevance)"
            }
            let policy: String
            switch timeline.policy {
            case .atEnd: policy = "atEnd"
            case .never: policy = "never"
            case .after(let date): policy = "after \(date.timeIntervalSince1970.bitPattern)"
            }
            return "timeline(\(entries.joined(separator: "; ")) \(policy))"
        }
    }.joined(separator: "\n")
}

/// SwiftPM links an executable target's entry point under the name `<module>_main`; hand the
/// process to libFuzzer's driver from there, with the test function above.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("widgetd_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, fuzzOneInput)
}
