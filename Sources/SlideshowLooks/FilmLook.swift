import SlideshowPixels

/// A film look made of three parts: a tone kernel, a grey background and a grain mask that
/// blends between them.
///
/// Both built-in looks, ``Looks/minimalLife`` and ``Looks/tumbleDown``, are film looks; make
/// your own with ``init(name:exposure:contrast:gamma:monochrome:violetShadows:grain:)``.
/// For each pixel inside the buffer's content rectangle, with every value gamma-encoded sRGB in
/// [0, 1] (the stored 8-bit value divided by 255; Core Image works in linear light instead, so
/// the source app's pictures are a guide, not a golden file):
///
/// 1. The **kernel** K. Each channel is lifted, `c = clamp(c + exposure, 0, 1)`. A monochrome
///    look then takes `grey = 0.299 r + 0.587 g + 0.114 b` (Rec. 601 weights) and works on that
///    one value; a colour look works on each channel. The value goes through
///    `v = (v − 0.5) · contrast + 0.5` and `v = pow(max(v, 0), gamma)` (the `max` matters only
///    for contrasts outside [−1, 1], where `pow` of a negative value would be undefined). With
///    ``hasVioletShadows``, where `0.2126 r + 0.7152 g + 0.0722 b < 0.3` on the kernel's result,
///    `(0.0077, 0.00268, 0.03215)` is added to (r, g, b).
/// 2. The **background** B: the original pixel's Rec. 709 luminance,
///    `0.2126 r + 0.7152 g + 0.0722 b`, in all three channels.
/// 3. The **mask** m: three uniform random numbers per pixel (see ``GrainMask``) adjusted like
///    Core Image's colour controls; m is the mask's green value.
/// 4. The **output** `B + (K − B) · m`, clamped to [0, 1] and rounded to the nearest 8-bit value.
///
/// Pixels outside the content rectangle (the letterbox bars) are left exactly as they are.
///
/// The kernel is evaluated once per look into lookup tables when the look is made, so applying
/// it costs no `pow`: a colour kernel is a table over the 256 input levels (exact); a monochrome
/// kernel is a table over 8192 grey levels with linear interpolation between them (within a
/// small fraction of an 8-bit step for the built-in looks). The grain is a hash of the slide's
/// index and the pixel's position, so it is the same on every run, still within a slide and
/// different from slide to slide.
public struct FilmLook: Look {
    /// How the grain mask is made from three uniform random numbers, in the manner of Core
    /// Image's colour controls.
    ///
    /// For a pixel's random (r, g, b), each in [0, 1]:
    /// 1. saturation: `L = 0.2126 r + 0.7152 g + 0.0722 b` (Rec. 709 weights), and each channel
    ///    becomes `L + (c − L) · saturation`;
    /// 2. brightness: `c + brightness`;
    /// 3. contrast: `(c − 0.5) · contrast + 0.5`;
    /// 4. clamped to [0, 1].
    ///
    /// The look uses only the green channel of the result, as Core Image's blend-with-mask does.
    /// A bright mask (values near 1) shows mostly the kernel's result, with the grain showing as
    /// specks of the grey background.
    public struct GrainMask: Sendable, Hashable {
        /// Added to each channel after the saturation step.
        public var brightness: Double
        /// The factor by which each channel is scaled around 0.5, after the brightness step.
        public var contrast: Double
        /// The factor by which each channel moves from the random colour's luminance towards
        /// the colour: 0 gives grey, 1 the colour, more than 1 exaggerates it.
        public var saturation: Double

        /// Creates a grain mask.
        ///
        /// - Parameters:
        ///   - brightness: added to each channel after the saturation step.
        ///   - contrast: the factor by which each channel is scaled around 0.5.
        ///   - saturation: how far each channel moves from the luminance towards the colour.
        public init(brightness: Double, contrast: Double, saturation: Double) {
            self.brightness = brightness
            self.contrast = contrast
            self.saturation = saturation
        }
    }

    /// The name the command line uses, e.g. `minimal-life`.
    public let name: String
    /// Added to each channel, in [0, 1] units, before anything else.
    public let exposure: Double
    /// The factor by which the kernel scales values around 0.5; below 1 softens.
    public let contrast: Double
    /// The power the kernel raises values to after the contrast; above 1 darkens the mid-tones.
    public let gamma: Double
    /// Whether the kernel works on Rec. 601 grey (black and white) rather than on each channel.
    public let isMonochrome: Bool
    /// Whether the kernel adds a violet tint where its result is darker than 0.3 luminance.
    public let hasVioletShadows: Bool
    /// How the grain mask is made.
    public let grain: GrainMask

    /// The tables the kernel and the blend run on, made once per look.
    package let tables: FilmLookTables

    /// Creates a film look.
    ///
    /// Making a look evaluates its kernel into lookup tables (a fraction of a millisecond), so
    /// make a look once and apply it to many slides.
    ///
    /// - Parameters:
    ///   - name: the name the command line uses, e.g. `my-look`.
    ///   - exposure: added to each channel before anything else, e.g. `0.03`.
    ///   - contrast: the factor by which values are scaled around 0.5, e.g. `0.75`.
    ///   - gamma: the power values are raised to after the contrast; must be positive.
    ///   - monochrome: true for black and white (Rec. 601 grey), false to keep colour.
    ///   - violetShadows: true to add `(0.0077, 0.00268, 0.03215)` where the kernel's result has
    ///     a luminance under 0.3.
    ///   - grain: how the grain mask is made from the per-pixel random numbers.
    public init(
        name: String,
        exposure: Double,
        contrast: Double,
        gamma: Double,
        monochrome: Bool,
        violetShadows: Bool = false,
        grain: GrainMask
    ) {
        precondition(gamma > 0 && gamma.isFinite, "a film look's gamma must be positive")
        precondition(exposure.isFinite && contrast.isFinite, "a film look's exposure and contrast must be finite")
        self.name = name
        self.exposure = exposure
        self.contrast = contrast
        self.gamma = gamma
        self.isMonochrome = monochrome
        self.hasVioletShadows = violetShadows
        self.grain = grain
        self.tables = FilmLookTables(
            exposure: exposure, contrast: contrast, gamma: gamma,
            monochrome: monochrome, violetShadows: violetShadows, grain: grain
        )
    }

    /// The luminance under which ``hasVioletShadows`` tints the kernel's result.
    public static let violetShadowThreshold = 0.3

    /// What ``hasVioletShadows`` adds to (r, g, b) in the shadows, in [0, 1] units.
    public static let violetShadowTint = (red: 0.0077, green: 0.00268, blue: 0.03215)

    /// Applies the look in place to the pixels inside the buffer's content rectangle.
    ///
    /// The result depends only on the pixels, their positions and `slideIndex`: the same slide
    /// gives the same bytes on every run.
    ///
    /// - Parameters:
    ///   - buffer: the slide, at its final output size; the bars outside its `contentRect`
    ///     are not touched.
    ///   - slideIndex: the slide's position in the show; it seeds the grain.
    public func apply(to buffer: inout PixelBuffer, slideIndex: Int) {
        tables.apply(to: &buffer, slideIndex: slideIndex)
    }
}
