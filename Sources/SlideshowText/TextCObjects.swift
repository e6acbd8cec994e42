package import CPangoCairo

// One owner per Pango, cairo or fontconfig object: each class below takes exactly one
// reference in its `init` and drops it exactly once in its `deinit`. A type that needs several
// (a font map and its context, a surface and its cairo context) holds several of these, so a
// throwing initialiser never frees anything itself.

/// Throws when a cairo status is not success, naming the call and carrying cairo's message.
package func check(_ status: cairo_status_t, _ call: @autoclosure () -> String) throws(TextError) {
    guard status != CAIRO_STATUS_SUCCESS else { return }
    throw TextError.cairo(call: call(), message: String(cString: cairo_status_to_string(status)))
}

/// An owned fontconfig configuration (`FcInitLoadConfigAndFonts` … `FcConfigDestroy`).
package final class OwnedFontConfig {
    package let pointer: OpaquePointer

    /// The system's configuration and fonts, as a new configuration of its own.
    package init() throws(TextError) {
        guard let pointer = FcInitLoadConfigAndFonts() else { throw TextError.pango(call: "FcInitLoadConfigAndFonts") }
        self.pointer = pointer
    }

    deinit { FcConfigDestroy(pointer) }
}

/// An owned Pango font map drawing through cairo (`pango_cairo_font_map_new` … `g_object_unref`).
package final class OwnedFontMap {
    package let pointer: UnsafeMutablePointer<PangoFontMap>

    package init() throws(TextError) {
        guard let pointer = pango_cairo_font_map_new() else { throw TextError.pango(call: "pango_cairo_font_map_new") }
        self.pointer = pointer
    }

    deinit { g_object_unref(pointer) }
}

/// An owned Pango context (`pango_font_map_create_context` … `g_object_unref`).
package final class OwnedPangoContext {
    package let pointer: OpaquePointer

    package init(fontMap: OwnedFontMap) throws(TextError) {
        guard let pointer = pango_font_map_create_context(fontMap.pointer) else {
            throw TextError.pango(call: "pango_font_map_create_context")
        }
        self.pointer = pointer
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}

/// An owned Pango layout (`pango_layout_new` … `g_object_unref`).
package final class OwnedLayout {
    package let pointer: OpaquePointer

    package init(context: OwnedPangoContext) throws(TextError) {
        guard let pointer = pango_layout_new(context.pointer) else { throw TextError.pango(call: "pango_layout_new") }
        self.pointer = pointer
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}

/// An owned Pango font description (`pango_font_description_new` … `pango_font_description_free`).
package final class OwnedFontDescription {
    package let pointer: OpaquePointer

    package init() throws(TextError) {
        guard let pointer = pango_font_description_new() else {
            throw TextError.pango(call: "pango_font_description_new")
        }
        self.pointer = pointer
    }

    deinit { pango_font_description_free(pointer) }
}

/// An owned set of cairo font options (`cairo_font_options_create` … `cairo_font_options_destroy`).
package final class OwnedFontOptions {
    package let pointer: OpaquePointer

    package init() throws(TextError) {
        guard let pointer = cairo_font_options_create() else { throw TextError.pango(call: "cairo_font_options_create") }
        self.pointer = pointer
        try check(cairo_font_options_status(pointer), "cairo_font_options_create")
    }

    deinit { cairo_font_options_destroy(pointer) }
}

/// An owned cairo image surface (`cairo_image_surface_create` … `cairo_surface_destroy`).
package final class OwnedSurface {
    package let pointer: OpaquePointer

    /// - Throws: ``TextError/cairo(call:message:)`` when the surface cannot be made (too large, no memory).
    package init(format: cairo_format_t, width: Int, height: Int) throws(TextError) {
        guard let pointer = cairo_image_surface_create(format, Int32(width), Int32(height)) else {
            throw TextError.pango(call: "cairo_image_surface_create")
        }
        self.pointer = pointer
        try check(cairo_surface_status(pointer), "cairo_image_surface_create(\(width)x\(height))")
    }

    deinit { cairo_surface_destroy(pointer) }
}

/// An owned cairo drawing context on a surface (`cairo_create` … `cairo_destroy`).
package final class OwnedCairo {
    package let pointer: OpaquePointer

    package init(surface: OwnedSurface) throws(TextError) {
        guard let pointer = cairo_create(surface.pointer) else { throw TextError.pango(call: "cairo_create") }
        self.pointer = pointer
        try check(cairo_status(pointer), "cairo_create")
    }

    deinit { cairo_destroy(pointer) }
}
