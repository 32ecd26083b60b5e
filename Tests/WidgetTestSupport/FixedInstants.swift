import Foundation

/// A fixed epoch: 2026-01-05T08:00:00Z, a Monday. Tests build their dates from it, never from
/// the wall clock, so a run on any day reads the same.
let t0 = Date(timeIntervalSince1970: 1_767_600_000)
