import Foundation
import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio
import SlideshowFormats

/// `--mute-clips`, `--clip-volume`, `--duck` and the manifest's `muteClips`, `clipVolume`,
/// `duck`: parsed into ``ClipSoundSettings`` and checked by the show's rules.
@Suite("clip sound options: the command line, the manifest and the show's rules", needsBuiltTool)
struct ClipSoundOptionTests {
    @Test("out of range or not finite: an OptionError naming the setting", arguments: [
        (ClipSoundSettings(levelDecibels: 21), SlideshowOptions.Field.clipVolume),
        (ClipSoundSettings(levelDecibels: -41), .clipVolume),
        (ClipSoundSettings(levelDecibels: .nan), .clipVolume),
        (ClipSoundSettings(levelDecibels: .infinity), .clipVolume),
        (ClipSoundSettings(duckDecibels: 12), .duck),
        (ClipSoundSettings(duckDecibels: -41), .duck),
        (ClipSoundSettings(duckDecibels: -.infinity), .duck),
        (ClipSoundSettings(rampSeconds: -0.1), .duck),
        (ClipSoundSettings(rampSeconds: 2.5), .duck),
        (ClipSoundSettings(rampSeconds: .nan), .duck),
    ])
    func refused(settings: ClipSoundSettings, field: SlideshowOptions.Field) {
        var options = SlideshowOptions()
        options.clipSound = settings
        #expect { try options.validate(photoCount: 2) } throws: { ($0 as? OptionError)?.field == field }
        var show = Slideshow(photos: [Photo(path: "a.jpg")], output: "a.mp4")
        show.clipSound = settings
        #expect { try show.checkSettings() } throws: { ($0 as? OptionError)?.field == field }
    }

    @Test("the limits and the defaults are accepted, with or without music")
    func accepted() throws {
        for settings in [ClipSoundSettings(), ClipSoundSettings(muted: true), ClipSoundSettings(levelDecibels: -40, duckDecibels: -40, rampSeconds: 0),
                         ClipSoundSettings(levelDecibels: 20, duckDecibels: 0, rampSeconds: 2)] {
            var options = SlideshowOptions()
            options.clipSound = settings
            try options.validate(photoCount: 2)
        }
    }

    @Test("the command line: --mute-clips, --clip-volume, --duck (negative values as they are) reach the show")
    func commandLine() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("out.mp4")
        let result = try slideshow(["make"] + photos + ["--size", "320x240", "--duration", "1", "--preset", "ultrafast", "--json",
                                                        "--mute-clips", "--clip-volume", "-6", "--duck", "-18", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        // Without clips nothing changes: no audio track.
        #expect(try audioStreamCount(output) == 0)
    }

    @Test("bad values on the command line: usage errors (64) naming the option", arguments: [
        (["--clip-volume", "30"], "Error: --clip-volume: the clips' level 30.0 dB must be between -40 and 20 dB"),
        (["--clip-volume", "nan"], "Error: --clip-volume: the clips' level nan dB must be between -40 and 20 dB"),
        (["--duck", "12"], "Error: --duck: the duck 12.0 dB must be between -40 and 0 dB (it is how far the music goes down, e.g. -12); 0 leaves the music alone"),
        (["--duck", "-60"], "Error: --duck: the duck -60.0 dB must be between -40 and 0 dB; 0 leaves the music alone"),
    ])
    func usage(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make"] + photos + arguments + ["-o", folder.path("out.mp4")])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("the manifest: muteClips, clipVolume and duck give the settings make would")
    func manifest() throws {
        let jobs = try BatchManifest(data: Data(#"""
            [{"photos": ["a.jpg"], "output": "a.mp4", "muteClips": true, "clipVolume": -6, "duck": 0},
             {"photos": ["b.jpg"], "output": "b.mp4", "clipVolume": 3.5, "duck": -20},
             {"photos": ["c.jpg"], "output": "c.mp4"}]
            """#.utf8), relativeTo: "/shows").jobs
        #expect(jobs[0].slideshow.clipSound == ClipSoundSettings(muted: true, levelDecibels: -6, duckDecibels: 0))
        #expect(jobs[1].slideshow.clipSound == ClipSoundSettings(levelDecibels: 3.5, duckDecibels: -20))
        #expect(jobs[2].slideshow.clipSound == ClipSoundSettings())
        for field in ["muteClips", "clipVolume", "duck"] { #expect(BatchManifest.fields.contains(field)) }
    }

    @Test("bad clip sound fields in a manifest are refused, each naming its field", arguments: [
        (#""muteClips": "yes""#, "muteClips", "must be true or false"),
        (#""clipVolume": "loud""#, "clipVolume", "must be a number of dB, e.g. -6"),
        (#""clipVolume": 40"#, "clipVolume", "the clips' level 40.0 dB must be between -40 and 20 dB"),
        (#""duck": 6"#, "duck", "the duck 6.0 dB must be between -40 and 0 dB (it is how far the music goes down, e.g. -12); 0 leaves the music alone"),
        (#""duck": null, "dukc": -6"#, "dukc", "unknown field (did you mean duck?)"),
    ])
    func manifestRefused(fields: String, field: String, reason: String) {
        expectManifestRefused(fields, field: field, reason: reason)
    }
}
