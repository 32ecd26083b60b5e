import Foundation
import WidgetCore
import WidgetProtocol
import WidgetdClient

extension GlobalOptions {
    /// Calls `spec`'s method and returns its typed result, exit statuses mapped.
    func call<Spec: MethodSpec>(_ spec: Spec.Type, _ params: Spec.Params) throws(CtlFailure) -> Spec.Result {
        try call(spec, sending: params)
    }

    /// As above, for a method that takes no params.
    func call<Spec: MethodSpec>(_ spec: Spec.Type) throws(CtlFailure) -> Spec.Result where Spec.Params == EmptyParams {
        try call(spec, sending: EmptyParams())
    }

    /// As above, with params in a form that encodes as `Spec.Params` would (a timeline as the
    /// user wrote it, for the daemon to check).
    func call<Spec: MethodSpec, Params: Encodable>(_ spec: Spec.Type, sending params: Params) throws(CtlFailure) -> Spec.Result {
        let connection = try connect()
        do {
            return try connection.call(spec, sending: params)
        } catch {
            throw CtlFailure(error)
        }
    }

    /// Prints `value` as pretty JSON when `--json`, else runs `human`.
    func emit<T: Encodable>(_ value: T, human: () -> Void) {
        if json {
            let data = (try? WidgetJSON.prettyEncoder.encode(value)) ?? Data("null".utf8)
            print(String(decoding: data, as: UTF8.self))
        } else {
            human()
        }
    }
}
