import Foundation

/// What one kill-campaign client has been told is durable: its instances with their
/// configuration and pushed timeline, its stacks, and its donations. Each client owns its
/// objects (tagged with its name), so its requests apply in the order it sent them.
struct CampaignState: Equatable {
    struct Instance: Equatable {
        var family: String
        /// The configuration's `slot`: unique per request, so an unanswered add can be recognised.
        var slot: Int
        /// The version of the pushed timeline; nil before the first push.
        var timeline: Int?
    }

    struct Stack: Equatable {
        var members: [String]
        var smartRotate: Bool
        var userChoice: String?
    }

    var instances: [String: Instance] = [:]
    var stacks: [String: Stack] = [:]
    var donations: Set<String> = []
}

/// One state-changing request of the campaign.
enum CampaignOp {
    case add(family: String, slot: Int, stack: String?)
    case configure(id: String, slot: Int)
    case push(id: String, version: Int)
    case remove(id: String)
    case donate(id: String, slot: Int)
    case createStack(name: String, smartRotate: Bool)
    case stackAdd(name: String, id: String)
    case swipe(name: String, id: String)
    case smartRotate(name: String, on: Bool)

    static let kind = "test.pushed"
    static let intentType = "TestConfiguration"

    /// A pushed timeline of `version` has this many entries, so a partly stored one shows.
    static func entryCount(_ version: Int) -> Int { 1 + version % 5 }

    /// The name the summary counts it under.
    var type: String {
        switch self {
        case .add(_, _, let stack): stack == nil ? "add" : "add+stack"
        case .configure: "configure"
        case .push: "push"
        case .remove: "remove"
        case .donate: "donate"
        case .createStack: "stack.create"
        case .stackAdd: "stack.add"
        case .swipe: "stack.swipe"
        case .smartRotate: "stack.smartRotate"
        }
    }

    /// The JSON-RPC method and params; `tag` goes into every configuration as `city`.
    func request(tag: String) -> (method: String, params: [String: Any]) {
        switch self {
        case .add(let family, let slot, let stack):
            var params: [String: Any] = ["kind": Self.kind, "family": family, "configuration": ["city": tag, "slot": slot]]
            if let stack { params["stack"] = stack }
            return ("add", params)
        case .configure(let id, let slot):
            return ("configure", ["id": id, "configuration": ["slot": slot]])
        case .push(let id, let version):
            let entries = (0..<Self.entryCount(version)).map { k -> [String: Any] in
                ["date": "2026-01-05T08:0\(k):00Z", "content": ["v": version, "k": k]]
            }
            return ("push", ["id": id, "timeline": ["entries": entries, "policy": "never"]])
        case .remove(let id):
            return ("remove", ["id": id])
        case .donate(let id, let slot):
            return ("donate", ["intentType": Self.intentType, "parameters": ["slot": slot], "id": id])
        case .createStack(let name, let smartRotate):
            return ("stack.create", ["name": name, "smartRotate": smartRotate])
        case .stackAdd(let name, let id):
            return ("stack.add", ["name": name, "instances": [id]])
        case .swipe(let name, let id):
            return ("stack.swipe", ["name": name, "instance": id])
        case .smartRotate(let name, let on):
            return ("stack.smartRotate", ["name": name, "on": on])
        }
    }

    /// The state once this request has taken effect, whole. `newID`: the id an add created.
    func applied(to state: CampaignState, newID: String?) -> CampaignState {
        var state = state
        switch self {
        case .add(let family, let slot, let stack):
            guard let newID else { return state }
            state.instances[newID] = .init(family: family, slot: slot, timeline: nil)
            if let stack { state.stacks[stack]?.members.append(newID) }
        case .configure(let id, let slot):
            state.instances[id]?.slot = slot
        case .push(let id, let version):
            state.instances[id]?.timeline = version
        case .remove(let id):
            state.instances[id] = nil
            for name in state.stacks.keys {
                state.stacks[name]?.members.removeAll { $0 == id }
                if state.stacks[name]?.userChoice == id { state.stacks[name]?.userChoice = nil }
            }
        case .donate(let id, _):
            state.donations.insert(id)
        case .createStack(let name, let smartRotate):
            state.stacks[name] = .init(members: [], smartRotate: smartRotate, userChoice: nil)
        case .stackAdd(let name, let id):
            state.stacks[name]?.members.append(id)
        case .swipe(let name, let id):
            state.stacks[name]?.userChoice = id
        case .smartRotate(let name, let on):
            state.stacks[name]?.smartRotate = on
        }
        return state
    }
}

extension CampaignState {
    /// The acknowledged things `observed` lacks or holds differently, one line each.
    func lost(in observed: CampaignState) -> [String] {
        var lines: [String] = []
        for (id, instance) in instances.sorted(by: { $0.key < $1.key }) where observed.instances[id] != instance {
            lines.append("instance \(id): acknowledged \(instance), found \(observed.instances[id].map { "\($0)" } ?? "nothing")")
        }
        for (name, stack) in stacks.sorted(by: { $0.key < $1.key }) where observed.stacks[name] != stack {
            lines.append("stack \(name): acknowledged \(stack), found \(observed.stacks[name].map { "\($0)" } ?? "nothing")")
        }
        for id in donations.subtracting(observed.donations).sorted() {
            lines.append("donation \(id) missing")
        }
        return lines
    }

    /// What `observed` holds that was never asked for.
    func extra(in observed: CampaignState) -> [String] {
        observed.instances.keys.filter { instances[$0] == nil }.sorted().map { "instance \($0) was never acknowledged" }
            + observed.stacks.keys.filter { stacks[$0] == nil }.sorted().map { "stack \($0) was never acknowledged" }
            + observed.donations.subtracting(donations).sorted().map { "donation \($0) was never acknowledged" }
    }
}
