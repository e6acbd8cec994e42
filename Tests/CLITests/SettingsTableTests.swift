import Foundation
@testable import SlideshowKit
@testable import slideshow
import Testing
import TestSupport
import SlideshowFormats
import SlideshowKit

/// `docs/settings.md`, made from the table.
private let settingsDocument = TestEnvironment.packageRoot.appendingPathComponent("docs/settings.md")

/// `make --help` with each option's text on one line: the option's lines joined, spaces collapsed.
private func optionSections(_ help: String) -> [String: String] {
    var sections: [String: String] = [:]
    var current: (flag: String, text: String)?
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
        // An option's first line: two spaces, then its names (`-o, --output <file.mp4>`, `--zoom <fraction>`).
        if line.hasPrefix("  -"), let flag = line.split(separator: " ").first(where: { $0.hasPrefix("--") }) {
            if let current { sections[current.flag, default: ""] += current.text }
            current = (String(flag), String(line))
        } else if line.hasPrefix("   "), current != nil {
            current!.text += " " + line
        } else if let finished = current {
            sections[finished.flag, default: ""] += finished.text
            current = nil
        }
    }
    if let current { sections[current.flag, default: ""] += current.text }
    return sections.mapValues { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
}

/// A value other than the default, as a manifest gives it (JSON), from the entry's example.
private func manifestExample(_ setting: Setting) -> String? {
    switch setting.kind {
    case .flag(let inverted): return inverted ? "false" : "true"
    case .number, .integer: return setting.example
    case .list: return setting.example.map { "[\"\($0)\"]" }
    case .text, .path, .choice: return setting.example.map { "\"\($0)\"" }
    }
}

