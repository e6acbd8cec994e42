import Foundation

/// A number a look takes, e.g. the vignette's `radius`: its name, default and range.
public struct LookParameter: Sendable, Hashable {
    /// The key, as written after the look's name: `vignette:radius=1.8`.
    public var name: String
    /// The value when the key is not given.
    public var defaultValue: Double
    /// The values accepted.
    public var range: ClosedRange<Double>
    /// What it does, in a few words.
    public var meaning: String

    /// Creates a parameter.
    public init(name: String, defaultValue: Double, range: ClosedRange<Double>, meaning: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.range = range
        self.meaning = meaning
    }

    /// A value as the command line writes it: `0.8`, `2`, `1.25` (no trailing zeros, no exponent).
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}

/// A look the command line knows by name: what it does, its parameters and how to make it.
public struct LookDescription: Sendable {
    /// The name, e.g. `vignette`.
    public var name: String
    /// One line for `slideshow filters`.
    public var summary: String
    /// The numbers it takes, in the order `slideshow filters` lists them; empty for most looks.
    public var parameters: [LookParameter]
    /// Makes the look from a value for every parameter (defaults filled in, ranges checked).
    package let make: @Sendable ([String: Double]) -> any Look
}

/// Why a `--filter` text names no look: each case says what would be accepted.
public enum LookSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text, or a part of a chain between commas, is empty.
    case empty
    /// No look has this name.
    case unknownLook(String)
    /// The look takes no parameters, but some were given.
    case noParameters(look: String)
    /// The look has no parameter of this name.
    case unknownParameter(look: String, key: String)
    /// A parameter is not `key=value`.
    case malformedParameter(look: String, text: String)
    /// The same parameter twice.
    case repeatedParameter(look: String, key: String)
    /// The value is not a number in the parameter's range.
    case badValue(look: String, key: String, value: String)

    public var description: String {
        switch self {
        case .empty:
            "an empty look; give look names separated by commas, e.g. minimal-life,vignette"
        case .unknownLook(let name):
            "'\(name)' is not a look; the looks are \(Looks.catalogue.map(\.name).joined(separator: ", "))"
        case .noParameters(let look):
            "\(look) takes no parameters"
        case .unknownParameter(let look, let key):
            "\(look) has no parameter '\(key)'; its parameters are \(Self.parameterList(look))"
        case .malformedParameter(let look, let text):
            "\(look): '\(text)' is not key=value; its parameters are \(Self.parameterList(look))"
        case .repeatedParameter(let look, let key):
            "\(look): \(key) is given twice"
        case .badValue(let look, let key, let value):
            "\(look): \(key)=\(value) is not a number \(Self.rangeText(look, key))"
        }
    }

    private static func parameterList(_ look: String) -> String {
        Looks.description(of: look)?.parameters.map(\.name).joined(separator: ", ") ?? ""
    }

    private static func rangeText(_ look: String, _ key: String) -> String {
        guard let parameter = Looks.description(of: look)?.parameters.first(where: { $0.name == key }) else { return "" }
        let lower = LookParameter.format(parameter.range.lowerBound)
        if parameter.range.upperBound == .greatestFiniteMagnitude { return "from \(lower) up" }
        return "from \(lower) to \(LookParameter.format(parameter.range.upperBound))"
    }
}

extension Looks {
    /// Every look the command line knows, in the order `slideshow filters` lists them, with
    /// its parameters and their defaults.
    public static let catalogue: [LookDescription] = [
        LookDescription(name: "original", summary: "no change: the photo's own colours", parameters: []) { _ in original },
        LookDescription(name: "minimal-life", summary: "black and white, Agfa APX 400: lifted exposure, soft contrast, grain",
                        parameters: []) { _ in minimalLife },
        LookDescription(name: "tumble-down", summary: "colour, Evangelion: soft faded contrast, violet shadows, grain",
                        parameters: []) { _ in tumbleDown },
        LookDescription(
            name: "sepia", summary: "the classic sepia-tone matrix, blended with the original",
            parameters: [LookParameter(name: "intensity", defaultValue: SepiaLook.defaultIntensity, range: 0...1,
                                       meaning: "0 keeps the photo, 1 is all sepia")]
        ) { values in SepiaLook(intensity: values["intensity"] ?? SepiaLook.defaultIntensity) },
        LookDescription(
            name: "vignette", summary: "darker towards the corners of the picture (never the bars)",
            parameters: [
                LookParameter(name: "intensity", defaultValue: VignetteLook.defaultIntensity, range: 0...100,
                              meaning: "how much the corners darken; 0 is none"),
                LookParameter(name: "radius", defaultValue: VignetteLook.defaultRadius, range: 0.01...100,
                              meaning: "where the darkening reaches the intensity, in half-diagonals"),
            ]
        ) { values in
            VignetteLook(intensity: values["intensity"] ?? VignetteLook.defaultIntensity,
                         radius: values["radius"] ?? VignetteLook.defaultRadius)
        },
    ]

    /// The catalogue's entry for a look's name.
    /// - Parameters:
    ///   - name: the name exactly as the command line spells it, e.g. `vignette`.
    public static func description(of name: String) -> LookDescription? {
        catalogue.first { $0.name == name }
    }

    /// The look a `--filter` text describes: one look, or a chain applied left to right.
    ///
    /// The syntax: looks separated by commas, each a name optionally followed by parameters,
    /// each `:key=value`; spaces around the commas are allowed. Keys not given keep their
    /// defaults (``slideshow filters`` lists them).
    ///
    ///     minimal-life
    ///     minimal-life,vignette
    ///     sepia:intensity=0.5, vignette:intensity=1.2:radius=1.8
    ///
    /// - Parameters:
    ///   - text: the text as the user wrote it.
    /// - Returns: the look; a ``LookChain`` when the text names more than one.
    /// - Throws: ``LookSyntaxError``: an empty part, an unknown name, an unknown or repeated
    ///   key, a parameter that is not `key=value`, parameters to a look that takes none, or a
    ///   value that is not a number in range.
    public static func parse(_ text: String) throws(LookSyntaxError) -> any Look {
        var looks: [any Look] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard let name = pieces.first, !name.isEmpty else { throw .empty }
            guard let look = description(of: name) else { throw .unknownLook(name) }
            let given = pieces.dropFirst()
            if !given.isEmpty && look.parameters.isEmpty { throw .noParameters(look: name) }
            var values: [String: Double] = [:]
            for assignment in given {
                let sides = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard sides.count == 2, !sides[0].isEmpty else { throw .malformedParameter(look: name, text: assignment) }
                let (key, valueText) = (sides[0], sides[1])
                guard let parameter = look.parameters.first(where: { $0.name == key }) else {
                    throw .unknownParameter(look: name, key: key)
                }
                guard values[key] == nil else { throw .repeatedParameter(look: name, key: key) }
                guard let value = Double(valueText), value.isFinite, parameter.range.contains(value) else {
                    throw .badValue(look: name, key: key, value: valueText)
                }
                values[key] = value
            }
            looks.append(look.make(values))
        }
        return looks.count == 1 ? looks[0] : LookChain(looks)
    }
}
