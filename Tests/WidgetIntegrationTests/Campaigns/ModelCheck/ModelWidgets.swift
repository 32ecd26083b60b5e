import Foundation
@testable import WidgetIntegrationSupport

/// The widget kinds of the model check. `alpha` and `beta` share one provider executable (so
/// their reloads merge into one launch), `gamma` has a provider of its own, and `push` has none:
/// its timelines come only from `push`.
enum ModelKind: String, CaseIterable, Sendable {
    case alpha = "m.alpha"
    case beta = "m.beta"
    case gamma = "m.gamma"
    case push = "m.push"

    /// Kinds with equal keys share launches; nil: push-only.
    var providerKey: String? {
        switch self {
        case .alpha, .beta: "ab"
        case .gamma: "c"
        case .push: nil
        }
    }

    /// The intent type donations name. `alpha`, `beta` and `push` share one, so a donation
    /// can match instances of three kinds.
    var intentType: String { self == .gamma ? "ModelGamma" : "ModelTopic" }

    /// The descriptor's `supportedCombinations`: `gamma` matches on topic and mode together.
    var combinations: [[String]] { self == .gamma ? [["topic", "mode"]] : [["topic"]] }

    /// What the provider script answers (see `ModelWidgets.providerScript`).
    var step: Seconds {
        switch self {
        case .alpha: 600
        case .beta: 900
        case .gamma, .push: 1200
        }
    }

    var entryCount: Int {
        switch self {
        case .alpha: 3
        case .beta: 2
        case .gamma, .push: 4
        }
    }

    var salt: Int {
        switch self {
        case .alpha: 1
        case .beta: 2
        case .gamma, .push: 3
        }
    }
}

/// An instance's configuration: `topic` (what donations match) and `mode` (the provider's
/// reload policy: 0 atEnd, 1 after a date ahead, 2 never, 3 after a date already past).
struct ModelConfig: Equatable, Sendable, CustomStringConvertible {
    var topic: Int
    var mode: Int

    var json: [String: Any] { ["topic": topic, "mode": mode] }
    var description: String { "t\(topic)m\(mode)" }
}

/// The files the daemon under test reads: a small `widgetd.conf` that makes budgets run out,
/// merges happen and rotations hold within minutes of virtual time, the descriptors and the
/// provider script.
enum ModelWidgets {
    static let dailyLimit = 6
    static let spacing: Seconds = 240
    static let coalescingWindow: Seconds = 60
    static let minimumDwell: Seconds = 600
    static let hourlyCap = 3
    static let userHold: Seconds = 1800
    static let relevanceWindow: Seconds = 4 * 3600
    static let margin = 0.1
    static let relevanceWeight = 1.0
    static let affinityWeight = 0.6

    static let settings = """
        [budget]
        daily-limit = \(dailyLimit)
        min-spacing = \(spacing)s
        [scheduler]
        coalescing-window = \(coalescingWindow)s
        [rotation]
        min-dwell = \(minimumDwell)s
        hourly-cap = \(hourlyCap)
        user-hold = \(userHold)s
        relevance-window = \(relevanceWindow)s
        """

    /// Writes the settings, the provider scripts and the descriptors into the fixture; returns
    /// the `widgetd` arguments that use them.
    static func install(in fixture: DaemonFixture) throws -> [String] {
        let config = fixture.directory + "/widgetd.conf"
        try settings.write(toFile: config, atomically: true, encoding: .utf8)
        // Two copies of one script: equal commands share launches, different ones do not.
        try fixture.provider("model-ab", providerScript)
        try fixture.provider("model-c", providerScript)
        for kind in ModelKind.allCases {
            let exec: [String]? = switch kind.providerKey {
            case "ab": ["./model-ab"]
            case "c": ["./model-c"]
            default: nil
            }
            try fixture.descriptor(kind.rawValue, exec: exec, intent: intent(for: kind), clues: kind == .push ? ["context"] : [])
        }
        return ["--config", config]
    }

    static func intent(for kind: ModelKind) -> [String: Any] {
        [
            "type": kind.intentType,
            "parameters": [
                ["name": "topic", "type": "integer", "default": 0, "min": 0, "max": 3],
                ["name": "mode", "type": "integer", "default": 0, "min": 0, "max": 3],
            ],
            "supportedCombinations": kind.combinations,
        ]
    }

