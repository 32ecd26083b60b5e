import Foundation

/// The tunables of `widgetd.conf`. Defaults are embedded so the daemon runs without a file.
public struct DaemonSettings: Sendable, Hashable, Codable {
    /// Budgeted reloads per instance in any rolling 24 hours.
    public var dailyReloadLimit: Int = 70
    /// Minimum time between two budgeted reloads of one instance.
    public var minimumSpacing: TimeInterval = 300
    /// A budgeted reload of an instance no host has shown for this long is held until a host
    /// shows it again (0: never held).
    public var hiddenAfter: TimeInterval = 6 * 3600
    /// The daily limit of an instance no host has shown in the last 24 hours.
    public var hiddenDailyLimit: Int = 12
    /// The daily limit while on battery; nil: half of `dailyReloadLimit` (at least 1).
    public var batteryDailyLimit: Int?
    /// Budgeted reloads are held while the session is locked, and run when it unlocks.
    public var holdWhenLocked = true
    /// Budgeted reloads are held while the power profile is power-saver.
    public var holdInPowerSaver = true
    /// `invalidateRelevance` asks of one instance's provider in any rolling hour.
    public var relevancePerHour: Int = 6
    /// Reloads after an action's `perform` exempt from the budget, per instance in any rolling
    /// minute; beyond them such reloads are budgeted.
    public var actionReloadsPerMinute: Int = 10
    /// Same-provider instances due within this window are reloaded in one launch (0: off).
    public var coalescingWindow: TimeInterval = 60
    /// Provider time-out when the descriptor names none.
    public var providerTimeout: TimeInterval = 15
    /// Providers running at once.
    public var maxConcurrentProviders: Int = 4
    /// Largest provider answer read; a longer one is a failure.
    public var maxAnswerBytes: Int = 4 * 1024 * 1024
    /// RLIMIT_DATA of each launch, in bytes: heap and private writable mappings.
    public var providerMemoryMax: Int = 512 * 1024 * 1024
    /// RLIMIT_CPU of each launch, in whole seconds of CPU time.
    public var providerCPUMax: Int = 60
    /// CPUQuota= of each launch's scope under systemd, in per cent of one CPU (0: none).
    public var providerCPUQuota: Int = 100
    /// Launches one caller other than root (and the daemon's own user) may cause through
    /// `preview`, `placeholder` and `options` in any rolling minute; more are refused.
    public var previewLaunchesPerMinute: Int = 120
    /// Debug: every reload exempt from the budget (`--no-budget`).
    public var budgetEnabled: Bool = true
    /// Smart Stack ranking and rotation.
    public var rotation = RotationSettings()
    /// How much the daemon takes on: connections, instances, stacks, timelines, donations, log.
    public var limits = LimitSettings()
    /// Rotation decisions kept in the log (older ones are dropped): `limits.maxLogRows`.
    public var decisionRetention: Int {
        get { limits.maxLogRows }
        set { limits.maxLogRows = newValue }
    }
    /// Who manages instances and stacks (`[access]`).
    public var access = AccessSettings()
    /// Remote updates through an MQTT broker (`[remote]`); off without a broker.
    public var remote = RemoteSettings()
    /// The session's sources (`[context]`).
    public var context = ContextSettings()

    public init() {}
}

extension DaemonSettings {
    /// `memory-max`: 16 MiB to 1 TiB.
    public static let providerMemoryRange = (16 * 1024 * 1024)...(1 << 40)

    /// The RLIMIT_DATA of a launch of `provider`: `memory-max`, or less where the kind asks.
    public func memoryMax(for provider: ProviderSpec) -> Int {
        min(providerMemoryMax, provider.memoryMax ?? providerMemoryMax)
    }

    /// The RLIMIT_CPU of a launch of `provider`: `cpu-max`, or less where the kind asks.
    public func cpuMax(for provider: ProviderSpec) -> Int {
        min(providerCPUMax, provider.cpuMax ?? providerCPUMax)
    }

    /// The budget rules these settings give the scheduler.
    public var reloadBudget: ReloadBudget {
        ReloadBudget(
            limit: dailyReloadLimit, spacing: minimumSpacing, enabled: budgetEnabled, hiddenAfter: hiddenAfter,
            hiddenLimit: hiddenDailyLimit)
    }

    /// The daily limit on battery: `battery-daily-limit`, by default half the daily limit.
    public var batteryLimit: Int {
        min(dailyReloadLimit, batteryDailyLimit ?? max(1, dailyReloadLimit / 2))
    }

    /// The budget rules these settings give the scheduler in `context`, for the instances in
    /// `visible` (docs/clues.md): held while locked (but for those) or in power-saver, as the
    /// switches say; the battery limit on battery. An unknown value changes nothing.
    public func reloadBudget(in context: ContextState, visible: Set<InstanceID>) -> ReloadBudget {
        var budget = reloadBudget
        if holdWhenLocked, context.locked.value == true {
            budget.session.locked = true
            budget.session.shownWhileLocked = visible
        }
        budget.session.powerSaver = holdInPowerSaver && context.powerSaver == true
        if context.onBattery.value == true, batteryLimit < dailyReloadLimit {
            budget.session.onBattery = true
            budget.session.fullLimit = dailyReloadLimit
            budget.limit = batteryLimit
            budget.hiddenLimit = min(budget.hiddenLimit, batteryLimit)
        } else if context.onBattery.value == true {
            budget.session.onBattery = true
        }
        return budget
    }
}

