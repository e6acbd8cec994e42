internal import CPangoCairo
import SlideshowPixels

/// Shapes and draws captions and title cards with Pango and cairo.
///
/// Pango shapes every script with HarfBuzz, orders mixed left-to-right and right-to-left text
/// with FriBidi, and finds the glyphs a font lacks through fontconfig's fallback (the Noto
/// fonts); cairo draws them, colour emoji in colour. Text is always set as plain text
/// (`pango_layout_set_text`), never as markup.
///
/// A caption is drawn into a ``TextOverlay`` for a frame of a given size: its em size is a
/// fraction of the frame's shorter side; it is wrapped to the title-safe width on at most
/// three lines of balanced length, and ellipsised after the third; an outline and a soft
/// shadow in the style's outline colour keep it legible on snow and on night alike.
///
/// A renderer owns C objects (a font map, a context, a layout), so it stays inside one task;
/// its results are `Sendable` values. Make one per render (or per worker) and reuse it.
public final class TextRenderer {
    /// The style everything is drawn in.
    public let style: TextStyle
    /// What the user should know about the style, e.g. that its family is not installed.
    public var warnings: [TextWarning] { fonts.warnings }

    package let fonts: FontMap
    package let context: OwnedPangoContext
    package let layout: OwnedLayout
    package let fontDescription: OwnedFontDescription
    /// What the last drawn block's layout looked like, for the tests.
    package private(set) var lastLayout = LayoutSummary(text: "", lineCount: 0, isEllipsized: false, lineWidths: [])

    /// Creates a renderer for a style, loading its font.
    /// - Throws: ``TextError/unreadableFontFile(path:reason:)`` when the style names a font
    ///   file that cannot be read; ``TextError/pango(call:)`` when Pango cannot start.
    public init(style: TextStyle = TextStyle()) throws(TextError) {
        self.style = style
        fonts = try FontMap(font: style.font)
        context = try OwnedPangoContext(fontMap: fonts.map)
        // Unhinted outlines at fractional positions: the same widths at every size, so a
        // balanced wrap and a centred line measure what they draw.
        let options = try OwnedFontOptions()
        cairo_font_options_set_antialias(options.pointer, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options.pointer, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options.pointer, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context.pointer, options.pointer)
        pango_context_set_round_glyph_positions(context.pointer, 0)
        layout = try OwnedLayout(context: context)
        pango_layout_set_alignment(layout.pointer, PANGO_ALIGN_CENTER)
        pango_layout_set_wrap(layout.pointer, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout.pointer, PANGO_ELLIPSIZE_END)
        fontDescription = try OwnedFontDescription()
        pango_font_description_set_family(fontDescription.pointer, fonts.family)
    }

    /// The title-safe area of a frame: its central 90% in each direction (``SafeArea/titleSafe``).
    public static func titleSafeArea(of frame: Size) -> Rect {
        SafeArea.titleSafe.rect(in: frame)
    }

    /// Draws a caption for a frame of the given size.
    ///
    /// The overlay, outline and shadow included, lies inside the style's safe area (by default the title-safe area),
    /// centred across it, at the caption's position.
    /// - Parameters:
    ///   - caption: the words and their position.
    ///   - frame: the output frame's size (landscape or portrait).
    /// - Throws: ``TextError/cairo(call:message:)`` when cairo cannot draw (no memory).
    public func overlay(for caption: Caption, frame: Size) throws(TextError) -> TextOverlay {
        try overlay(for: caption, frame: frame, layers: .all)
    }

    /// ``overlay(for:frame:)`` drawing only some layers, so a test can find the letters' own pixels.
    package func overlay(for caption: Caption, frame: Size, layers: Layers) throws(TextError) -> TextOverlay {
        let safe = style.safeArea.rect(in: frame)
        let em = Self.em(style.captionSize, of: frame)
        let block = try drawBlock(caption.text, em: em, bold: false, maxLines: 3, maxWidth: safe.width, layers: layers)
        let x = safe.x + (safe.width - block.width) / 2
        let y = switch caption.position {
        case .bottom: safe.maxY - block.height
        case .top: safe.y
        // Centred in the safe area: for the title-safe area, in the frame.
        case .centre: (2 * safe.y + safe.height - block.height) / 2
        }
        return TextOverlay(rect: Rect(x: x, y: y, width: block.width, height: block.height), pixels: block.pixels)
    }

