/// Whose sessions count (docs/context.md): a user's service reads the user's own sessions, the
/// system service every user's.
enum SessionScope: Sendable, Equatable {
    case user(uid: UInt32)
    case system

    func counts(uid: UInt32) -> Bool {
        switch self {
        case .user(let own): uid == own
        case .system: true
        }
    }
}