/// An invalid settings file: the line and what is wrong with it.
public struct SettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var reason: String

    public var description: String { "line \(line): \(reason)" }
}

extension DaemonSettings {
    /// Parses the INI text of `widgetd.conf` over the defaults. Unknown sections and keys are
    /// errors, so a typo never silently falls back to a default.
    public static func parse(_ text: String) throws(SettingsError) -> DaemonSettings {
        var settings = DaemonSettings()
        var section = ""
        var remoteLine: Int?
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw SettingsError(line: number, reason: "unclosed section header") }
                section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                guard ["budget", "scheduler", "providers", "rotation", "limits", "access", "remote", "context"].contains(section) else {
                    throw SettingsError(line: number, reason: "unknown section [\(section)]")
                }
                if section == "remote" { remoteLine = number }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw SettingsError(line: number, reason: "expected 'key = value'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            try settings.set(section: section, key: key, value: value, line: number)
        }
        if let remoteLine { try settings.remote.validate(line: remoteLine) }
        return settings
    }

    private mutating func set(section: String, key: String, value: String, line: Int) throws(SettingsError) {
        func duration(min: TimeInterval) throws(SettingsError) -> TimeInterval {
            guard let seconds = DurationText.seconds(value), seconds >= min else {
                throw SettingsError(line: line, reason: "\(key): '\(value)' is not a duration like 90s, 5m, 2h (>= \(Int(min))s)")
            }
            return seconds
        }
        func weight() throws(SettingsError) -> Double {
            guard let number = Double(value), number.isFinite, number >= 0, number <= 1000 else {
                throw SettingsError(line: line, reason: "\(key): '\(value)' is not a number in 0...1000")
            }
            return number
        }
        func count(_ range: ClosedRange<Int>) throws(SettingsError) -> Int {
            guard let number = Int(value), range.contains(number) else {
                throw SettingsError(line: line, reason: "\(key): '\(value)' is not an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        switch (section, key) {
        case ("budget", "daily-limit"): dailyReloadLimit = try count(1...100_000)
        case ("budget", "min-spacing"): minimumSpacing = try duration(min: 0)
        case ("budget", "hidden-after"): hiddenAfter = try duration(min: 0)
        case ("budget", "hidden-daily-limit"): hiddenDailyLimit = try count(1...100_000)
        case ("budget", "battery-daily-limit"): batteryDailyLimit = try count(1...100_000)
        case ("budget", "hold-when-locked"): holdWhenLocked = try SettingsFlag.parse(key: key, value: value, line: line)
        case ("budget", "hold-in-power-saver"): holdInPowerSaver = try SettingsFlag.parse(key: key, value: value, line: line)
        case ("budget", "relevance-per-hour"): relevancePerHour = try count(1...3600)
        case ("budget", "action-reloads-per-minute"): actionReloadsPerMinute = try count(0...600)
        case ("scheduler", "coalescing-window"): coalescingWindow = try duration(min: 0)
        case ("providers", "timeout"): providerTimeout = try duration(min: 1)
        case ("providers", "max-concurrent"): maxConcurrentProviders = try count(1...1024)
        case ("providers", "max-answer-bytes"): maxAnswerBytes = try count(1024...(256 * 1024 * 1024))
        case ("providers", "memory-max"): providerMemoryMax = try count(Self.providerMemoryRange)
        case ("providers", "cpu-max"):
            let seconds = try duration(min: 1)
            guard seconds <= 86_400 else {
                throw SettingsError(line: line, reason: "cpu-max: '\(value)' is more than 24h")
            }
            providerCPUMax = Int(seconds.rounded(.up))
        case ("providers", "cpu-quota"):
            // "50%" as systemd writes CPUQuota=, or a bare number of per cent.
            let percent = value.hasSuffix("%") ? String(value.dropLast()).trimmingCharacters(in: .whitespaces) : value
            guard let number = Int(percent), (0...100_000).contains(number) else {
                throw SettingsError(line: line, reason: "cpu-quota: '\(value)' is not a share of one CPU like 50% (0%...100000%)")
            }
            providerCPUQuota = number
        case ("providers", "preview-launches-per-minute"): previewLaunchesPerMinute = try count(1...100_000)
        case ("rotation", "relevance-weight"): rotation.relevanceWeight = try weight()
        case ("rotation", "affinity-weight"): rotation.affinityWeight = try weight()
        case ("rotation", "margin"): rotation.margin = try weight()
        case ("rotation", "min-dwell"): rotation.minimumDwell = try duration(min: 0)
        case ("rotation", "hourly-cap"): rotation.hourlyCap = try count(1...3600)
        case ("rotation", "user-hold"): rotation.userHold = try duration(min: 0)
        case ("rotation", "relevance-window"): rotation.relevanceWindow = try duration(min: 60)
        // [limits] max-log-rows under its older name, so existing files keep working.
        case ("rotation", "log-retention"): decisionRetention = try count(LimitSettings.logRowsRange)
        case ("limits", _): try limits.set(key: key, value: value, line: line)
        case ("remote", _): try remote.set(key: key, value: value, line: line)
        case ("context", _): try context.set(key: key, value: value, line: line)
        case ("access", "host-group"):
            guard AccessSettings.isValidAccountName(value) else {
                throw SettingsError(line: line, reason: "host-group: '\(value)' is not a group name")
            }
            access.hostGroup = value
        case ("", _): throw SettingsError(line: line, reason: "'\(key)' is outside any [section]")
        default: throw SettingsError(line: line, reason: "unknown key '\(key)' in [\(section)]")
        }
    }
}
