internal import CPangoCairo
import Foundation
import SlideshowFormats

/// The fonts a ``TextRenderer`` draws with: a Pango font map of its own, and the family to ask
/// it for, checked once.
///
/// A family is looked up among the installed ones; an unknown family becomes
/// ``TextStyle/defaultFamily`` with a warning. A font file is added to a fontconfig
/// configuration of this map's own (`FcConfigAppFontAddFile`), so it never leaks into another
/// renderer, and its own family name is asked for. Characters the family lacks come from
/// fontconfig's fallback either way.
package final class FontMap {
    /// The Pango font map (owned).
    package let map: OwnedFontMap
    /// The configuration holding a font file, when there is one; the map holds a reference
    /// too, this one keeps the ownership plain.
    package let config: OwnedFontConfig?
    /// The family to put in font descriptions.
    package let family: String
    /// What the user should know, e.g. that the family asked for is not installed.
    package let warnings: [TextWarning]

    /// Families fontconfig resolves by its own rules rather than by name.
    package static let genericFamilies: Set<String> = [
        "sans", "sans-serif", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui", "emoji", "math",
    ]

    /// - Throws: ``TextError/unreadableFontFile(path:reason:)`` for a file that is missing,
    ///   unreadable, a folder or not a font.
    package init(font: TextStyle.Font) throws(TextError) {
        let map = try OwnedFontMap()
        self.map = map
        switch font {
        case .family(let requested):
            let name = requested.trimmingCharacters(in: .whitespaces)
            config = nil
            if Self.genericFamilies.contains(name.lowercased()) || Self.installedFamilies(in: map).contains(name.lowercased()) {
                family = name
                warnings = []
            } else {
                family = TextStyle.defaultFamily
                warnings = [TextWarning(
                    source: requested,
                    reason: "no font family of that name is installed; drawn in \(TextStyle.defaultFamily)")]
            }
        case .file(let path):
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw TextError.unreadableFontFile(path: path, reason: "no such font file")
            }
            guard !isFolder.boolValue else { throw TextError.unreadableFontFile(path: path, reason: "a folder, not a font file") }
            // fontconfig opens what it is given: a FIFO would block it for ever, a device never end.
            if let what = PhotoFile.nonRegularKind(atPath: path) {
                throw TextError.unreadableFontFile(path: path, reason: "not a regular file (\(what)), not a font file")
            }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw TextError.unreadableFontFile(path: path, reason: "the font file cannot be read (permission denied)")
            }
            let config = try OwnedFontConfig()
            guard FcConfigAppFontAddFile(config.pointer, path) != 0, let name = Self.applicationFamily(in: config) else {
                throw TextError.unreadableFontFile(path: path, reason: "not a font file fontconfig can read")
            }
            pango_fc_font_map_set_config(OpaquePointer(map.pointer), config.pointer)
            self.config = config
            family = name
            warnings = []
        }
    }

    /// The lower-cased names of the families installed for `map`.
    private static func installedFamilies(in map: OwnedFontMap) -> Set<String> {
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>? = nil
        var count: Int32 = 0
        pango_font_map_list_families(map.pointer, &families, &count)
        guard let families else { return [] }
        defer { g_free(families) }
        var names = Set<String>()
        for index in 0..<Int(count) {
            if let family = families[index], let name = pango_font_family_get_name(family) {
                names.insert(String(cString: name).lowercased())
            }
        }
        return names
    }

    /// The family name of the first font added to `config` as an application font.
    private static func applicationFamily(in config: OwnedFontConfig) -> String? {
        guard let set = FcConfigGetFonts(config.pointer, FcSetApplication), set.pointee.nfont > 0,
              let pattern = set.pointee.fonts[0] else { return nil }
        var value: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(pattern, "family", 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
}
