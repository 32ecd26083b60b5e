/// A provider's answer to `timeline` for every instance of the launch, in request order:
/// `{"timelines": [...]}`, where an instance without a timeline has `{"error": "reason"}`
/// in its place, which fails that instance alone (docs/widgets.md).
public struct WireTimelines: Encodable, Sendable, Hashable {
    /// One instance's place in the answer: its timeline, or why it has none.
    public enum Slot: Encodable, Sendable, Hashable {
        case timeline(WireTimeline)
        case error(String)

        private enum CodingKeys: String, CodingKey { case error }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .timeline(let timeline): try timeline.encode(to: encoder)
            case .error(let reason):
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(reason, forKey: .error)
            }
        }
    }

    public let timelines: [Slot]

    public init(_ timelines: [Slot]) {
        self.timelines = timelines
    }
}
