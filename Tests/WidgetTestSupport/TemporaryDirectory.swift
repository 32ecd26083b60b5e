import Foundation

/// A fresh folder `/tmp/PREFIX-XXXXXX`, made 0700 by `mkdtemp`. The path is short on purpose:
/// a unix socket's path inside it must fit in 108 bytes. Whoever makes one removes it.
func temporaryDirectory(_ prefix: String = "wdt") -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        fatalError("mkdtemp /tmp/\(prefix)-XXXXXX: \(String(cString: strerror(errno)))")
    }
    return String(cString: path)
}
