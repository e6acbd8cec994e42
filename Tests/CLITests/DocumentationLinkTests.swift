import Foundation
import Testing
import TestSupport

/// The documentation a newcomer walks: README.md and the pages in docs/ (issue 32). Every
/// relative link and image names a file that exists, every `#fragment` a heading of the page
/// it points to, every page in docs/ is reached from the README or another page, and the
/// README stays short. Web addresses are not followed.
@Suite("docs: every relative link and image of README.md and docs/*.md resolves (issue 32)")
struct DocumentationLinkTests {
    /// Files that another part of issue 32 generates and commits: a link to one is let through
    /// while it is not there yet, and checked like any other once it is.
    static let generatedElsewhere: Set<String> = ["docs/settings.md"]

    static let root = TestEnvironment.packageRoot

    /// README.md and docs/*.md, as paths relative to the package root.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    @Test("every relative link and image points to a file that exists, and every fragment to a heading")
    func linksResolve() throws {
        var checked = 0
        for page in try Self.pages() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
            for link in Markdown.links(in: text) {
                guard !Markdown.isExternal(link.target) else { continue }
                checked += 1
                let (path, fragment) = Markdown.split(link.target)
                let resolved = path.isEmpty ? page : Markdown.normalise(path, from: page)
                let url = Self.root.appendingPathComponent(resolved)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    if Self.generatedElsewhere.contains(resolved) { continue }
                    Issue.record("\(page):\(link.line): \(link.target): \(resolved) does not exist")
                    continue
                }
                guard let fragment, resolved.hasSuffix(".md") else { continue }
                let anchors = Markdown.anchors(in: try String(contentsOf: url, encoding: .utf8))
                #expect(anchors.contains(fragment), "\(page):\(link.line): \(link.target): \(resolved) has no heading #\(fragment)")
            }
        }
        #expect(checked > 50, "only \(checked) relative links were found: the link parser has gone wrong")
    }

    @Test("every page in docs/ is linked from README.md or from another page")
    func everyPageReached() throws {
        let pages = try Self.pages()
        var reached: Set<String> = ["README.md"]
        for page in pages {
            let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
            for link in Markdown.links(in: text) where !Markdown.isExternal(link.target) {
                let path = Markdown.split(link.target).path
                if !path.isEmpty { reached.insert(Markdown.normalise(path, from: page)) }
            }
        }
        for page in pages { #expect(reached.contains(page), "\(page) is linked from no page") }
    }

    @Test("the README stays under 300 lines; the rest lives in docs/")
    func readmeIsShort() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 300, "README.md has \(lines) lines")
    }

    @Test("the anchors are GitHub's", arguments: [
        ("## The options of `make`", "the-options-of-make"),
        ("## The documentation's links", "the-documentations-links"),
        ("### 1. A film look", "1-a-film-look"),
        ("## Why P1 / R1 stays near 6x", "why-p1--r1-stays-near-6x"),
        ("## Face-aware framing", "face-aware-framing"),
    ])
    func anchors(heading: String, anchor: String) {
        #expect(Markdown.anchors(in: heading) == [anchor])
    }

    @Test("links in code are not links; repeated headings get -1, -2")
    func parser() {
        let text = "[a](x.md) `[b](y.md)`\n\n```\n[c](z.md)\n```\n\n    [d](w.md)\n![e](p.png \"title\")\n# T\n# T\n"
        #expect(Markdown.links(in: text).map(\.target) == ["x.md", "p.png"])
        #expect(Markdown.anchors(in: text) == ["t", "t-1"])
    }
}

/// Just enough Markdown to find links and headings: inline links and images outside code
/// (fenced blocks, indented blocks and code spans), ATX headings.
enum Markdown {
    struct Link { let target: String; let line: Int }

