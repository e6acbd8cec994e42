/// Text for messages: every message the library and the tool print goes through ``oneLine(_:)``,
/// so that a message is always exactly one line, whatever a path or a value holds.
package enum Message {
    /// The text with every control character escaped, so that it prints as one line and
    /// cannot move the cursor or recolour a terminal.
    ///
    /// Newline, carriage return and tab become `\n`, `\r` and `\t`; any other control character
    /// (C0, DEL, C1) and the Unicode line and paragraph separators become `\u{XX}` with their
    /// code point in hex. A byte of a path that is not UTF-8 (carried as ``PathBytes``' escape)
    /// prints as `\xFF`. Nothing else changes (a backslash stays one backslash), so escaping an
    /// escaped text changes nothing.
    package static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            if let byte = PathBytes.escapedByte(scalar) {
                result += "\\x" + String(byte, radix: 16, uppercase: true)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }

    /// A number of seconds as messages print it: rounded to the millisecond, so that float
    /// noise (`0.010000000000000009`) never shows, e.g. `0.01`, `2.0`, `-1.0`.
    package static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        return "\((value * 1000).rounded() / 1000)"
    }

    /// Whether a path holds a NUL character, which no file's name can: the system would see
    /// only the part before it.
    package static func hasNUL(_ path: String) -> Bool {
        path.utf8.contains(0)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F) || scalar.value == 0x2028 || scalar.value == 0x2029
            || PathBytes.escapedByte(scalar) != nil
    }
}
