import Foundation
import WidgetCore

/// One launch: `exec... verb` with `request` on stdin.
public struct ProviderInvocation: Sendable {
    public var exec: [String]
    public var verb: String
    public var request: Data
    public var timeout: TimeInterval
    public var maxAnswerBytes: Int
    /// The kind's owner, who may own the program besides root and the daemon's user: the
    /// program is checked again right before it runs (`FileModeRule`).
    public var owner: KindOwner?
    /// RLIMIT_DATA of the launch in bytes (`memory-max`; 0: none).
    public var memoryMax: Int
    /// RLIMIT_CPU of the launch in seconds (`cpu-max`; 0: none).
    public var cpuMax: Int
    /// CPUQuota= of the launch's scope under systemd, in per cent of one CPU (`cpu-quota`; 0: none).
    public var cpuQuota: Int

    public init(
        exec: [String], verb: String, request: Data, timeout: TimeInterval, maxAnswerBytes: Int, owner: KindOwner?,
        memoryMax: Int = 0, cpuMax: Int = 0, cpuQuota: Int = 0
    ) {
        self.exec = exec
        self.verb = verb
        self.request = request
        self.timeout = timeout
        self.maxAnswerBytes = maxAnswerBytes
        self.owner = owner
        self.memoryMax = memoryMax
        self.cpuMax = cpuMax
        self.cpuQuota = cpuQuota
    }
}
