package import CHeif
package import CFFmpeg
import Foundation
import SlideshowColor
import SlideshowFormats
import SlideshowPixels

/// What a HEIF, HEIC or AVIF file holds, read with libheif: its primary image, upright.
///
/// libheif applies the item's transformations (clean aperture `clap`, rotation `irot`,
/// mirror `imir`, in the order the file lists them) while decoding, and joins the tiles of a
/// grid image; nothing else is turned here. In particular the EXIF orientation is ignored:
/// HEIF writers (iPhones, Samsung phones, cameras) store the pixels with their `irot`/`imir`
/// boxes and copy the camera's orientation into EXIF for information, so applying it again
/// would turn an iPhone portrait sideways (the shared arrow photo has irot 270 *and* EXIF 6),
/// and a Samsung photo with EXIF 6 but no `irot` is a landscape the camera meant as such.
/// This is what MIAF (ISO/IEC 23000-22, 7.3.6.7) requires and what every HEIF reader does.
package struct HEIFPicture {
    /// The decoded pixels, upright: 3 channels, or 4 (straight alpha) when the image has alpha.
    package var image: RGBImage
    /// The `colr` box: an ICC profile, an nclx description, or nothing (sRGB).
    package var color: Result<EmbeddedColor, ColorProblem>
}

/// Reads one HEIF or AVIF file with libheif: its context (``HEIFContext``) and the primary
/// image's handle (``HEIFImageHandle``), each an owned C object freed once, by its owner.
///
/// Not `Sendable`: one call of ``ImageManager`` owns it.
package final class HEIFDecoder {
    private let context: HEIFContext
    private let primary: HEIFImageHandle
    /// The primary image's handle, for libheif's calls.
    private var handle: OpaquePointer { primary.pointer }
    /// "HEIF" or "AVIF", for messages.
    package let formatName: String
    /// The primary item's `irot` in quarter turns, from ``HEIFBoxes``.
    private let rotation: Int?
    /// The primary item's transformations (`clap`, `irot`, `imir`) in order, from ``HEIFBoxes``.
    private let transformations: [String]?
    /// Where the primary image's HEVC pictures lie, from ``HEIFBoxes``, and the file they lie
    /// in: what ``HEVCTileDecoder`` decodes a slide from. nil for AVIF and layouts it does not take.
    private let tiled: (layout: HEVCLayout, bytes: [UInt8])?

    /// The longest side libheif may allocate an image of: 32768 pixels, libheif's own default
    /// limit, set explicitly. The pixel count is checked against ``ImageManager/maximumPixels`` too.
    package static let maximumSide: Int32 = 32768

    /// The threads a slide's HEVC tiles decode on, and its resampling's slice threads: the
    /// cores, at most 4. libswscale's Lanczos over a 12 MP photo's planes takes about 0.1 s on
    /// one core; on 2 cores the render of the benchmark's 3 HEICs measured 1.15 s with 2 slice
    /// threads against 1.19 s with one (medians of 6, the same bytes out).
    package static let threads = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Starts libheif once per process (`heif_init`, which registers its decoders), then
    /// registers ``HEVCDecoderPlugin``, which libheif then prefers to libde265 for HEVC.
    private static let started: Void = {
        _ = heif_init(nil)
        HEVCDecoderPlugin.registered
    }()

    /// Starts libheif and registers the plugin, if not done yet in this process.
    package static func start() { _ = started }

    /// Reads the file's boxes (not its image data) and finds the primary image.
    ///
    /// An `iref` entry that libheif 1.15 refuses but later versions read (an iOS 18 HEIC's
    /// metadata describing its gain map's `tmap` item too) is hidden from libheif while it
    /// reads the file: ``HEIFBoxes/withReferences(neutralisedAt:in:_:)`` patches four bytes
    /// of `bytes` in place and restores them. Every other file goes to libheif unchanged.
    /// - Parameters:
    ///   - bytes: the whole file (libheif copies what it needs); unchanged when this returns.
    ///   - formatName: "HEIF" or "AVIF", for messages.
    /// - Throws: `.truncated`, `.corrupt`, `.unsupported` or `.tooLarge`, with libheif's message.
    package convenience init(_ bytes: [UInt8], formatName: String) throws(ImageProblem) {
        var file = bytes  // copied only if a reference must be patched
        try self.init(&file, formatName: formatName)
    }

    /// Reads the file's boxes as the initialiser above does, patching the caller's own array
    /// (restored before this returns) rather than a copy when libheif 1.15 must not see a reference.
    /// - Throws: as the initialiser above.
    package init(_ bytes: inout [UInt8], formatName: String) throws(ImageProblem) {
        Self.start()
        self.formatName = formatName
        let item = try HEIFBoxes.checkedPrimaryItem(bytes, formatName: formatName)
        guard let context = HEIFContext() else {
            throw ImageProblem(.unsupported, "cannot start the \(formatName) decoder (out of memory)")
        }
        heif_context_set_maximum_image_size_limit(context.pointer, Self.maximumSide)
        // libheif decodes a grid's tiles on up to this many threads (its default is 4); the
        // item check keeps grids from nesting, so this bounds the threads one decode starts.
        heif_context_set_max_decoding_threads(context.pointer, Int32(Self.threads))
        let read = HEIFBoxes.withReferences(neutralisedAt: item.refusedReferenceTypes, in: &bytes) { raw in
            heif_context_read_from_memory(context.pointer, raw.baseAddress, raw.count, nil)
        }
        var primary: OpaquePointer?
        var status = read
        if status.code == heif_error_Ok {
            status = heif_context_get_primary_image_handle(context.pointer, &primary)
        }
        // A handle libheif gave is owned at once, whatever follows (the context, released
        // with it on a failure, is then freed by its owner).
        let owned = primary.map { HEIFImageHandle($0, context: context) }
        guard status.code == heif_error_Ok, let owned else { throw Self.problem(status, formatName: formatName) }
        self.context = context
        self.primary = owned
        rotation = item.rotation
        transformations = item.transformations
        tiled = item.hevcLayout.map { ($0, bytes) }
    }

    /// The coded size (`ispe`), before any transformation.
    package var storedSize: Size {
        Size(width: Int(heif_image_handle_get_ispe_width(handle)), height: Int(heif_image_handle_get_ispe_height(handle)))
    }

    /// The size once transformed: what the photo displays at.
    ///
    /// libheif's handle gives it for grid images, but the coded size for the others; the
    /// ``HEIFBoxes`` rotation turns the latter. (A `clap` crop is not reflected until decoding;
    /// the decoded size is what lays out the slide.)
    package var displayedSize: Size {
        let size = Size(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        guard let rotation, rotation % 2 == 1, size == storedSize else { return size }
        return Size(width: size.height, height: size.width)
    }

    package var hasAlpha: Bool { heif_image_handle_has_alpha_channel(handle) != 0 }

    /// Bits per luma sample (8, 10 or 12); 8 when the file does not say.
    package var bitDepth: Int {
        let bits = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        return bits > 0 ? bits : 8
    }

    /// Refuses images whose decode would cost too much, before anything is allocated.
    ///
    /// libheif holds the decoded YCbCr planes and the interleaved RGB(A) image, then the copy
    /// here: for each coded pixel, 3 plane samples (4:4:4 at worst) and 3 or 4 output samples,
    /// 1 byte each at 8 bits and 2 above, plus 4 bytes of our copy.
    /// - Throws: `.tooLarge` over ``ImageManager/maximumPixels`` or ``ImageLimits/maximumIntermediateBytes``.
    package func checkLimits() throws(ImageProblem) {
        let size = storedSize
        guard size.width > 0, size.height > 0 else {
            throw ImageProblem(.corrupt, "corrupt \(formatName) data (no image size)")
        }
        try ImageManager.checkPixelCount(size, format: formatName)
        let sampleBytes = bitDepth > 8 ? 2 : 1
        let bytes = size.width * size.height * ((3 + (hasAlpha ? 5 : 3)) * sampleBytes + 4)
        if bytes > ImageLimits.maximumIntermediateBytes {
            throw ImageProblem(.tooLarge,
                               "a \(formatName) image of \(size) needs \(bytes >> 20) MiB to decode, over the \(ImageLimits.maximumIntermediateBytes >> 20) MiB cap")
        }
    }

    /// The `colr` box: an ICC profile (`prof` or `rICC`) first, else `nclx`, else sRGB.
    package var color: Result<EmbeddedColor, ColorProblem> {
        let iccSize = heif_image_handle_get_raw_color_profile_size(handle)
        if iccSize > 0 {
            var profile = [UInt8](repeating: 0, count: iccSize)
            let status = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            guard status.code == heif_error_Ok else { return .failure(ColorProblem("its colour profile cannot be read")) }
            return .success(.icc(profile))
        }
        var given: UnsafeMutablePointer<heif_color_profile_nclx>?
        let status = heif_image_handle_get_nclx_color_profile(handle, &given)
        let owned = given.map(HEIFColorProfile.init)
        // The owner outlives every use of its pointer below.
        defer { withExtendedLifetime(owned) {} }
        guard status.code == heif_error_Ok, let nclx = owned?.pointer else { return .success(.sRGB) }
        return EmbeddedColor.nclx(primaries: Int(nclx.pointee.color_primaries.rawValue),
                                  transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
    }

    /// Decodes the primary image with its transformations, to 8-bit RGB or RGBA.
    ///
    /// Images of more than 8 bits decode to 16-bit samples and are reduced here with rounding,
    /// `v8 = (v·255 + max/2) / max` (max = 2^bits − 1), so that no band comes from truncation.
    /// - Throws: `.corrupt`, `.truncated` or `.unsupported` with libheif's message.
    package func decode() throws(ImageProblem) -> HEIFPicture {
        let alpha = hasAlpha
        let deep = bitDepth > 8
        let chroma: heif_chroma = switch (alpha, deep) {
        case (false, false): heif_chroma_interleaved_RGB
        case (true, false): heif_chroma_interleaved_RGBA
        case (false, true): heif_chroma_interleaved_RRGGBB_LE
        case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
        }
        return try withDecodedImage(heif_colorspace_RGB, chroma) { decoded throws(ImageProblem) -> HEIFPicture in
            let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
            let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
            guard width > 0, height > 0 else {
                throw ImageProblem(.corrupt, "corrupt \(formatName) data (decoded no pixels)")
            }
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride) else {
                throw ImageProblem(.corrupt, "corrupt \(formatName) data (no decoded pixels)")
            }
            let channels = alpha ? 4 : 3
            let rowBytes = width * channels
            let bits = Int(heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
            let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height + ImageLimits.rowPadding) { buffer, count in
                let to = buffer.baseAddress!
                if deep {
                    Self.reduce(plane, stride: Int(stride), bits: bits, into: to, width: width * channels, height: height)
                } else {
                    for row in 0..<height {
                        (to + row * rowBytes).update(from: plane + row * Int(stride), count: rowBytes)
                    }
                }
                (to + rowBytes * height).initialize(repeating: 0, count: ImageLimits.rowPadding)
                count = buffer.count
            }
            return HEIFPicture(image: RGBImage(width: width, height: height, channels: channels, pixels: pixels),
                               color: color)
        }
    }

    /// Decodes the primary image straight to a smaller size, for a slide, without the full-size
    /// RGB image: libswscale resamples the decoded planes (Lanczos) to `size` and interleaves
    /// them in one pass, on ``threads`` slice threads. The planes are released before
    /// this returns.
    ///
    /// A HEIC whose primary image is one HEVC picture or a grid of them (every phone photo) is
    /// decoded by ``HEVCTileDecoder``: its YCbCr 4:2:0 tiles pasted into one canvas (18 MB for
    /// 12 MP), which libswscale converts to RGB with the picture's matrix while resampling.
    /// Anything else, or a HEIC whose tiles do not decode that way, goes through libheif's
    /// 8-bit planar RGB (transformations applied): what libheif 1.15 converts every picture to
    /// (each grid tile too) before it assembles and turns the image, 36 MB for 12 MP.
    ///
    /// An item whose only transformation is `irot` (every iPhone portrait) is decoded as stored,
    /// resampled to the turned slide size and turned here (``RGBImage/oriented(_:)``), which
    /// spares libheif's turn of the full-size planes; `imir` or `clap` keep libheif's
    /// transformations, applied in the file's order.
    ///
    /// The colour transform then runs on the small image; ``decode()`` (the photo's own size)
    /// stays the exact path the colour-accuracy tests measure.
    /// - Parameters:
    ///   - size: the size to resample to; smaller than the displayed size on both axes.
    ///   - displayed: the displayed size the caller laid the slide out with; the decode must match it.
    /// - Returns: nil when the image has alpha, more than 8 bits, or planes this path does not
    ///   take (the caller decodes with ``decode()`` then).
    /// - Throws: `.corrupt`, `.truncated` or `.unsupported` with libheif's message.
    package func decodeScaled(to size: Size, displayed: Size) throws(ImageProblem) -> HEIFPicture? {
        guard !hasAlpha, bitDepth == 8 else { return nil }
        // An item that is only turned (an iPhone portrait's irot, no imir or clap) is decoded as
        // stored and turned here, once resampled: libheif 1.15 turns the full-size planes in a
        // per-sample loop (about 0.2 s for 12 MP, and a second copy of the planes).
        let turn: Orientation? = switch (rotation, transformations) {
        case (1?, ["irot"]?): .left    // a quarter turn anticlockwise
        case (2?, ["irot"]?): .down
        case (3?, ["irot"]?): .right   // three quarter turns anticlockwise: one clockwise
        default: nil
        }
        let swaps = turn?.swapsWidthAndHeight ?? false
        let stored = swaps ? Size(width: displayed.height, height: displayed.width) : displayed
        let storedTarget = swaps ? Size(width: size.height, height: size.width) : size
        func picture(_ image: RGBImage) -> HEIFPicture {
            HEIFPicture(image: turn.map { image.oriented($0) } ?? image, color: color)
        }
        if let tiled, transformations == [] || transformations == ["irot"], tiled.layout.size == stored,
           let canvas = HEVCTileDecoder.decode(tiled.layout, from: tiled.bytes, threads: Self.threads) {
            let (planes, strides) = canvas.planes
            let resampler = try SlicedResampler(from: stored, format: SlicedResampler.yuv420, to: storedTarget,
                                                threads: Self.threads, matrix: canvas.matrix)
            return picture(try Self.resample(planes.map { UnsafePointer($0) }, strides: strides.map { Int32($0) }, with: resampler,
                                             to: storedTarget))
        }
        return try withDecodedImage(heif_colorspace_RGB, heif_chroma_444, ignoringTransformations: turn != nil) { decoded throws(ImageProblem) -> HEIFPicture? in
            guard heif_image_get_colorspace(decoded) == heif_colorspace_RGB,
                  heif_image_get_chroma_format(decoded) == heif_chroma_444 else { return nil }
            // libswscale's planar RGB takes its planes in the order G, B, R.
            let channels = [heif_channel_G, heif_channel_B, heif_channel_R]
            guard channels.allSatisfy({ heif_image_get_bits_per_pixel_range(decoded, $0) == 8 }) else { return nil }
            let width = Int(heif_image_get_width(decoded, heif_channel_G))
            let height = Int(heif_image_get_height(decoded, heif_channel_G))
            guard Size(width: width, height: height) == stored else { return nil }
            var planes: [UnsafePointer<UInt8>] = []
            var strides: [Int32] = []
            for channel in channels {
                var stride: Int32 = 0
                guard let plane = heif_image_get_plane_readonly(decoded, channel, &stride) else {
                    throw ImageProblem(.corrupt, "corrupt \(formatName) data (no decoded pixels)")
                }
                planes.append(plane)
                strides.append(stride)
            }
            let resampler = try SlicedResampler(from: stored, format: SlicedResampler.planarRGB, to: storedTarget,
                                                threads: Self.threads)
            return picture(try Self.resample(planes, strides: strides, with: resampler, to: storedTarget))
        }
    }

    /// The largest 8-bit thumbnail the file carries whose shorter side is at least `minimum`,
    /// decoded upright (its own transformations applied) to RGB; nil when it has none that large.
    /// Phones store one of some 320x240 beside the full picture: picking reads it instead of
    /// decoding a 12-megapixel grid.
    /// - Throws: libheif's failure to decode the thumbnail, as ``problem(_:formatName:)``.
    package func thumbnail(shorterSideAtLeast minimum: Int) throws(ImageProblem) -> RGBImage? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        var best: (handle: HEIFImageHandle, pixels: Int)?
        for id in ids.prefix(max(0, min(listed, count))) {
            var given: OpaquePointer?
            let status = heif_image_handle_get_thumbnail(handle, id, &given)
            // Owned at once: released when replaced or passed over.
            guard let thumbnail = given.map({ HEIFImageHandle($0, context: context) }), status.code == heif_error_Ok else { continue }
            let width = Int(heif_image_handle_get_width(thumbnail.pointer)), height = Int(heif_image_handle_get_height(thumbnail.pointer))
            if min(width, height) >= minimum, width * height > best?.pixels ?? 0, heif_image_handle_get_luma_bits_per_pixel(thumbnail.pointer) == 8 {
                best = (thumbnail, width * height)
            }
        }
        guard let chosen = best?.handle else { return nil }
        defer { withExtendedLifetime(chosen) {} }
        return try withDecodedImage(heif_colorspace_RGB, heif_chroma_interleaved_RGB, of: chosen.pointer) { decoded throws(ImageProblem) -> RGBImage in
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride) else {
                throw ImageProblem(.corrupt, "corrupt \(formatName) data (no decoded thumbnail)")
            }
            let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
            let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    (out.baseAddress! + y * width * 3).update(from: plane + y * Int(stride), count: width * 3)
                }
            }
            return RGBImage(width: width, height: height, channels: 3, pixels: pixels)
        }
    }

    /// Resamples three full-size planes into a new interleaved RGB image of `size`.
    private static func resample(_ planes: [UnsafePointer<UInt8>], strides: [Int32], with resampler: SlicedResampler,
                                 to size: Size) throws(ImageProblem) -> RGBImage {
        let rowBytes = size.width * 3
        var problem: ImageProblem?
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * size.height + ImageLimits.rowPadding) { buffer, count in
            let to = buffer.baseAddress!
            do throws(ImageProblem) {
                try resampler.scale(planes: planes + [nil], strides: strides + [0], into: to, stride: rowBytes)
            } catch {
                problem = error
                to.initialize(repeating: 0, count: rowBytes * size.height)
            }
            (to + rowBytes * size.height).initialize(repeating: 0, count: ImageLimits.rowPadding)
            count = buffer.count
        }
        if let problem { throw problem }
        return RGBImage(width: size.width, height: size.height, channels: 3, pixels: pixels)
    }

    /// Decodes the primary image to libheif's planar RGB and releases it: the decode alone, for the benchmark.
    /// - Throws: as ``decodeScaled(to:displayed:)``.
    package func decodePlanes() throws(ImageProblem) {
        try withDecodedImage(heif_colorspace_RGB, heif_chroma_444) { _ throws(ImageProblem) in }
    }

    /// Decodes the primary image (transformations applied unless `ignoringTransformations`,
    /// more than 8 bits kept) into `colorspace` and `chroma`, and lends it to `body`; libheif's
    /// image is released when `body` returns.
    /// - Throws: `.unsupported` when the decoder cannot start; libheif's failure as
    ///   ``problem(_:formatName:)``; what `body` throws.
    private func withDecodedImage<Result>(_ colorspace: heif_colorspace, _ chroma: heif_chroma, ignoringTransformations: Bool = false,
                                          of item: OpaquePointer? = nil,
                                          _ body: (OpaquePointer) throws(ImageProblem) -> Result) throws(ImageProblem) -> Result {
        guard let options = HEIFDecodingOptions() else {
            throw ImageProblem(.unsupported, "cannot start the \(formatName) decoder (out of memory)")
        }
        // The owners outlive every use of their pointers below.
        defer { withExtendedLifetime(options) {} }
        options.pointer.pointee.ignore_transformations = ignoringTransformations ? 1 : 0
        options.pointer.pointee.convert_hdr_to_8bit = 0
        var given: OpaquePointer?
        let status = heif_decode_image(item ?? handle, &given, colorspace, chroma, options.pointer)
        let decoded = given.map(HEIFImage.init)
        guard status.code == heif_error_Ok, let decoded else { throw Self.problem(status, formatName: formatName) }
        defer { withExtendedLifetime(decoded) {} }
        return try body(decoded.pointer)
    }

    /// Rounds little-endian 16-bit samples of `bits` significant bits to 8 bits, through a table.
    package static func reduce(_ plane: UnsafePointer<UInt8>, stride: Int, bits: Int, into output: UnsafeMutablePointer<UInt8>,
                       width samples: Int, height: Int) {
        let bits = (9...16).contains(bits) ? bits : 10
        let maximum = (1 << bits) - 1
        let table = (0...maximum).map { UInt8((($0 * 255) + maximum / 2) / maximum) }
        table.withUnsafeBufferPointer { lookup in
            let lookup = lookup.baseAddress!
            for row in 0..<height {
                let from = plane + row * stride
                let to = output + row * samples
                for index in 0..<samples {
                    let value = Int(from[index &* 2]) | Int(from[index &* 2 &+ 1]) << 8
                    to[index] = lookup[min(value, maximum)]
                }
            }
        }
    }

    /// The problem a libheif error stands for, with libheif's message.
    package static func problem(_ error: heif_error, formatName: String) -> ImageProblem {
        // libheif's messages may end in a newline; a reason is one line.
        let text = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        let message = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        switch error.code {
        case heif_error_Memory_allocation_error where error.subcode == heif_suberror_Security_limit_exceeded:
            return ImageProblem(.tooLarge, "the \(formatName) image is over libheif's size limit (\(message))")
        case heif_error_Invalid_input where error.subcode == heif_suberror_End_of_data:
            return ImageProblem(.truncated, "truncated \(formatName) data (\(message))")
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            return ImageProblem(.unsupported, "unsupported \(formatName) (\(message))")
        default:
            return ImageProblem(.corrupt, "corrupt \(formatName) data (\(message))")
        }
    }
}


