import Logging
import WidgetDescriptorFiles

extension DescriptorCatalog {
    /// A warning for each file skipped and each kind that cannot be used.
    func logProblems(_ logger: Logger) {
        for problem in problems {
            logger.warning("descriptor skipped", metadata: ["path": "\(problem.path)", "reason": "\(problem.reason)"])
        }
        for descriptor in descriptors.values.sorted(by: { $0.kind < $1.kind }) {
            guard let problem = descriptor.problem else { continue }
            logger.warning(
                "kind cannot be used", metadata: ["kind": "\(descriptor.kind)", "path": "\(descriptor.source)", "reason": "\(problem)"])
        }
    }
}
