import Foundation

/// The scheduler's calls for a caller that holds an id rather than a handle (a request over
/// the socket, a stored change): each finds the handle in the store's id table, the daemon's
/// only one, and nothing happens for an id the store does not hold.
extension ReloadScheduler {
    public mutating func setPolicyDue(_ id: InstanceID, _ date: Date?, in store: inout some ReloadTimingStore) {
        guard let handle = store.handle(of: id) else { return }
        setPolicyDue(handle, date, in: &store)
    }

    public mutating func request(_ id: InstanceID, reason: ReloadReason, at wanted: Date, in store: inout some ReloadTimingStore) {
        guard let handle = store.handle(of: id) else { return }
        request(handle, reason: reason, at: wanted, in: &store)
    }

    public func mergedRequest(
        _ id: InstanceID, reason: ReloadReason, at wanted: Date, in store: some ReloadTimingStore
    ) -> (reason: ReloadReason, wanted: Date) {
        guard let handle = store.handle(of: id) else { return (reason, wanted) }
        return mergedRequest(handle, reason: reason, at: wanted, in: store)
    }

    public mutating func completed(_ id: InstanceID, policyDue: Date?, in store: inout some ReloadTimingStore) {
        guard let handle = store.handle(of: id) else { return }
        completed(handle, policyDue: policyDue, in: &store)
    }

    public mutating func failed(_ id: InstanceID, policyDue: Date?, retryAt: Date, in store: inout some ReloadTimingStore) {
        guard let handle = store.handle(of: id) else { return }
        failed(handle, policyDue: policyDue, retryAt: retryAt, in: &store)
    }

    public mutating func reschedule(_ id: InstanceID, in store: some ReloadTimingStore) {
        guard let handle = store.handle(of: id) else { return }
        reschedule(handle, in: store)
    }

    public mutating func updateProvider(_ id: InstanceID, providerKey: String, in store: some ReloadTimingStore) {
        guard let handle = store.handle(of: id) else { return }
        updateProvider(handle, providerKey: providerKey, in: store)
    }

    public mutating func setNextEntryChange(_ id: InstanceID, _ date: Date?, in store: some ReloadTimingStore) {
        guard let handle = store.handle(of: id) else { return }
        setNextEntryChange(handle, date)
    }

    public func pendingReload(for id: InstanceID, in store: some ReloadTimingStore) -> ScheduledReload? {
        store.handle(of: id).flatMap { pendingReload(for: $0, in: store) }
    }

    public func contains(_ id: InstanceID, in store: some ReloadTimingStore) -> Bool {
        store.handle(of: id).map(contains) ?? false
    }

    /// The ids of the instances of a kind, in no particular order.
    public func instances(ofKind kind: String, in store: some ReloadTimingStore) -> [InstanceID] {
        instances(ofKind: kind).map(store.instanceID)
    }

    /// `updateBudget(_:only:in:)` for instances named by id.
    public mutating func updateBudget(_ budget: ReloadBudget, onlyIDs ids: some Sequence<InstanceID>, in store: some ReloadTimingStore) {
        updateBudget(budget, only: ids.compactMap(store.handle), in: store)
    }
}
