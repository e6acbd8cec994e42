package import CHeif
internal import CFFmpeg
import Synchronization
import SlideshowFFmpeg

/// libheif's HEVC decoder, replaced by FFmpeg's: a libheif decoder plugin whose pictures come
/// from libavcodec's `hevc` decoder (SIMD) rather than libde265.
///
/// libheif keeps doing everything else: it reads the boxes, hands each coded picture (a grid
/// tile of an iPhone photo, or the whole image) to the plugin it chooses, and then assembles the
/// grid, applies `clap`/`irot`/`imir`, the alpha plane and the `colr` box exactly as with
/// libde265. libheif chooses the registered plugin with the highest priority for a format; this
/// one claims HEVC above libde265's 100, so every HEIC decode in the process takes it.
///
/// What libheif pushes for one picture is the `hvcC` box's parameter-set NAL units followed by
/// the picture's own, each after a 4-byte big-endian length (what libheif 1.15's libde265
/// plugin reads); they are rewritten with Annex B start codes, the form libavcodec's decoder
/// takes without extradata, and decoded as one packet. The decoded planes (8 bits or more,
/// 4:2:0, 4:2:2, 4:4:4 or monochrome) are copied into a libheif image, more than 8 bits as
/// 16-bit samples as libheif stores them, with the bitstream's colour description as its nclx
/// (libheif replaces it by the file's `colr` nclx when there is one), as libde265's plugin does.
///
/// One libavcodec decoder per picture, single-threaded: libheif decodes a grid's tiles on
/// threads of its own (up to 4 at a time, its default), and a tile is one slice that
/// libavcodec's slice threads cannot split; its frame threads only add buffers for a single
/// picture. (Measured on 2 cores: 4 or 2 tile threads with one libavcodec thread each were the
/// fastest; one tile at a time was slower, and with 2 libavcodec threads per tile slower still.)
///
/// Damage inside a picture's data is concealed by libavcodec as it is by libde265 (the picture
/// decodes, marred); a NAL unit whose length runs past the data, or data with no picture in it,
/// is refused, and libheif reports it as its own decoding error.
package enum HEVCDecoderPlugin {
    /// The plugin's `id_name`, which `heif_decoding_options.decoder_id` may name.
    package static let idName = "slideshow-libavcodec"
    /// The priority claimed for HEVC: above libde265's 100.
    package static let priority: Int32 = 120

    /// Pictures this plugin has decoded in the process (each grid tile counts once).
    package static let decodedPictures = Atomic<Int>(0)

    /// Whether the plugin claims HEVC; only the test that compares its pictures with
    /// libde265's turns it off (libheif 1.15's `decoder_id` option does not reach grid tiles).
    package static let isEnabled = Atomic<Bool>(true)

    /// The `id_name`s of libheif's HEVC decoders, the one libheif chooses first
    /// (`heif_get_decoder_descriptors`, which sorts them by priority).
    package static var hevcDecoderIDs: [String] {
        HEIFDecoder.start()
        var descriptors = [OpaquePointer?](repeating: nil, count: 8)
        let count = Int(heif_get_decoder_descriptors(heif_compression_HEVC, &descriptors, Int32(descriptors.count)))
        return descriptors.prefix(count).compactMap { $0.flatMap(heif_decoder_descriptor_get_id_name).map { String(cString: $0) } }
    }

    /// Registers the plugin with libheif, once per process, after `heif_init`. libheif keeps a
    /// pointer to the plugin table, which is therefore allocated once and never freed.
    package static let registered: Void = {
        let table = UnsafeMutablePointer<heif_decoder_plugin>.allocate(capacity: 1)
        table.initialize(to: heif_decoder_plugin(
            plugin_api_version: 3,
            get_plugin_name: { HEVCDecoderPlugin.cString("FFmpeg libavcodec HEVC decoder (slideshow)") },
            init_plugin: nil,
            deinit_plugin: nil,
            does_support_format: { format in
                format == heif_compression_HEVC && HEVCDecoderPlugin.isEnabled.load(ordering: .relaxed) ? HEVCDecoderPlugin.priority : 0
            },
            new_decoder: { decoder in
                decoder?.pointee = Unmanaged.passRetained(HEVCPictureDecoder()).toOpaque()
                return HEVCDecoderPlugin.success
            },
            free_decoder: { decoder in
                guard let decoder else { return }
                Unmanaged<HEVCPictureDecoder>.fromOpaque(decoder).release()
            },
            push_data: { decoder, data, size in
                guard let decoder else { return HEVCDecoderPlugin.failure(.init(heif_error_Usage_error, "no decoder")) }
                let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
                return HEVCDecoderPlugin.outcome { () throws(HEVCPluginError) in
                    try Unmanaged<HEVCPictureDecoder>.fromOpaque(decoder).takeUnretainedValue().push(bytes)
                }
            },
            decode_image: { decoder, image in
                guard let decoder, let image else { return HEVCDecoderPlugin.failure(.init(heif_error_Usage_error, "no decoder")) }
                return HEVCDecoderPlugin.outcome { () throws(HEVCPluginError) in
                    image.pointee = try Unmanaged<HEVCPictureDecoder>.fromOpaque(decoder).takeUnretainedValue().decode()
                    HEVCDecoderPlugin.decodedPictures.add(1, ordering: .relaxed)
                }
            },
            // libheif's strict flag turns libde265's colour-description warnings into errors; this
            // plugin sets no such warnings, so the flag changes nothing here.
            set_strict_decoding: { _, _ in },
            id_name: cString(idName)))
        // libheif 1.15 only fails this for a plugin API version it does not know; then libde265
        // stays the decoder (HEVCDecoderPluginTests checks which one libheif chooses).
        _ = heif_register_decoder_plugin(table)
    }()

    private static var success: heif_error {
        heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: cString("Success"))
    }

    private static func outcome(_ body: () throws(HEVCPluginError) -> Void) -> heif_error {
        do throws(HEVCPluginError) {
            try body()
            return success
        } catch {
            return failure(error)
        }
    }

    private static func failure(_ error: HEVCPluginError) -> heif_error {
        heif_error(code: error.code, subcode: error.subcode, message: cString(error.message))
    }

    /// Messages handed to libheif, which reads them after the decoder is freed: each distinct
    /// text is copied once and kept for the process (a handful of FFmpeg messages).
    private static let messages = Mutex<[String: UnsafePointer<CChar>]>([:])

    private static func cString(_ text: String) -> UnsafePointer<CChar> {
        messages.withLock { messages in
            if let kept = messages[text] { return kept }
            let kept = UnsafePointer(strdup(text)!)
            messages[text] = kept
            return kept
        }
    }
}

