import Foundation

/// A stack's state as it is stored, without `JSONEncoder`, byte for byte what
/// `WidgetJSON.encoder` writes (sorted keys, absent optionals left out). An hour of a busy
/// day stores most stacks again (a new top, a held decision noted), and through the encoder
/// the rows cost the event loop more than evaluating the stacks did.
extension StackState {
    public var jsonText: String {
        var out = JSONText(capacity: 160 + 12 * instances.count + 26 * rotations.count)
        StackState.writeJSON(
            to: &out, holdUntil: holdUntil, instances: instances, lastHeld: lastHeld, name: name, rotations: rotations,
            smartRotate: smartRotate, top: top, topSince: topSince, userChoice: userChoice)
        return out.text
    }

    /// A stack's fields in sorted key order, absent optionals left out, as `JSONEncoder`
    /// writes them: the stored state passes every field, the protocol's `StackInfo` leaves
    /// out `lastHeld` and `rotations`.
    public static func writeJSON(
        to out: inout JSONText, holdUntil: Date?, instances: [InstanceID], lastHeld: InstanceID?, name: String,
        rotations: [Date]?, smartRotate: Bool, top: InstanceID?, topSince: Date?, userChoice: InstanceID?,
        invalidated: Bool? = nil
    ) {
        out.raw("{")
        if let holdUntil {
            out.raw(#""holdUntil":"#)
            out.date(holdUntil)
            out.raw(",")
        }
        out.raw(#""instances":"#)
        out.strings(instances)
        if let invalidated {
            out.raw(#","invalidated":"#)
            out.bool(invalidated)
        }
        if let lastHeld {
            out.raw(#","lastHeld":"#)
            out.string(lastHeld)
        }
        out.raw(#","name":"#)
        out.string(name)
        if let rotations {
            out.raw(#","rotations":["#)
            for (index, date) in rotations.enumerated() {
                if index > 0 { out.raw(",") }
                out.date(date)
            }
            out.raw("]")
        }
        out.raw(#","smartRotate":"#)
        out.bool(smartRotate)
        if let top {
            out.raw(#","top":"#)
            out.string(top)
        }
        if let topSince {
            out.raw(#","topSince":"#)
            out.date(topSince)
        }
        if let userChoice {
            out.raw(#","userChoice":"#)
            out.string(userChoice)
        }
        out.raw("}")
    }
}
