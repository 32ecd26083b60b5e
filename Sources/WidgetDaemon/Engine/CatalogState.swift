import WidgetCore

/// What the engine knows of the widgets directories beyond the descriptors in its state.
struct CatalogState {
    /// Descriptor files that were skipped, with why (for `widgets` and `status`).
    var problems: [DescriptorProblem]
    /// Whether `WidgetsDirectoryWatcher` runs (a new descriptor is then picked up at once).
    var watched = false
    /// The read of the widgets directories running, and the asks waiting for the next.
    var reads = DescriptorReads()
}