    /// The em size in pixels for a fraction of the frame's shorter side, the fraction held to
    /// 0…0.25 (a NaN is 0: the smallest text), so no style asks for letters taller than the frame.
    package static func em(_ fraction: Double, of frame: Size) -> Double {
        (fraction.isFinite ? min(max(fraction, 0), 0.25) : 0) * Double(min(frame.width, frame.height))
    }

    /// Which parts of the text to draw.
    package struct Layers: OptionSet {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let shadow = Layers(rawValue: 1)
        package static let outline = Layers(rawValue: 2)
        package static let fill = Layers(rawValue: 4)
        package static let all: Layers = [.shadow, .outline, .fill]
    }

    /// A drawn block of text, not yet placed: premultiplied BGRA.
    package struct Block {
        package var width: Int
        package var height: Int
        package var pixels: [UInt8]
    }

    /// The shape of a laid-out block, for tests: the text Pango holds, its lines, their widths.
    package struct LayoutSummary: Equatable {
        package var text: String
        package var lineCount: Int
        package var isEllipsized: Bool
        package var lineWidths: [Int]
    }

    /// Shapes `text` at `em` pixels, wraps it on at most `maxLines` balanced lines no wider
    /// than `maxWidth` (padding for the outline and shadow included), and draws it.
    ///
    /// Cairo draws the letters (and emoji); the outline and shadow are grown from their
    /// coverage (``TextEffects``) and composed under them.
    package func drawBlock(_ text: String, em: Double, bold: Bool, maxLines: Int, maxWidth: Int, layers: Layers) throws(TextError) -> Block {
        // Sizes are clamped to sane ranges: a style's NaN or huge fraction never traps or allocates wildly.
        func pixels(_ value: Double, _ range: ClosedRange<Int>) -> Int {
            value.isFinite ? min(max(Int(value.rounded()), range.lowerBound), range.upperBound) : range.lowerBound
        }
        let em = Double(pixels(em, 1...4096))
        let outline = pixels(style.outlineWidth * em, 1...64)
        let blur = pixels(style.shadowRadius * em / 2, 0...64)
        let offset = blur > 0 ? pixels(em * 0.03, 1...64) : 0
        let pad = outline + 2 * blur + offset + 1
        let lineWidth = max(1, maxWidth - 2 * pad)

        pango_font_description_set_weight(fontDescription.pointer, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(fontDescription.pointer, em * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout.pointer, fontDescription.pointer)
        pango_layout_set_height(layout.pointer, Int32(-max(1, maxLines)))
        // No character is narrower than 0.15 em, so more than this never reaches the last line:
        // the rest is cut before shaping (Pango ellipsises the last line all the same).
        let budget = max(1, maxLines) * lineWidth / max(1, Int(em * 0.15)) + 8
        let shaped = text.count > budget ? String(text.prefix(budget)) + "\u{2026}" : text
        pango_layout_set_text(layout.pointer, shaped, -1)
        wrap(toWidth: lineWidth)

        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout.pointer, &ink, &logical)
        let left = Int(min(ink.x, logical.x)), top = Int(min(ink.y, logical.y))
        let right = Int(max(ink.x + ink.width, logical.x + logical.width))
        let bottom = Int(max(ink.y + ink.height, logical.y + logical.height))
        let width = right - left + 2 * pad, height = bottom - top + 2 * pad
        lastLayout = summary()

        let glyphs = try OwnedSurface(format: CAIRO_FORMAT_ARGB32, width: width, height: height)
        do {
            let cairo = try OwnedCairo(surface: glyphs)
            cairo_translate(cairo.pointer, Double(pad - left), Double(pad - top))
            cairo_move_to(cairo.pointer, 0, 0)
            cairo_set_source_rgb(cairo.pointer, style.fill.unitRed, style.fill.unitGreen, style.fill.unitBlue)
            pango_cairo_show_layout(cairo.pointer, layout.pointer)
            try check(cairo_status(cairo.pointer), "pango_cairo_show_layout")
        }
        guard layers != .fill else { return Block(width: width, height: height, pixels: Self.bytes(of: glyphs, width: width, height: height)) }

        let rim = try TextEffects.outline(of: glyphs, width: width, height: height, radius: outline)
        let composed = try OwnedSurface(format: CAIRO_FORMAT_ARGB32, width: width, height: height)
        let cairo = try OwnedCairo(surface: composed)
        let (red, green, blue) = (style.outline.unitRed, style.outline.unitGreen, style.outline.unitBlue)
        if layers.contains(.shadow), blur > 0, style.shadowOpacity > 0 {
            let shadow = try TextEffects.shadow(of: rim, width: width, height: height, offset: offset, radius: blur)
            cairo_set_source_rgba(cairo.pointer, red, green, blue, min(1, style.shadowOpacity))
            cairo_mask_surface(cairo.pointer, shadow.pointer, 0, 0)
        }
        if layers.contains(.outline) {
            cairo_set_source_rgb(cairo.pointer, red, green, blue)
            cairo_mask_surface(cairo.pointer, rim.pointer, 0, 0)
        }
        if layers.contains(.fill) {
            cairo_set_source_surface(cairo.pointer, glyphs.pointer, 0, 0)
            cairo_paint(cairo.pointer)
        }
        try check(cairo_status(cairo.pointer), "cairo_paint(text)")
        return Block(width: width, height: height, pixels: Self.bytes(of: composed, width: width, height: height))
    }

