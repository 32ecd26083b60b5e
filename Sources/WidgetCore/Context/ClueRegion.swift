import Foundation

/// A `location` clue: a circle on the Earth, `radius` metres around a point. The machine is
/// inside it when the distance from the point to where the location source says it is is at
/// most the radius.
public struct ClueRegion: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double

    /// The largest radius taken: half the Earth's circumference, a circle holding everything.
    public static let maxRadius = 20_037_509.0

    public init(latitude: Double, longitude: Double, radius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude, radius }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try ClueAlternative.refuseUnknownKeys(decoder, known: ["latitude", "longitude", "radius"])
        latitude = try container.decode(Double.self, forKey: .latitude)
        longitude = try container.decode(Double.self, forKey: .longitude)
        radius = try container.decode(Double.self, forKey: .radius)
        guard (-90...90).contains(latitude) else {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: container, debugDescription: "must be in -90...90")
        }
        guard (-180...180).contains(longitude) else {
            throw DecodingError.dataCorruptedError(forKey: .longitude, in: container, debugDescription: "must be in -180...180")
        }
        guard radius.isFinite, radius > 0, radius <= Self.maxRadius else {
            throw DecodingError.dataCorruptedError(
                forKey: .radius, in: container, debugDescription: "must be metres > 0, at most \(Int(Self.maxRadius))")
        }
    }

    /// Whether `point` lies inside, by the great-circle distance on a sphere of the Earth's
    /// mean radius (within a few metres of the ellipsoid's at the sizes of a station or a
    /// district).
    public func contains(_ point: GeoPoint) -> Bool {
        let earth = 6_371_008.8
        let toRadians = Double.pi / 180
        let phi1 = latitude * toRadians
        let phi2 = point.latitude * toRadians
        let deltaPhi = (point.latitude - latitude) * toRadians
        let deltaLambda = (point.longitude - longitude) * toRadians
        let a = sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        let distance = 2 * earth * atan2(a.squareRoot(), (1 - a).squareRoot())
        return distance <= radius
    }
}
