/// A position on the Earth as a location service reports it.
public struct GeoPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var accuracy: Double

    public init(latitude: Double, longitude: Double, accuracy: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }
}
