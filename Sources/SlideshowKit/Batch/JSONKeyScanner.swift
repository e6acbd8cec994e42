/// Finds the keys a JSON object gives more than once.
///
/// Foundation's `JSONDecoder` keeps one value of a key given twice and drops the other
/// without a word, so a manifest job such as `{"duration": 3, …, "duration": 30}` would render
/// with a length its author may not have meant. This scanner reads the raw text once more and
/// lists the keys repeated in each job object; keys are compared after their escapes are
/// decoded (`"dur\u0061tion"` is `duration`), by Swift's string equality, as the decoder
/// compares them.
///
/// It walks any bytes without trapping and without recursion (a nested value is skipped with a
/// depth count), and gives up (nil) on text that is not JSON; it is meant for text the decoder
/// has already accepted, and reads all of that (a comma before a closing bracket included),
/// which the `manifest` fuzz target checks against Foundation's parser.
struct JSONKeyScanner {
    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The repeated keys of each element of a top-level array, by element (an element that is
    /// not an object has none); nil when the text is not an array.
    static func repeatedKeysOfElements(_ bytes: [UInt8]) -> [[String]]? {
        var scanner = JSONKeyScanner(bytes)
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var result: [[String]] = []
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "]")) { return result }
        while true {
            scanner.skipSpace()
            // Foundation's parser allows a comma before the closing bracket; so does this.
            if !result.isEmpty && scanner.take(UInt8(ascii: "]")) { return result }
            if scanner.peek == UInt8(ascii: "{") {
                guard let keys = scanner.repeatedKeysOfObject(inPhotos: true) else { return nil }
                result.append(keys)
            } else {
                guard scanner.skipValue() else { return nil }
                result.append([])
            }
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: ",")) { continue }
            return scanner.take(UInt8(ascii: "]")) ? result : nil
        }
    }

    /// The repeated keys of a text that is one object; nil when it is not an object.
    static func repeatedKeysOfObject(_ bytes: [UInt8]) -> [String]? {
        var scanner = JSONKeyScanner(bytes)
        scanner.skipSpace()
        guard scanner.peek == UInt8(ascii: "{") else { return nil }
        return scanner.repeatedKeysOfObject(inPhotos: true)
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    /// At `{`: the object's keys given more than once, each once, in the order of their second
    /// appearance; the position ends after the `}`.
    ///
    /// With `inPhotos` (a job), the objects of its `photos` array are read too, one level and
    /// no deeper (no recursion a hostile text could deepen): a key repeated in photo object
    /// `i` is listed as `photos[i].key`.
    private mutating func repeatedKeysOfObject(inPhotos: Bool = false) -> [String]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var seen: Set<String> = []
        var repeated: [String] = []
        skipSpace()
        if take(UInt8(ascii: "}")) { return repeated }
        while true {
            skipSpace()
            if !seen.isEmpty && take(UInt8(ascii: "}")) { return repeated }
            guard let key = string() else { return nil }
            if !seen.insert(key).inserted && !repeated.contains(key) { repeated.append(key) }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            if inPhotos, key == "photos", peek == UInt8(ascii: "[") {
                guard let photos = repeatedKeysOfPhotos() else { return nil }
                repeated += photos
            } else {
                guard skipValue() else { return nil }
            }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}")) ? repeated : nil
        }
    }

    /// At `[`: the keys repeated in each object of the array, as `photos[i].key`; other values
    /// are skipped. The position ends after the `]`.
    private mutating func repeatedKeysOfPhotos() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var repeated: [String] = []
        var index = 0
        skipSpace()
        if take(UInt8(ascii: "]")) { return repeated }
        while true {
            skipSpace()
            if index > 0 && take(UInt8(ascii: "]")) { return repeated }
            if peek == UInt8(ascii: "{") {
                guard let keys = repeatedKeysOfObject() else { return nil }
                repeated += keys.map { "photos[\(index)].\($0)" }
            } else {
                guard skipValue() else { return nil }
            }
            index += 1
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]")) ? repeated : nil
        }
    }

    /// Skips one value of any kind, nested arrays and objects included.
    private mutating func skipValue() -> Bool {
        var depth = 0
        repeat {
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "\""):
                guard string() != nil else { return false }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                position += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard depth > 0 else { return false }
                depth -= 1
                position += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
                guard depth > 0 else { return false }
                position += 1
            default:
                // A number, true, false or null: up to the next delimiter.
                while let next = peek, !Self.delimiters.contains(next) { position += 1 }
            }
        } while depth > 0
        return true
    }

    private static let delimiters: Set<UInt8> = Set("[]{},:\" \t\r\n".utf8)

    /// At `"`: the string, escapes decoded; the position ends after the closing quote.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var utf8: [UInt8] = []
        var utf16: [UInt16] = []
        func flushUTF16() {
            guard !utf16.isEmpty else { return }
            utf8 += Array(String(decoding: utf16, as: UTF16.self).utf8)
            utf16.removeAll()
        }
        while let byte = peek {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flushUTF16()
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { return nil }
                position += 1
                if escaped == UInt8(ascii: "u") {
                    guard position + 4 <= bytes.count,
                          let unit = UInt16(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else { return nil }
                    position += 4
                    utf16.append(unit)
                    continue
                }
                flushUTF16()
                switch escaped {
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                default: utf8.append(escaped)
                }
            default:
                flushUTF16()
                utf8.append(byte)
            }
        }
        return nil
    }
}
