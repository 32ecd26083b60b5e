import Logging
import WidgetCore
import WidgetDescriptorFiles

/// The warnings of a read of the widgets directories. However many files a read skips (a
/// directory flooded with them), it logs a few lines and a count; `widgetctl widgets` lists
/// them all.
enum DescriptorLog {
    /// Warnings of one kind per read, and names in one line.
    static let warningsShown = 10
    static let namesShown = 5

    static func warnSkipped(_ problems: [DescriptorProblem], _ logger: Logger) {
        for problem in problems.prefix(warningsShown) {
            logger.warning("descriptor skipped", metadata: ["path": "\(problem.path)", "reason": "\(problem.reason)"])
        }
        if problems.count > warningsShown {
            logger.warning(
                "more descriptors skipped", metadata: ["count": "\(problems.count - warningsShown)", "list": "widgetctl widgets"])
        }
    }

    static func warnUnusable(_ descriptors: [WidgetDescriptor], _ logger: Logger) {
        for descriptor in descriptors.prefix(warningsShown) {
            logger.warning(
                "kind cannot be used",
                metadata: ["kind": "\(descriptor.kind)", "path": "\(descriptor.source)", "reason": "\(descriptor.problem ?? "")"])
        }
        if descriptors.count > warningsShown {
            logger.warning(
                "more kinds cannot be used", metadata: ["count": "\(descriptors.count - warningsShown)", "list": "widgetctl widgets"])
        }
    }
}
