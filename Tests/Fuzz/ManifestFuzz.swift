// Fuzz target `manifest`: the batch manifest parser and its validation, on any bytes (a JSON
// array of jobs or JSON Lines), then sharding of what it accepts. Built into the SlideshowKit
// module by Tests/Fuzz/run.sh; never part of the package.
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
        _ = error.description
    }
    return 0
}
