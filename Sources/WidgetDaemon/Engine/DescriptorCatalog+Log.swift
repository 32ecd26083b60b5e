import Logging
import WidgetCore
import WidgetDescriptorFiles

extension DescriptorCatalog {
    /// A warning for each file skipped and each kind that cannot be used (a bounded number).
    func logProblems(_ logger: Logger) {
        DescriptorLog.warnSkipped(problems, logger)
        DescriptorLog.warnUnusable(descriptors.values.filter { $0.problem != nil }.sorted { $0.kind < $1.kind }, logger)
    }
}
