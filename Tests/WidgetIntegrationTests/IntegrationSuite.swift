import Testing

/// Every test here starts real processes; run them one at a time so they do not compete for
/// the two cores and each failure is easy to read.
@Suite(.serialized)
struct Integration {}
