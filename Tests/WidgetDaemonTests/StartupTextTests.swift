import Foundation
import Testing
@testable import ResidentText

/// Which lines of /proc/self/maps the release of start-up code may drop: only private
/// read-and-execute mappings of a file, never data, never `[vdso]` or anonymous memory.
@Suite struct StartupTextTests {
    @Test func onlyCodeMappedFromAFileIsReleased() {
        let code = CodeMapping("00400000-02412000 r-xp 00000000 fe:00 16490850                   /usr/bin/widgetd\n")
        #expect(code?.start == 0x40_0000)
        #expect(code?.length == 0x201_2000)
        for line in [
            "02413000-0253a000 r--p 02012000 fe:00 16490850                   /usr/bin/widgetd",
            "0253a000-04a5f000 rw-p 02139000 fe:00 16490850                   /usr/bin/widgetd",
            "7ffd1b5f3000-7ffd1b5f5000 r-xp 00000000 00:00 0                  [vdso]",
            "7f1e2c000000-7f1e2c021000 rw-p 00000000 00:00 0 ",
            "7f1e2d000000-7f1e2d001000 r-xp 00000000 00:00 0 ",
            "7f1e2e000000-7f1e2e010000 r-xs 00000000 00:01 77                 /memfd:trampolines (deleted)",
            "not a mapping",
        ] {
            #expect(CodeMapping(line) == nil, "\(line)")
        }
    }

    @Test func releasingLeavesTheProcessRunningItsCode() {
        // The test process's own code is released and runs on: the pages come back on use.
        #expect(StartupText.release() > 0)
        #expect([3, 1, 2].sorted() == [1, 2, 3])
    }
}
