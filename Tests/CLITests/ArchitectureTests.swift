import Foundation
import Testing
import TestSupport
import SlideshowKit

/// Issue 32: the layers are targets, and each target's dependency list in `Package.swift` is the
/// whole truth. SwiftPM refuses a cycle between targets, but lets a file import any module built
/// before its own (a dependency's dependency included): this holds every import to the list.
@Suite("Architecture: the targets' arrows point one way, and each file imports only its target's dependencies")
struct ArchitectureTests {
    static let root = TestEnvironment.packageRoot
    static let manifest = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""

    /// The `layers` array of Package.swift: the library's targets, bottom to top.
    static var layers: [String] {
        guard let start = manifest.range(of: "let layers = ["),
              let end = manifest[start.upperBound...].firstIndex(of: "]") else { return [] }
        return quoted(manifest[start.upperBound..<end])
    }

    /// Each library target's declared dependencies, as `Package.swift` writes them.
    static var declared: [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        var rest = manifest[...]
        while let target = rest.range(of: ".target(") {
            rest = rest[target.upperBound...]
            guard let name = rest.range(of: #"name: "([A-Za-z]+)""#, options: .regularExpression) else { break }
            let targetName = quoted(rest[name]).first ?? ""
            var dependencies: [String] = []
            let close = rest.range(of: "),\n")?.lowerBound ?? rest.endIndex
            if let list = rest[..<close].range(of: #"dependencies: \[[^\]]*\]"#, options: .regularExpression) {
                dependencies = quoted(rest[list])
            }
            result[targetName] = Set(dependencies)
        }
        return result
    }

    static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The modules a target's Swift files import (`import X`, `package import X`, `@_exported import X`, …).
    static func imports(of target: String) throws -> [String: Set<String>] {
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(target)
        var result: [String: Set<String>] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let file = walker?.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                      words[..<at].allSatisfy({ $0.hasPrefix("@") || ["internal", "package", "public"].contains($0) }) else { continue }
                let module = String(words[at + 1])
                if module.hasPrefix("Slideshow") || (module.hasPrefix("C") && module.dropFirst().first?.isUppercase == true) {
                    result[file, default: []].insert(module)
                }
            }
        }
        return result
    }

    @Test("the layers are ordered: each target depends only on targets below it in `layers`")
    func layersAreOrdered() throws {
        let layers = Self.layers, declared = Self.declared
        #expect(layers.count >= 15 && layers.last == "SlideshowKit", "\(layers)")
        for (index, layer) in layers.enumerated() {
            let below = Set(layers[..<index])
            let dependencies = try #require(declared[layer], "\(layer) is not a target").filter { $0.hasPrefix("Slideshow") }
            #expect(dependencies.isSubset(of: below), "\(layer) depends on \(dependencies.subtracting(below).sorted()), which are not below it")
        }
    }

    @Test("every file imports only modules its target declares", arguments: ["SlideshowSupport", "SlideshowPixels", "SlideshowFFmpeg",
        "SlideshowFormats", "SlideshowColor", "SlideshowMetadata", "SlideshowFraming", "SlideshowText", "SlideshowAudio",
        "SlideshowVideo", "SlideshowMix", "SlideshowImages", "SlideshowLooks", "SlideshowPlan", "SlideshowPicking",
        "SlideshowCompositor", "SlideshowWriter", "SlideshowKit"])
    func importsAreDeclared(target: String) throws {
        #expect(Self.layers.contains(target))
        let declared = try #require(Self.declared[target])
        let imports = try Self.imports(of: target)
        let used = imports.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(declared.subtracting(used).isEmpty, "\(target) declares \(declared.subtracting(used).sorted()), which none of its files imports")
        for (file, modules) in imports.sorted(by: { $0.key < $1.key }) {
            let undeclared = modules.subtracting(declared)
            #expect(undeclared.isEmpty, "\(target)/\(file) imports \(undeclared.sorted()), which \(target) does not declare")
        }
    }

    @Test("the package can be a versioned dependency: no unsafe flags; no SPI on the library's types")
    func dependable() throws {
        #expect(!Self.manifest.contains("unsafeFlags"))
        let sources = Self.root.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(atPath: sources.path)
        var spi: [String] = []
        while let file = walker?.nextObject() as? String {
            if file.hasSuffix(".swift"), try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).contains("@_spi") { spi.append(file) }
        }
        #expect(spi.isEmpty, "\(spi)")
    }
}
