import Foundation
import Logging
import WidgetCore
import WidgetDescriptorFiles
import WidgetProtocol

/// What made the engine read the widgets directories again: it goes in the log line.
public enum DescriptorReadTrigger: String, Sendable {
    /// `WidgetsDirectoryWatcher` saw a descriptor file change.
    case watch
    /// `widgets.reload`.
    case request
    /// SIGHUP (`systemctl reload`), which reads the settings too.
    case signal
}

extension Engine {
    func widgets(_ call: Call) {
        var counts: [String: Int] = [:]
        for record in state.instances.all { counts[record.kind, default: 0] += 1 }
        let widgets = state.descriptors.values.sorted { $0.kind < $1.kind }.map {
            WidgetKindInfo(descriptor: $0, instances: counts[$0.kind] ?? 0)
        }
        call.succeed(WidgetsResult(
            widgets: widgets, problems: catalogProblems, directories: setup.widgetsDirectories, watched: widgetsWatched))
    }

    /// `widgets.reload`: the directories read now, answered with what changed.
    func widgetsReload(_ call: Call) {
        let changes = readDescriptors(.request)
        settle(nil)
        call.succeed(changes)
    }

    /// `WidgetsDirectoryWatcher` saw descriptor files change (a burst of changes arrives as one call).
    public func widgetsDirectoryChanged() {
        readDescriptors(.watch)
        settle(nil)
    }

    /// Whether `WidgetsDirectoryWatcher` runs, so `unknown kind` can say a new file is picked up at once.
    public func setWidgetsWatched(_ watched: Bool) {
        widgetsWatched = watched
    }

    /// Reads the widgets directories again (resolving owners again) and takes in what changed:
    /// configurations follow their descriptors, new providers are scheduled, stacks evaluated
    /// again. A bad file is skipped as at start-up, and the kinds it declared are gone until it
    /// is fixed. A SIGHUP takes everything in again, changed or not, with `settings` when they
    /// were valid. The caller settles.
    @discardableResult
    func readDescriptors(_ trigger: DescriptorReadTrigger, settings newSettings: DaemonSettings? = nil) -> DescriptorChanges {
        let catalog = DescriptorCatalog.load(from: setup.widgetsDirectories)
        let changes = DescriptorChanges(from: state.descriptors, to: catalog.descriptors, problems: catalog.problems)
        for descriptor in catalog.descriptors.values.sorted(by: { $0.kind < $1.kind }) {
            // Told once per problem: again only when it changes, as for files skipped.
            guard let problem = descriptor.problem, state.descriptors[descriptor.kind]?.problem != problem else { continue }
            logger.warning(
                "kind cannot be used", metadata: ["kind": "\(descriptor.kind)", "path": "\(descriptor.source)", "reason": "\(problem)"])
        }
        let known = Set(catalogProblems)
        let problemsChanged = catalog.problems != catalogProblems
        catalogProblems = catalog.problems
        if changes.changesKinds || trigger == .signal {
            options.invalidate(kind: nil, onlyKinds: nil)
            let (background, notes) = state.reload(descriptors: catalog.descriptors, settings: newSettings, at: now)
            log(notes)
            storeInBackground(background)
        }
        logRead(changes, trigger: trigger, problemsChanged: problemsChanged, known: known)
        if changes.changesKinds || problemsChanged, events.count > 0 {
            events.publish(WidgetEvent(type: .widgets, date: now, widgets: changes))
        }
        return changes
    }

    /// `unknown kind`, naming the directories a descriptor for it would be read from.
    func unknownKind(_ kind: String) -> RPCError {
        .unknownKind(kind, directories: setup.widgetsDirectories, watched: widgetsWatched)
    }

    /// One line per read with what changed, at info when anything did or someone asked (debug
    /// otherwise), and a warning per file newly skipped (one still skipped was reported).
    private func logRead(
        _ changes: DescriptorChanges, trigger: DescriptorReadTrigger, problemsChanged: Bool, known: Set<DescriptorProblem>
    ) {
        for problem in changes.problems where !known.contains(problem) {
            logger.warning("descriptor skipped", metadata: ["path": "\(problem.path)", "reason": "\(problem.reason)"])
        }
        func list(_ kinds: [String]) -> Logger.MetadataValue { "\(kinds.isEmpty ? "-" : kinds.joined(separator: ","))" }
        let level: Logger.Level = changes.changesKinds || problemsChanged || trigger != .watch ? .info : .debug
        logger.log(
            level: level, "descriptors read",
            metadata: [
                "trigger": "\(trigger.rawValue)", "kinds": "\(changes.kinds)", "added": list(changes.added),
                "changed": list(changes.changed), "removed": list(changes.removed), "problems": "\(changes.problems.count)",
            ])
    }
}
