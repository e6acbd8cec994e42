import SlideshowPixels

/// The looks the tool ships with, by name.
///
/// The command line offers these names (`slideshow filters` lists them with ``summary(of:)``);
/// code can use the values directly, chain them with ``LookChain`` or make its own
/// ``FilmLook``.
public enum Looks {
    /// `original`: no change; the slide keeps the photo's own pixels.
    public static let original: any Look = OriginalLook()

    /// `minimal-life`: black and white after the app's "Agfa APX 400".
    ///
    /// A monochrome ``FilmLook`` with FILTERS.md's exposure 0.03, contrast 0.75 and gamma 2.0
    /// (soft contrast, and a gamma that darkens the mid-tones: mid-grey comes out near 0.27 and
    /// white near 0.77), blended over the grey background by a grain mask with brightness 0.6,
    /// contrast 0.9 and saturation 1.8.
    public static let minimalLife: any Look = FilmLook(
        name: "minimal-life",
        exposure: 0.03, contrast: 0.75, gamma: 2.0,
        monochrome: true, violetShadows: false,
        grain: FilmLook.GrainMask(brightness: 0.6, contrast: 0.9, saturation: 1.8)
    )

    /// `tumble-down`: soft, slightly faded colour with violet shadows, after the app's
    /// "Evangelion".
    ///
    /// A colour ``FilmLook`` with violet shadows and a grain mask with brightness 0.65,
    /// contrast 1.13 and saturation 1.27 (the app's values). The app did not publish its
    /// kernel's parameters; these were chosen here and are kept fixed so that renders stay the
    /// same from release to release:
    /// - exposure 0.02: lifts the blacks a little;
    /// - contrast 0.85: softens, so black lands near 0.07 and white near 0.92, a faded print;
    /// - gamma 1.1: darkens the mid-tones slightly (0.5 stays near 0.48), which keeps the
    ///   picture from looking washed out after the lift.
    public static let tumbleDown: any Look = FilmLook(
        name: "tumble-down",
        exposure: 0.02, contrast: 0.85, gamma: 1.1,
        monochrome: false, violetShadows: true,
        grain: FilmLook.GrainMask(brightness: 0.65, contrast: 1.13, saturation: 1.27)
    )

    /// `sepia`: the classic sepia tone at the camera app's intensity, 0.8 (see ``SepiaLook``).
    public static let sepia: any Look = SepiaLook()

    /// `vignette`: corners darkened at the camera app's intensity 1.5 and radius 2.0 (see
    /// ``VignetteLook``).
    public static let vignette: any Look = VignetteLook()

    /// Every built-in look at its defaults, in the order the command line lists them: original,
    /// minimal-life, tumble-down, sepia, vignette. ``catalogue`` has their parameters.
    public static let all: [any Look] = [original, minimalLife, tumbleDown, sepia, vignette]

    /// The built-in look with a name.
    ///
    /// - Parameters:
    ///   - name: a look's name exactly as the command line spells it, e.g. `minimal-life`.
    /// - Returns: the look, or nil when no built-in look has that name.
    public static func named(_ name: String) -> (any Look)? {
        all.first { $0.name == name }
    }

    /// A one-line description of a built-in look, for `slideshow filters`.
    ///
    /// - Parameters:
    ///   - name: a look's name, e.g. `minimal-life`.
    /// - Returns: e.g. `black and white, Agfa APX 400: lifted exposure, soft contrast, grain`,
    ///   or nil when no built-in look has that name.
    public static func summary(of name: String) -> String? {
        description(of: name)?.summary
    }
}

/// The look that changes nothing.
package struct OriginalLook: Look {
    /// `original`.
    package var name: String { "original" }

    /// Leaves the buffer as it is.
    package func apply(to buffer: inout PixelBuffer, slideIndex: Int) {}
}

/// It changes nothing.
extension OriginalLook: PixelwiseLook {}
