import Foundation
import WidgetCore

/// Runs a provider once. The daemon depends on this protocol so tests and benchmarks can
/// substitute the exec runner.
public protocol ProviderRunning: Sendable {
    func run(_ invocation: ProviderInvocation) async throws(ProviderFailure) -> Data
    /// Kills every provider still running and starts no more (shutdown).
    func terminateAll() async
    /// Changes how many providers may run at once (settings reloaded).
    func setMaxConcurrent(_ limit: Int) async
    /// Providers running now.
    var running: Int { get }
}
