import Foundation
import Logging
import WidgetCore
import WidgetDescriptorFiles
import WidgetProtocol

extension Engine {
    func widgets(_ call: Reply<WidgetsResult>) {
        var counts: [String: Int] = [:]
        for record in state.instances.all { counts[record.kind, default: 0] += 1 }
        let widgets = state.descriptors.values.sorted { $0.kind < $1.kind }.map {
            WidgetKindInfo(descriptor: $0, instances: counts[$0.kind] ?? 0)
        }
        call.succeed(WidgetsResult(
            widgets: widgets, problems: catalog.problems, directories: io.setup.widgetsDirectories, watched: catalog.watched))
    }

    /// `widgets.reload`: the directories read now, answered with what changed.
    func widgetsReload(_ call: Reply<DescriptorChanges>) {
        readDescriptors(.request) { call.succeed($0) }
    }

    /// `WidgetsDirectoryWatcher` saw descriptor files change (a burst of changes arrives as one call).
    public func widgetsDirectoryChanged() {
        readDescriptors(.watch)
    }

    /// Whether `WidgetsDirectoryWatcher` runs, so `unknown kind` can say a new file is picked up at once.
    public func setWidgetsWatched(_ watched: Bool) {
        catalog.watched = watched
    }

    /// Reads the widgets directories again (resolving owners again) on `descriptorReader`,
    /// then takes in what changed on the loop and settles, and calls `done` there. Reading
    /// files (a large or slow one, thousands of them) never holds the loop. An ask made while
    /// a read runs is served by the next read, shared with every other ask made meanwhile.
    func readDescriptors(
        _ trigger: DescriptorReadTrigger, settings newSettings: DaemonSettings? = nil,
        then done: @escaping @Sendable (DescriptorChanges) -> Void = { _ in }
    ) {
        if let ask = catalog.reads.ask(.init(trigger: trigger, settings: newSettings, waiting: [done])) { startRead(ask) }
    }

    private func startRead(_ ask: DescriptorReads.Ask) {
        let directories = io.setup.widgetsDirectories
        let limits = (ask.settings ?? state.settings).limits
        let loop = self.loop
        io.descriptorReader.run { [self] in
            let catalog = DescriptorCatalog.load(from: directories, limits: limits)
            loop.execute {
                self.assumeIsolated { engine in engine.readFinished(catalog, ask) }
            }
        }
    }

    private func readFinished(_ catalog: DescriptorCatalog, _ ask: DescriptorReads.Ask) {
        // After shutdown began the store takes no more changes.
        var changes = DescriptorChanges(problems: self.catalog.problems, kinds: state.descriptors.count)
        if !time.stopping {
            changes = take(catalog, ask.trigger, settings: ask.settings)
            settle(nil)
        }
        for done in ask.waiting { done(changes) }
        if let next = self.catalog.reads.finished() { startRead(next) }
    }

    /// Takes in a catalog just read: configurations follow their descriptors, new providers
    /// are scheduled, stacks evaluated again. A bad file is skipped as at start-up, and the
    /// kinds it declared are gone until it is fixed. A SIGHUP takes everything in again,
    /// changed or not, with `settings` when they were valid. The caller settles.
    @discardableResult
    func take(
        _ catalog: DescriptorCatalog, _ trigger: DescriptorReadTrigger, settings newSettings: DaemonSettings? = nil
    ) -> DescriptorChanges {
        let changes = DescriptorChanges(from: state.descriptors, to: catalog.descriptors, problems: catalog.problems)
        var unusable = catalog.descriptors.values.filter { descriptor in
            // Told once per problem: again only when it changes, as for files skipped.
            guard let problem = descriptor.problem else { return false }
            return state.descriptors[descriptor.kind]?.problem != problem
        }
        unusable.sort { $0.kind < $1.kind }
        DescriptorLog.warnUnusable(unusable, io.logger)
        let known = Set(self.catalog.problems)
        let problemsChanged = catalog.problems != self.catalog.problems
        self.catalog.problems = catalog.problems
        if changes.changesKinds || trigger == .signal {
            launches.options.invalidate(kind: nil, onlyKinds: nil)
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
        .unknownKind(kind, directories: io.setup.widgetsDirectories, watched: catalog.watched)
    }

    /// One line per read with what changed, at info when anything did or someone asked (debug
    /// otherwise), and a warning per file newly skipped (one still skipped was reported).
    private func logRead(
        _ changes: DescriptorChanges, trigger: DescriptorReadTrigger, problemsChanged: Bool, known: Set<DescriptorProblem>
    ) {
        DescriptorLog.warnSkipped(changes.problems.filter { !known.contains($0) }, io.logger)
        // A few names and a count: a read that adds ten thousand kinds still logs one short line.
        func list(_ kinds: [String]) -> Logger.MetadataValue {
            "\(kinds.isEmpty ? "-" : DescriptorCatalog.summary(kinds, first: DescriptorLog.namesShown, separator: ","))"
        }
        let level: Logger.Level = changes.changesKinds || problemsChanged || trigger != .watch ? .info : .debug
        io.logger.log(
            level: level, "descriptors read",
            metadata: [
                "trigger": "\(trigger.rawValue)", "kinds": "\(changes.kinds)", "added": list(changes.added),
                "changed": list(changes.changed), "removed": list(changes.removed), "problems": "\(changes.problems.count)",
            ])
    }
}
