// Fuzz target `manifest`: the batch manifest parser and its validation, on any bytes (a JSON
// array of jobs or JSON Lines, with or without a byte order mark), then sharding of what it
// accepts; and the scanner that finds keys given twice (`JSONKeyScanner`), on the raw bytes and
// against Foundation's parser: on every array or object Foundation accepts, the scanner must
// give an answer (a nil would let a repeated key through unseen), one per element. Built into
// the SlideshowKit module by Tests/Fuzz/run.sh; never part of the package. The seeds
// (Tests/Fuzz/seeds/manifest) hold repeated keys, escaped ones, a BOM, NUL and control characters.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    do {
        let manifest = try BatchManifest(data: bytes, relativeTo: "/fuzz")
        for count in 1...3 {
            for index in 0..<count { _ = manifest.shard(index, of: count) }
        }
    } catch {
        for problem in error.errors {
            // Every message is one line.
            precondition(!problem.description.contains("\n") && !problem.description.contains("\r"), "\(problem.description)")
        }
    }
    let raw = Array(bytes)
    // Foundation reads NUL-holding text as UTF-16 or UTF-32; the manifest refuses it first.
    guard !raw.contains(0), String(validating: raw, as: UTF8.self) != nil else {
        _ = JSONKeyScanner.repeatedKeysOfElements(raw)
        _ = JSONKeyScanner.repeatedKeysOfObject(raw)
        return 0
    }
    let elements = JSONKeyScanner.repeatedKeysOfElements(raw)
    let object = JSONKeyScanner.repeatedKeysOfObject(raw)
    if raw.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "["),
       let array = try? JSONSerialization.jsonObject(with: bytes) as? [Any] {
        precondition(elements?.count == array.count, "the scanner missed an array Foundation reads")
    }
    if raw.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{"),
       (try? JSONSerialization.jsonObject(with: bytes)) is [String: Any] {
        precondition(object != nil, "the scanner missed an object Foundation reads")
    }
    return 0
}