/// A libheif context (`heif_context_alloc`), owned: freed once, in deinit.
package final class HEIFContext {
    package let pointer: OpaquePointer

    package init?() {
        guard let pointer = heif_context_alloc() else { return nil }
        self.pointer = pointer
    }

    deinit { heif_context_free(pointer) }
}

/// An image handle libheif gave (the primary image, a thumbnail), owned: released once, in
/// deinit. It keeps the context it came from alive.
package final class HEIFImageHandle {
    package let pointer: OpaquePointer
    private let context: HEIFContext

    package init(_ pointer: OpaquePointer, context: HEIFContext) {
        self.pointer = pointer
        self.context = context
    }

    deinit { heif_image_handle_release(pointer) }
}

/// A decoded image (`heif_decode_image`), owned: released once, in deinit.
package final class HEIFImage {
    package let pointer: OpaquePointer

    package init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { heif_image_release(pointer) }
}

/// Decoding options (`heif_decoding_options_alloc`), owned: freed once, in deinit.
package final class HEIFDecodingOptions {
    package let pointer: UnsafeMutablePointer<heif_decoding_options>

    package init?() {
        guard let pointer = heif_decoding_options_alloc() else { return nil }
        self.pointer = pointer
    }

    deinit { heif_decoding_options_free(pointer) }
}

/// An nclx colour profile libheif gave, owned: freed once, in deinit.
package final class HEIFColorProfile {
    package let pointer: UnsafeMutablePointer<heif_color_profile_nclx>

    package init(_ pointer: UnsafeMutablePointer<heif_color_profile_nclx>) { self.pointer = pointer }

    deinit { heif_nclx_color_profile_free(pointer) }
}