    /// A POSIX sh provider whose answer is a pure function of the request's kind,
    /// configuration and `now`, using only shell built-ins (no `date`, no `sed`) so that a
    /// launch costs one `sh`. `ModelWidgets.answer` is its twin in Swift.
    static let providerScript = #"""
        #!/bin/sh
        IFS= read -r req || true
        kind=${req#*\"kind\":\"}; kind=${kind%%\"*}
        now=${req#*\"now\":\"}; now=${now%%\"*}
        topic=${req#*\"topic\":}; topic=${topic%%[,\}]*}
        mode=${req#*\"mode\":}; mode=${mode%%[,\}]*}
        IFS='-T:Z'; set -- $now; IFS=' '
        y=$1; m=${2#0}; d=${3#0}; H=${4#0}; M=${5#0}; S=${6#0}
        y=$((y - (m <= 2)))
        era=$((y / 400)); yoe=$((y - era * 400))
        doy=$(( (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1 ))
        doe=$((yoe * 365 + yoe / 4 - yoe / 100 + doy))
        t=$(( (era * 146097 + doe - 719468) * 86400 + H * 3600 + M * 60 + S ))
        # iso SECONDS: sets $date to SECONDS as 2026-01-05T08:00:00Z (no subshell: a launch is one sh).
        iso() {
            z=$(( $1 / 86400 )); s=$(( $1 % 86400 ))
            z=$((z + 719468)); era=$((z / 146097)); doe=$((z - era * 146097))
            yoe=$(( (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365 ))
            y=$((yoe + era * 400)); doy=$((doe - (365 * yoe + yoe / 4 - yoe / 100)))
            mp=$(( (5 * doy + 2) / 153 )); d=$((doy - (153 * mp + 2) / 5 + 1))
            m=$((mp < 10 ? mp + 3 : mp - 9)); y=$((y + (m <= 2)))
            date=$y
            for v in $m $d $((s / 3600)) $((s % 3600 / 60)) $((s % 60)); do
                [ $v -lt 10 ] && v=0$v
                case ${#date} in 4|7) date=$date-$v ;; 10) date=${date}T$v ;; *) date=$date:$v ;; esac
            done
            date=${date}Z
        }
        case $kind in
            m.alpha) step=600; count=3; salt=1 ;;
            m.beta) step=900; count=2; salt=2 ;;
            *) step=1200; count=4; salt=3 ;;
        esac
        out='{"entries":['
        k=0
        while [ $k -lt $count ]; do
            iso $((t + k * step))
            h=$(( (t / 60 + 3 * topic + 5 * k + salt) % 7 ))
            rel=''
            if [ $h -lt 6 ]; then
                dur=0; [ $k -eq 1 ] && dur=$((step / 2))
                rel=",\"relevance\":{\"score\":$((h - 2)),\"duration\":$dur}"
            fi
            [ $k -gt 0 ] && out="$out,"
            out="$out{\"date\":\"$date\",\"content\":{\"v\":\"$kind/t${topic}m$mode/k$k/@$t\"}$rel}"
            k=$((k + 1))
        done
        case $mode in
            0) policy='"atEnd"' ;;
            1) iso $((t + 1800 + 60 * topic)); policy="{\"after\":\"$date\"}" ;;
            2) policy='"never"' ;;
            *) iso $((t - 60)); policy="{\"after\":\"$date\"}" ;;
        esac
        printf '%s],"policy":%s}\n' "$out" "$policy"
        """#

    /// What the provider answers for `kind` with `config` when asked at `now`: entries every
    /// `step` from `now`, content naming kind, configuration, index and `now`, a score from a
    /// formula (none when it gives 6; the second entry's lapses after half a step), and the
    /// policy `mode` picks.
    static func answer(_ kind: ModelKind, _ config: ModelConfig, now: Seconds) -> ModelTimeline {
        let entries = (0..<kind.entryCount).map { k -> ModelEntry in
            let h = (now / 60 + 3 * config.topic + 5 * k + kind.salt) % 7
            let relevance = h < 6 ? ModelRelevanceValue(score: Double(h - 2), duration: k == 1 ? kind.step / 2 : 0) : nil
            return ModelEntry(
                date: now + k * kind.step, content: "\(kind.rawValue)/\(config)/k\(k)/@\(now)", relevance: relevance)
        }
        let policy: ModelPolicy = switch config.mode {
        case 0: .atEnd
        case 1: .after(now + 1800 + 60 * config.topic)
        case 2: .never
        default: .after(now - 60)
        }
        return ModelTimeline(arriving: entries, policy: policy)
    }
}
