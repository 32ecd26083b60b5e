import Foundation
import WidgetCore
import WidgetProtocol

/// libFuzzer calls this with every input it tries. Each input goes through all three parsers;
/// they must answer with a value or a typed error and never trap. What they accept must also
/// survive a round trip through the encoder, since the daemon stores and re-sends it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Data(bytes: bytes, count: count)
    fuzzRequest(input)
    fuzzDescriptor(input)
    fuzzTimeline(input)
    return 0
}

/// A control-socket line: the envelope, then the params of the methods that change state.
/// The envelope's fast path (`RequestScanner`) must agree with the general decoder on every
/// line it accepts: the same request, and the same params or the same error for each type.
private func fuzzRequest(_ line: Data) {
    switch (RequestDecoder.decode(line), RequestDecoder.decode(line, fastPath: false)) {
    case (.success(let fast), .success(let general)):
        guard fast.id == general.id, fast.hasID == general.hasID, fast.method == general.method,
            fast.hasParams == general.hasParams
        else { fatalError("the envelope paths disagree on \(String(decoding: line, as: UTF8.self))") }
        compareParams(fast, general, AddParams.self)
        compareParams(fast, general, ConfigureParams.self)
        compareParams(fast, general, PushParams.self)
        compareParams(fast, general, ReloadTimelinesParams.self)
        compareParams(fast, general, DonateParams.self)
        compareParams(fast, general, StackCreateParams.self)
        compareParams(fast, general, StackSwipeParams.self)
        compareParams(fast, general, ClockSetParams.self)
    case (.failure(let failure), .failure):
        // The error is what the caller reads: it must encode.
        guard (try? WidgetJSON.encoder.encode(failure.error)) != nil else {
            fatalError("request error does not encode: \(failure.error)")
        }
    default:
        fatalError("one envelope path failed and the other did not on \(String(decoding: line, as: UTF8.self))")
    }
}

private func compareParams<P: Codable>(_ fast: IncomingRequest, _ general: IncomingRequest, _ type: P.Type) {
    func outcome(_ request: IncomingRequest) -> String {
        do {
            return String(decoding: try WidgetJSON.encoder.encode(request.params(type)), as: UTF8.self)
        } catch {
            return "error: \(error)"
        }
    }
    let a = outcome(fast)
    let b = outcome(general)
    guard a == b else { fatalError("params as \(P.self) differ: \(a) against \(b)") }
}

private func fuzzDescriptor(_ data: Data) {
    _ = try? DescriptorParser.parse(data, path: "fuzz.json")
}

/// A timeline as pushed or printed by a provider.
private func fuzzTimeline(_ data: Data) {
    guard let timeline = try? WidgetJSON.decoder.decode(Timeline.self, from: data) else { return }
    guard let encoded = try? WidgetJSON.encoder.encode(timeline),
        let again = try? WidgetJSON.decoder.decode(Timeline.self, from: encoded)
    else { fatalError("an accepted timeline does not survive encoding: \(String(decoding: data, as: UTF8.self))") }
    // Dates may be rounded once by the encoding, but a second round trip changes nothing.
    guard again.entries.count == timeline.entries.count, (try? WidgetJSON.encoder.encode(again)) == encoded else {
        fatalError("timeline changed in a round trip: \(String(decoding: data, as: UTF8.self))")
    }
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