    /// Sets the layout's width: the whole width when the text fits on one line or is too long
    /// for the lines allowed (then it is ellipsised), else about the narrowest width that keeps
    /// the same number of lines (balanced lines, not a long one and a stub).
    private func wrap(toWidth maxWidth: Int) {
        pango_layout_set_width(layout.pointer, Int32(maxWidth) * PANGO_SCALE)
        let lines = pango_layout_get_line_count(layout.pointer)
        guard lines > 1, pango_layout_is_ellipsized(layout.pointer) == 0 else { return }
        var current = maxWidth
        func fits(_ width: Int) -> Bool {
            current = width
            pango_layout_set_width(layout.pointer, Int32(width) * PANGO_SCALE)
            return pango_layout_get_line_count(layout.pointer) == lines && pango_layout_is_ellipsized(layout.pointer) == 0
        }
        // The lines' total over their count is where balance lies; look just above it first,
        // then halve the gap between the widest that failed and the narrowest that fits.
        let target = summary().lineWidths.reduce(0, +) / Int(lines)
        var lo = target * 97 / 100, hi = maxWidth
        for percent in [101, 104, 110, 125] {
            let width = target * percent / 100
            guard width < hi else { break }
            if fits(width) { hi = width; break }
            lo = width
        }
        while hi - lo > 4 {
            let mid = (lo + hi) / 2
            if fits(mid) { hi = mid } else { lo = mid }
        }
        if current != hi { pango_layout_set_width(layout.pointer, Int32(hi) * PANGO_SCALE) }
    }

    /// The surface's premultiplied ARGB32 pixels (native-endian words) as bytes B, G, R, A.
    private static func bytes(of surface: OwnedSurface, width: Int, height: Int) -> [UInt8] {
        cairo_surface_flush(surface.pointer)
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return [UInt8](repeating: 0, count: width * height * 4) }
        let stride = Int(cairo_image_surface_get_stride(surface.pointer)), row = width * 4
        return [UInt8](unsafeUninitializedCapacity: row * height) { bytes, count in
            for y in 0..<height {
                #if _endian(little)
                (bytes.baseAddress! + y * row).update(from: data + y * stride, count: row)
                #else
                for x in 0..<width {
                    let source = data + y * stride + x * 4, target = y * row + x * 4
                    (bytes[target], bytes[target + 1], bytes[target + 2], bytes[target + 3]) = (source[3], source[2], source[1], source[0])
                }
                #endif
            }
            count = row * height
        }
    }

    /// What the layout holds now.
    private func summary() -> LayoutSummary {
        let count = Int(pango_layout_get_line_count(layout.pointer))
        var widths: [Int] = []
        for index in 0..<count {
            guard let line = pango_layout_get_line_readonly(layout.pointer, Int32(index)) else { continue }
            var logical = PangoRectangle()
            pango_layout_line_get_pixel_extents(line, nil, &logical)
            widths.append(Int(logical.width))
        }
        let text = pango_layout_get_text(layout.pointer).map { String(cString: $0) } ?? ""
        return LayoutSummary(text: text, lineCount: count, isEllipsized: pango_layout_is_ellipsized(layout.pointer) != 0,
                             lineWidths: widths)
    }
}

extension RGBColor {
    /// The channels as cairo takes them, 0 to 1.
    package var unitRed: Double { Double(red) / 255 }
    package var unitGreen: Double { Double(green) / 255 }
    package var unitBlue: Double { Double(blue) / 255 }
}
