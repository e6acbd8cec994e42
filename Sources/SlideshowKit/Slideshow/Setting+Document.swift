extension Setting {
    /// `docs/settings.md`: every setting's option, manifest key, value, default, range and
    /// meaning, made from the table (a test compares the committed page with it, and
    /// `make settings-doc` writes it again).
    package static func document() -> String {
        var lines = [
            "# Settings",
            "",
            "<!-- Made from the settings table (Sources/SlideshowKit/Slideshow/Settings.swift) by `make settings-doc`; edit the table, not this page. -->",
            "",
            "Every setting of a slideshow: the option `slideshow make` takes for it, the key a job of a batch manifest",
            "(`slideshow batch`) gives it, what its value is, its default and the values allowed. The command line, the",
            "manifest's reader, the checks and this page are all made from one table in the library",
            "(`SlideshowOptions.Field.setting`), so they say the same. A manifest's job needs `photos` and `output`;",
            "relative paths in it are relative to the manifest's folder. A setting that needs another is refused without it.",
            "",
            "| option | manifest key | value | default | range | what it does |",
            "|---|---|---|---|---|---|",
        ]
        for setting in all {
            let option = setting.flag.map { flag in setting.valueName.map { "`\(flag) <\($0)>`" } ?? "`\(flag)`" }
                ?? setting.valueName.map { "`<\($0)> …` (the arguments)" } ?? ""
            let value: String
            switch setting.kind {
            case .flag(let inverted): value = "a flag; `true` or `false` in a manifest" + (inverted ? " (`false` for the flag)" : "")
            default: value = setting.type + (setting.example.map { ", e.g. `\($0)`" } ?? "")
            }
            var meaning = setting.summary
            if let needs = setting.needs { meaning += " Needs \(needs.setting.flag.map { "`\($0)`" } ?? needs.rawValue)." }
            let cells = [option, setting.key.map { "`\($0)`" } ?? "", value, setting.defaultValue ?? "", setting.range?.description ?? "", meaning]
            lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