/// Why the plugin failed, as libheif's error code, subcode and message.
package struct HEVCPluginError: Error {
    package var code: heif_error_code
    package var subcode: heif_suberror_code
    package var message: String

    package init(_ code: heif_error_code, _ message: String, subcode: heif_suberror_code = heif_suberror_Unspecified) {
        self.code = code
        self.subcode = subcode
        self.message = message
    }

    /// A failed libavcodec call: the picture's data is damaged (or the decoder could not start).
    package init(_ error: FFmpegError) {
        self.init(heif_error_Decoder_plugin_error, "HEVC: \(error.call): \(error.message)")
    }
}

/// One coded picture on its way through libavcodec: the NAL units libheif pushed, in Annex B
/// form, until ``decode()`` turns them into a libheif image.
///
/// Owns no C object itself; the decode's libavcodec decoder is an ``HEVCPictureCodec`` made
/// for the length of ``decode()``.
/// libheif holds it (retained) between `new_decoder` and `free_decoder`, on one thread.
package final class HEVCPictureDecoder {
    /// The NAL units so far, each after a 4-byte start code `00 00 00 01`.
    package private(set) var stream: [UInt8] = []

    package init() {}

    /// Appends length-prefixed NAL units (4-byte big-endian lengths) as Annex B.
    /// - Throws: `Decoder_plugin_error`/`End_of_data` when a length runs past the data.
    package func push(_ data: UnsafeRawBufferPointer) throws(HEVCPluginError) {
        do throws(AnnexB.Failure) {
            try AnnexB.append(data, lengthSize: 4, to: &stream)
        } catch .lengthCutOff {
            throw HEVCPluginError(heif_error_Decoder_plugin_error, "HEVC: a NAL unit's length is cut off", subcode: heif_suberror_End_of_data)
        } catch {
            throw HEVCPluginError(heif_error_Decoder_plugin_error, "HEVC: a NAL unit runs past the end of the data",
                                  subcode: heif_suberror_End_of_data)
        }
    }

    /// Decodes the pushed picture with libavcodec and copies it into a new libheif image.
    /// - Returns: the image, which libheif takes over.
    /// - Throws: `Decoder_plugin_error` with FFmpeg's message when the data does not decode;
    ///   `Unsupported_feature` for a pixel format libheif does not store.
    package func decode() throws(HEVCPluginError) -> OpaquePointer {
        guard HEVCPictureCodec.isAvailable else {
            throw HEVCPluginError(heif_error_Unsupported_feature, "HEVC: this FFmpeg has no HEVC decoder", subcode: heif_suberror_Unsupported_codec)
        }
        let noPicture = HEVCPluginError(heif_error_Decoder_plugin_error, "HEVC: no picture in the data")
        guard !stream.isEmpty else { throw noPicture }
        let image: Result<OpaquePointer, HEVCPluginError>?
        do throws(FFmpegError) {
            image = try HEVCPictureCodec().decode(stream) { frame in
                Result { () throws(HEVCPluginError) in try Self.image(of: frame) }
            }
        } catch {
            throw HEVCPluginError(error)
        }
        stream = []
        guard let image else { throw noPicture }
        return try image.get()
    }

    /// A libheif image holding a copy of a decoded frame's planes and its colour description.
    private static func image(of frame: UnsafePointer<AVFrame>) throws(HEVCPluginError) -> OpaquePointer {
        let unsupported = HEVCPluginError(heif_error_Unsupported_feature, "HEVC: pixel format \(frame.pointee.format) is not stored by libheif",
                                          subcode: heif_suberror_Unsupported_color_conversion)
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(frame.pointee.format))?.pointee else { throw unsupported }
        let components = Int(descriptor.nb_components)
        let depth = Int(descriptor.comp.0.depth)
        let refused = UInt64(AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT)
        let depths = [descriptor.comp.0.depth, descriptor.comp.1.depth, descriptor.comp.2.depth].prefix(components)
        guard components == 1 || components == 3, descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 || components == 1,
              descriptor.flags & refused == 0, (8...16).contains(depth), depths.allSatisfy({ Int($0) == depth })
        else { throw unsupported }
        let mono = components == 1
        let chroma: heif_chroma
        switch (mono, descriptor.log2_chroma_w, descriptor.log2_chroma_h) {
        case (true, _, _): chroma = heif_chroma_monochrome
        case (false, 1, 1): chroma = heif_chroma_420
        case (false, 1, 0): chroma = heif_chroma_422
        case (false, 0, 0): chroma = heif_chroma_444
        default: throw unsupported
        }
        let width = frame.pointee.width, height = frame.pointee.height
        guard width > 0, height > 0 else {
            throw HEVCPluginError(heif_error_Decoder_plugin_error, "HEVC: a picture of no pixels", subcode: heif_suberror_Invalid_image_size)
        }
        var created: OpaquePointer?
        let status = heif_image_create(width, height, mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr, chroma, &created)
        guard status.code == heif_error_Ok, let image = created else {
            throw HEVCPluginError(status.code, "HEVC: cannot create the picture (out of memory)", subcode: status.subcode)
        }
        do throws(HEVCPluginError) {
            let channels = mono ? [heif_channel_Y] : [heif_channel_Y, heif_channel_Cb, heif_channel_Cr]
            let data = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
            let lineSizes = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2]
            for (index, channel) in channels.enumerated() {
                // A chroma plane's size rounds up (AV_CEIL_RSHIFT), as libde265's does.
                let planeWidth = index == 0 ? width : -((-width) >> Int32(descriptor.log2_chroma_w))
                let planeHeight = index == 0 ? height : -((-height) >> Int32(descriptor.log2_chroma_h))
                let added = heif_image_add_plane(image, channel, planeWidth, planeHeight, Int32(depth))
                var stride: Int32 = 0
                guard added.code == heif_error_Ok, let to = heif_image_get_plane(image, channel, &stride), let from = data[index] else {
                    throw HEVCPluginError(heif_error_Memory_allocation_error, "HEVC: cannot hold the picture's planes (out of memory)")
                }
                let rowBytes = Int(planeWidth) * (depth > 8 ? 2 : 1)
                for row in 0..<Int(planeHeight) {
                    (to + row * Int(stride)).update(from: from + row * Int(lineSizes[index]), count: rowBytes)
                }
            }
        } catch {
            heif_image_release(image)
            throw error
        }
        // The bitstream's colour description (VUI), H.273 numbers in FFmpeg's enums too; values
        // libheif does not know are left unspecified, as libde265's plugin does when not strict.
        if let nclx = heif_nclx_color_profile_alloc() {
            _ = heif_nclx_color_profile_set_color_primaries(nclx, UInt16(truncatingIfNeeded: frame.pointee.color_primaries.rawValue))
            _ = heif_nclx_color_profile_set_transfer_characteristics(nclx, UInt16(truncatingIfNeeded: frame.pointee.color_trc.rawValue))
            _ = heif_nclx_color_profile_set_matrix_coefficients(nclx, UInt16(truncatingIfNeeded: frame.pointee.colorspace.rawValue))
            nclx.pointee.full_range_flag = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
            _ = heif_image_set_nclx_color_profile(image, nclx)
            heif_nclx_color_profile_free(nclx)
        }
        return image
    }
}
