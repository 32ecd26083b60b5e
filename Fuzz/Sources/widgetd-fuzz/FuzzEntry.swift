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
private func fuzzRequest(_ line: Data) {
    switch RequestDecoder.decode(line) {
    case .success(let request):
        _ = try? request.params(AddParams.self)
        _ = try? request.params(ConfigureParams.self)
        _ = try? request.params(PushParams.self)
        _ = try? request.params(ReloadTimelinesParams.self)
        _ = try? request.params(DonateParams.self)
        _ = try? request.params(StackCreateParams.self)
        _ = try? request.params(StackSwipeParams.self)
        _ = try? request.params(ClockSetParams.self)
    case .failure(let failure):
        // The error is what the caller reads: it must encode.
        guard (try? WidgetJSON.encoder.encode(failure.error)) != nil else {
            fatalError("request error does not encode: \(failure.error)")
        }
    }
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
