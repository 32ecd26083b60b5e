import Foundation
import Glibc

/// The state directory's files hold every donation, configuration and timeline: they are
/// readable and writable by the daemon's user only, whatever the directory's mode or the
/// umask (a directory made beforehand with mode 0755 must not leave them world-readable).
enum StateFileModes {
    static let mode: mode_t = 0o600

    /// Creates `database` with mode 0600 when it is missing (SQLite gives the -wal and -shm
    /// files it creates the database's mode), and sets 0600 on each regular file of the
    /// daemon's user already in `directory`, so files an older widgetd left readable are
    /// closed at start. Links are left alone: widgetd makes none, and following one could
    /// change a file elsewhere. Another user's file is not the daemon's to change.
    static func restrict(directory: String, database: String) throws(StoreError) {
        let user = geteuid()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            let path = directory + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o7777 != mode,
                user == 0 || status.st_uid == user
            else { continue }
            guard chmod(path, mode) == 0 else {
                throw StoreError("cannot make \(path) private (chmod 0600: \(StoreError.errnoName(errno)))", kind: .notWritable)
            }
        }
        // O_EXCL: a file made meanwhile is left to SQLite; fchmod: the umask does not count.
        let fd = open(database, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        if fd >= 0 {
            fchmod(fd, mode)
            close(fd)
        } else if errno != EEXIST {
            throw StoreError("cannot create \(database) (\(StoreError.errnoName(errno)))", kind: .notWritable)
        }
    }
}