    /// The lines that are prose, with their 1-based numbers: fenced and indented code left out.
    static func proseLines(_ text: String) -> [(number: Int, text: String)] {
        var result: [(Int, String)] = []
        var fenced = false
        var previousBlank = true
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { fenced.toggle(); previousBlank = false; continue }
            if fenced { continue }
            let indentedCode = line.hasPrefix("    ") && previousBlank
            previousBlank = trimmed.isEmpty || (indentedCode && previousBlank)
            if indentedCode { continue }
            result.append((index + 1, String(line)))
        }
        return result
    }

    /// A line without its code spans.
    static func withoutCode(_ line: String) -> String {
        var out = ""
        var inCode = false
        for character in line {
            if character == "`" { inCode.toggle(); continue }
            if !inCode { out.append(character) }
        }
        return out
    }

    /// The targets of `[text](target)` and `![alt](target "title")`.
    static func links(in text: String) -> [Link] {
        var links: [Link] = []
        for (number, line) in proseLines(text) {
            let prose = withoutCode(line)
            var rest = prose[...]
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                var target = String(after[..<close])
                if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }  // a title
                if target.hasPrefix("<") && target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
                if !target.isEmpty { links.append(Link(target: target, line: number)) }
                rest = after[close...]
            }
        }
        return links
    }

    static func isExternal(_ target: String) -> Bool {
        target.contains("://") || target.hasPrefix("mailto:")
    }

    /// A target's path and fragment (nil when it has none).
    static func split(_ target: String) -> (path: String, fragment: String?) {
        guard let hash = target.firstIndex(of: "#") else { return (target, nil) }
        return (String(target[..<hash]), String(target[target.index(after: hash)...]))
    }

    /// A relative path from a page, as a path from the package root (`..` and `.` resolved).
    static func normalise(_ path: String, from page: String) -> String {
        var parts = page.split(separator: "/").dropLast().map(String.init)
        for part in (path.removingPercentEncoding ?? path).split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() } else { parts.append("..") }
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    /// The anchors GitHub gives a page's headings: lower case, everything but letters, digits,
    /// spaces, hyphens and underscores dropped, spaces as hyphens; a repeat gets -1, -2, ….
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        var anchors: [String] = []
        for (_, line) in proseLines(text) {
            let hashes = line.prefix { $0 == "#" }.count
            guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { continue }
            var title = line.dropFirst(hashes).trimmingCharacters(in: .whitespaces)
            while title.hasSuffix("#") { title.removeLast() }  // closing hashes
            title = title.trimmingCharacters(in: .whitespaces)
            let slug = String(title.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if scalar == "-" || scalar == "_" { return Character(scalar) }
                let properties = scalar.properties
                if properties.isAlphabetic || properties.numericType != nil { return Character(scalar) }
                return nil
            })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.append(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }
}

/// docs/slideshow.1 is made from the parser by `make man` and committed; the help snapshots
/// (Snapshots/*.txt, checked against the tool by ``HelpSnapshotTests``) say what the parser
/// has now. A help that gains an option or a subcommand without `make man` fails here.
@Suite("docs: the manual page has every subcommand and option of the help (make man, issue 32)")
struct ManualPageTests {
    static let root = TestEnvironment.packageRoot

    @Test("every subcommand and every long option in the help snapshots is in docs/slideshow.1")
    func manualFollowsTheHelp() throws {
        let manual = try String(contentsOf: Self.root.appendingPathComponent("docs/slideshow.1"), encoding: .utf8)
        let snapshots = Self.root.appendingPathComponent("Tests/CLITests/Snapshots")
        for name in ["slideshow", "make", "batch", "filters", "formats"] {
            let help = try String(contentsOf: snapshots.appendingPathComponent("\(name).txt"), encoding: .utf8)
            let hasSubcommand = name == "slideshow" || manual.contains(".It Em \(name)\n")
            #expect(hasSubcommand, "docs/slideshow.1 has no subcommand \(name): run make man")
            for line in help.split(separator: "\n") where line.hasPrefix("  -") {
                // "  -o, --output <file.mp4>   The MP4 file to write." → "--output"
                guard let option = line.split(separator: " ").first(where: { $0.hasPrefix("--") }) else { continue }
                let flag = option.trimmingCharacters(in: CharacterSet(charactersIn: ","))
                // mdoc writes `--output` as `Fl -output`, or `Fl o , -output` beside its short name.
                let listed = manual.contains("Fl \(flag.dropFirst())") || manual.contains(" , \(flag.dropFirst())")
                #expect(listed, "docs/slideshow.1 lacks \(flag) of \(name): run make man")
            }
        }
    }
}
