import WidgetCore
import WidgetProtocol

extension DonationsDeleteParams {
    /// Which donations the params name: exactly one of an id, a group or all.
    func selector() throws(RPCError) -> DaemonState.DonationSelector {
        switch (id, group, all ?? false) {
        case (let id?, nil, false): .id(id)
        case (nil, let group?, false): .group(group)
        case (nil, nil, true): .all
        default: throw .invalidParams("params: give exactly one of id, group or all")
        }
    }
}