/// The job's options a manifest gives, with `fields` (JSON text after the photos and output).
private func manifestOptions(_ fields: String) throws -> SlideshowOptions? {
    try JSONDecoder().decode(JobEntry.self, from: Data(#"{"photos": ["a.jpg"], "output": "o.mp4"\#(fields)}"#.utf8)).options
}

/// The table of settings (`SlideshowOptions.Field.setting`) is the one place a setting is
/// declared: the help of `make`, the manifest's keys and reader, the range checks and
/// `docs/settings.md` are checked against it here. When the table changes on purpose, the help
/// snapshots and the page are written again with
///
///     SNAPSHOT_UPDATE=1 swift test --filter 'HelpSnapshotTests|SettingsTableTests'
///
/// (`make settings-doc` writes the page alone).
@Suite("The settings table: the help, the manifest, the checks and docs/settings.md are made from it (issue 32)", needsBuiltTool)
struct SettingsTableTests {
    @Test("every field has one entry, with its own option and key")
    func entries() {
        #expect(Setting.all.map(\.field) == SlideshowOptions.Field.allCases)
        let flags = Setting.all.compactMap(\.flag), keys = Setting.all.compactMap(\.key)
        #expect(Set(flags).count == flags.count && Set(keys).count == keys.count)
        for setting in Setting.all {
            #expect(setting.field.setting.field == setting.field)
            #expect(!setting.summary.contains("{range}") && !setting.type.contains("{range}"), "\(setting.field)")
            // An option or a key without a way in is a setting no one can give.
            #expect(setting.binding != nil || [.photos, .output].contains(setting.field), "\(setting.field)")
            #expect(setting.binding == nil || setting.example != nil || setting.kind == .flag(inverted: false) || setting.kind == .flag(inverted: true),
                    "\(setting.field) has no example")
        }
    }

    @Test("make --help gives each setting's option once, with its summary, default and range")
    func help() throws {
        let result = try slideshow(["make", "--help"])
        #expect(result.status == 0)
        let help = result.stdoutText
        let sections = optionSections(help)
        for setting in Setting.all {
            guard let flag = setting.flag else {
                #expect(help.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(setting.summary))
                continue
            }
            let synopsis = setting.valueName.map { "\(flag) <\($0)>" } ?? flag
            // An option's line: its names and value, then two spaces and its text.
            let lines = help.split(separator: "\n").filter { line in
                line.hasPrefix("  -") && String(line.dropFirst(2)).components(separatedBy: "  ")[0].split(separator: " ").contains { $0.trimmingCharacters(in: [","]) == flag }
            }
            #expect(lines.count == 1, "\(flag) is listed \(lines.count) times: \(lines)")
            let section = try #require(sections[flag], "\(flag) is not in make's help")
            #expect(section.contains(synopsis), "\(section)")
            #expect(section.contains(setting.summary), "\(flag): \(section)")
            if let range = setting.range {
                #expect(section.components(separatedBy: range.description).count == 2, "\(flag)'s range \(range) is not said once: \(section)")
            }
            // The default, as ArgumentParser writes a value (0.0 for 0), or as the table gives one
            // ArgumentParser cannot show; a flag's default is being off (or on, for --no-…).
            if case .flag = setting.kind { continue }
            let written = setting.defaultValue.map { [$0] + (Double($0).map { ["\($0)"] } ?? []) } ?? []
            let defaults = section.components(separatedBy: "default: ").dropFirst()
            if written.isEmpty {
                #expect(defaults.isEmpty, "\(flag) shows a default the table has not: \(section)")
            } else {
                #expect(defaults.count == 1 && written.contains { defaults.first!.hasPrefix($0 + ")") }, "\(flag): not its default \(written): \(section)")
            }
        }
        // Nothing else: every option of make's help is a setting's or one of make's own.
        let own: Set = ["--overwrite", "--quiet", "--json", "--dry-run", "--version", "--help", "--output"]
        #expect(Set(sections.keys).subtracting(own) == Set(Setting.all.compactMap(\.flag)).subtracting(own))
    }

    @Test("a manifest's keys are the table's, and batch --help names each")
    func manifestKeys() throws {
        #expect(BatchManifest.fields == ["photos", "output"] + Setting.all.compactMap(\.key).filter { $0 != "photos" && $0 != "output" })
        let batch = try slideshow(["batch", "--help"]).stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for key in BatchManifest.fields {
            #expect(batch.contains(" \(key),") || batch.contains(" \(key);") || batch.contains(" \(key) "), "\(key)")
        }
    }

    @Test("the command line and a manifest read each setting's example into the same options, not the defaults")
    func bothReadersAgree() throws {
        for setting in Setting.all where setting.binding != nil {
            let flag = try #require(setting.flag), key = try #require(setting.key)
            let arguments: [String]
            if case .flag = setting.kind { arguments = [flag] } else { arguments = [flag, try #require(setting.example)] }
            let fromCommandLine = try RenderOptions.parse(arguments).options
            let example = try #require(manifestExample(setting))
            let fromManifest = try #require(try manifestOptions(", \"\(key)\": \(example)"), "\(key)")
            #expect(fromCommandLine == fromManifest, "\(setting.field): \(arguments) and \(key) differ")
            #expect(setting.value(in: fromCommandLine) != setting.value(in: .defaults), "\(setting.field): the example is the default")
            // Everything else stays the default.
            for other in Setting.all where other.field != setting.field && other.binding != nil {
                #expect(other.value(in: fromCommandLine) == other.value(in: .defaults), "\(arguments) changed \(other.field)")
            }
        }
        // Nothing given: the defaults, on both sides.
        #expect(try RenderOptions.parse([]).options == SlideshowOptions.defaults)
        #expect(try manifestOptions("") == SlideshowOptions.defaults)
    }

    @Test("a value just outside a setting's range is refused, naming the setting; its bounds are not")
    func ranges() throws {
        for setting in Setting.all {
            guard let range = setting.range, let key = setting.key else { continue }
            // The music and a card, for the settings that are theirs.
            let context = #", "audio": "song.mp3", "titleCard": "Title""#
            func check(_ value: Double) throws -> OptionError? {
                let number = range.integral ? String(Int(value)) : "\(value)"
                let options = try #require(try manifestOptions(context + ", \"\(key)\": \(number)"), "\(key): \(number)")
                do {
                    try options.validate(photoCount: 1)
                    return nil
                } catch {
                    return error
                }
            }
            let step = range.integral ? 1.0 : 0.001
            #expect(try check(range.lowerBound) == nil, "\(key): \(range.lowerBound)")
            #expect(try check(range.lowerBound - step)?.field == setting.field, "\(key): \(range.lowerBound - step)")
            if let upper = range.upperBound {
                #expect(try check(upper) == nil, "\(key): \(upper)")
                #expect(try check(upper + step)?.field == setting.field, "\(key): \(upper + step)")
            }
        }
    }

    @Test("a rule between settings is the library's: the command line and a manifest refuse alike, with the same error",
          arguments: [
            (["--duration", "2", "--slide-duration", "1"], #""duration": 2, "slideDuration": 1"#, "give --duration or --slide-duration, not both"),
            (["--duration", "audio", "--slide-duration", "1"], #""duration": "audio", "slideDuration": 1"#, "--duration: give duration 'audio' or a number of seconds, not both"),
            (["--audio-start", "2"], #""audioStart": 2"#, "--audio-start: is only for a soundtrack: give an audio file too"),
            (["--no-audio-loop"], #""audioLoop": false"#, "--no-audio-loop: is only for a soundtrack: give an audio file too"),
            (["--cuts", "beats"], #""cuts": "beats""#, "--cuts: cutting on the beat needs music: give an audio file too"),
            (["--caption", "a", "--captions", "c.txt"], #""captions": ["a"], "captionsFile": "c.txt""#, "give --caption or --captions, not both"),
            (["--zoom", "2"], #""zoom": 2"#, "--zoom: 2.0 is not between 0 and 1"),
            (["--title-card", "T", "--title-card-duration", "5"], #""titleCard": "T", "titleCardDuration": 5"#, "--title-card-duration: 1 × 5.0 s of cards leave nothing of the 3.0 s show for the photos"),
            (["c.mp4#t=5,2"], #""photos": [{"path": "c.mp4", "in": 5, "out": 2}]"#, "photos: photo 0: out: 2.0 is not after in (5.0 s)"),
            (["-o", ""], #""output": """#, "--output: is an empty path"),
          ])
    func rulesAreTheLibrarys(arguments: [String], fields: String, message: String) throws {
        // The photos and the output, unless the case gives its own.
        let photos = arguments.first.map { !$0.hasPrefix("-") } == true ? [arguments[0]] : ["a.jpg"]
        let output = arguments.first == "-o" ? "" : "o.mp4"
        let options = arguments.filter { !photos.contains($0) && $0 != "-o" && !(arguments.first == "-o" && $0.isEmpty) }
        var warnings: [String] = []
        #expect { _ = try RenderOptions.parse(options).slideshow(photos: photos, output: output, overwrite: false, warnings: &warnings) } throws: { error in
            String(describing: error) == message
        }
        var json = fields.hasPrefix(#""photos""#) ? "{" + fields : #"{"photos": ["a.jpg"], "#  + fields
        if !fields.contains(#""output""#) { json += #", "output": "o.mp4""# }
        let entry = try JSONDecoder().decode(JobEntry.self, from: Data((json + "}").utf8))
        let manifestOptions = try #require(entry.options, "\(entry.problems)")
        #expect { _ = try manifestOptions.slideshow(photos: (entry.photos ?? []).map { Photo(path: $0) }, output: entry.output ?? "") } throws: { error in
            RenderOptions.message(for: error as! OptionError) == message
        }
    }

    @Test("the command line's options and the manifest's reader restate nothing of a setting: no help, default or key of their own")
    func nothingRestated() throws {
        let sources = TestEnvironment.packageRoot.appendingPathComponent("Sources")
        let options = try String(contentsOf: sources.appendingPathComponent("slideshow/RenderOptions.swift"), encoding: .utf8)
        for restated in ["ArgumentHelp(\"", "help: \"", "SlideshowOptions.defaults"] {
            #expect(!options.contains(restated), "RenderOptions.swift holds \(restated)")
        }
        // No option's name written out: `"--title"`.
        #expect(!options.contains(/"--[a-z]/), "RenderOptions.swift names an option itself")
        // A photo object's own keys (photoFields) are read by name; a job's settings only through the table.
        let reader = try String(contentsOf: sources.appendingPathComponent("SlideshowKit/Batch/JobEntry.swift"), encoding: .utf8)
        for key in Setting.all.compactMap(\.key) where !["photos", "output"].contains(key) && !BatchManifest.photoFields.contains(key) {
            #expect(!reader.contains("\"\(key)\""), "JobEntry.swift reads \(key) by hand")
        }
    }

    @Test("docs/settings.md is the table's page (SNAPSHOT_UPDATE=1 or make settings-doc writes it)")
    func document() throws {
        let made = Setting.document()
        if ProcessInfo.processInfo.environment["SNAPSHOT_UPDATE"] == "1" {
            try Data(made.utf8).write(to: settingsDocument)
            return
        }
        let committed = try String(contentsOf: settingsDocument, encoding: .utf8)
        #expect(committed == made, "docs/settings.md is not the table's page: run make settings-doc")
        for setting in Setting.all {
            #expect(committed.contains(setting.key.map { "`\($0)`" } ?? ""), "\(setting.field)")
        }
    }
}
