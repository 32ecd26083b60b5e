/// The request workloads of `widgetd-load rpc`, each a widgetd side and a Redis side that
/// does the nearest equivalent amount of work.
enum RPCWorkload: String, CaseIterable {
    /// `ping` against `PING`: the cost of a request that does nothing.
    case ping
    /// `reloadTimelines` of one kind (kinds in turn, budget on, so each request is persisted
    /// and deferred) against `ZADD` on a memory-only Redis.
    case reload
    /// `donate`, answered after its SQLite commit, against `ZADD` with `appendfsync always`.
    case donate

    /// The row's name in the targets table.
    var title: String {
        switch self {
        case .ping: "`ping` vs `PING`"
        case .reload: "`reloadTimelines` of one kind vs `ZADD`"
        case .donate: "`donate`, durable, vs `ZADD` with `appendfsync always`"
        }
    }

    var persistence: RedisServer.Persistence { self == .donate ? .appendFsyncAlways : .none }

    /// The reply every Redis request must get: a ZADD that answers `:0` changed nothing, so
    /// it would not have been written to the append-only file.
    var redisExpectedReply: String { self == .ping ? "+PONG" : ":1" }

    /// What the daemon is asked. Request `n` is numbered (its id) `n`.
    struct WidgetdShape {
        var kinds: [String]
        var intentType: String
        var cities: Int
    }

    func widgetdEncoder(_ shape: WidgetdShape) -> (Int, inout [UInt8]) -> Void {
        let prefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        switch self {
        case .ping:
            let suffix = Array(#","method":"ping"}"#.utf8) + [UInt8(ascii: "\n")]
            return { number, buffer in
                buffer.append(contentsOf: prefix)
                appendDecimal(number, to: &buffer)
                buffer.append(contentsOf: suffix)
            }
        case .reload:
            // Kind `n % kinds`.
            let suffixes = shape.kinds.map {
                Array(#","method":"reloadTimelines","params":{"kinds":["\#($0)"]}}"#.utf8) + [UInt8(ascii: "\n")]
            }
            return { number, buffer in
                buffer.append(contentsOf: prefix)
                appendDecimal(number, to: &buffer)
                buffer.append(contentsOf: suffixes[number % suffixes.count])
            }
        case .donate:
            // A unique id, one of ten groups, city `n % cities`.
            let middles = (0..<10).map { Array(#","method":"donate","params":{"group":"g\#($0)","id":"d-"#.utf8) }
            let tails = (0..<shape.cities).map {
                Array(#"","intentType":"\#(shape.intentType)","parameters":{"city":"city-\#($0)"}}}"#.utf8)
                    + [UInt8(ascii: "\n")]
            }
            return { number, buffer in
                buffer.append(contentsOf: prefix)
                appendDecimal(number, to: &buffer)
                buffer.append(contentsOf: middles[number % middles.count])
                appendDecimal(number, to: &buffer)
                buffer.append(contentsOf: tails[number % tails.count])
            }
        }
    }

    /// `PING`, or `ZADD bench:kNN score member` with the key taken in turn like the kinds, and
    /// score and member drawn from request `n` by a 64-bit mixing function. The mixer is a
    /// bijection, so no two requests share a member: every ZADD adds one (Redis treats a ZADD
    /// of an existing member with its score as no change, writes nothing to the append-only
    /// file and does not fsync; redis-benchmark needs `-r` for the same reason).
    func redisEncoder(keys: Int) -> (Int, inout [UInt8]) -> Void {
        switch self {
        case .ping:
            let command = RESPReply.command(["PING"])
            return { _, buffer in buffer.append(contentsOf: command) }
        case .reload, .donate:
            let zadd = Array("ZADD".utf8)
            let keyNames = (0..<keys).map { Array("bench:k\($0 < 10 ? "0" : "")\($0)".utf8) }
            return { number, buffer in
                let mixed = mix64(UInt64(number))
                let score = Array(String(mixed >> 40).utf8)
                let member = Array("m:\(String(mixed, radix: 16))".utf8)
                RESPReply.appendCommand([zadd, keyNames[number % keys], score, member], to: &buffer)
            }
        }
    }
}

/// SplitMix64's finaliser: a bijection on 64-bit values that scatters consecutive numbers.
func mix64(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
