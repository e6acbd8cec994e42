import SlideshowLooks
import SlideshowPixels
import SlideshowPlan
import SlideshowWriter

/// SDR or HDR video, by the names the command line and manifests use (`--hdr`).
public enum HDRSetting: String, Sendable, Hashable, CaseIterable {
    /// SDR: H.264 (or HEVC Main) in BT.709, the default; gain maps are ignored.
    case off
    /// HDR10: HEVC Main 10, BT.2020, PQ, with mastering-display and content-light-level metadata.
    case pq
    /// HEVC Main 10, BT.2020, HLG.
    case hlg

    /// The writer's transfer, nil for SDR.
    public var transfer: HDRTransfer? {
        switch self {
        case .off: nil
        case .pq: .pq
        case .hlg: .hlg
        }
    }
}

extension Slideshow {
    /// What an HDR show cannot hold yet, each refused with the setting at fault, before anything is read.
    ///
    /// An HDR show's pictures are 16-bit BT.2020 light (``HDRPixelBuffer``), made from each
    /// slide's SDR chain (look, blur fill, caption, title cards at SDR light) and the photo's gain
    /// map, dissolved and faded in linear light, and moved along their motion paths
    /// (``HDRComposer``, ``HDRMovingPhoto``); a played motion photo's video is a clip's, in its
    /// own light (an SDR one at 203 nits). An animated preview (8-bit palettes) cannot be made
    /// in that light, so a show that asks for one is refused rather than made SDR-looking in
    /// HDR clothes.
    /// - Throws: ``OptionError`` on the first such setting.
    func checkHDR() throws(OptionError) {
        guard video.hdr != nil else { return }
        if video.codec != .hevc {
            throw OptionError(field: .hdr, reason: "HDR video is HEVC Main 10: give codec hevc, or leave the codec out", conflicting: .codec)
        }
        func refuse(_ field: SlideshowOptions.Field, _ what: String) throws(OptionError) {
            throw OptionError(field: field, reason: "\(what) is not yet possible in an HDR show (hdr \(video.hdr?.rawValue ?? "")): leave it out, or make the show SDR")
        }
        if let format = AnimatedFormat(outputPath: output) { try refuse(.output, "an animated \(format.rawValue.uppercased()) preview") }
    }
}

extension Slideshow {
    /// What an HDR show cannot do with its HDR clips yet, found once the clips are probed:
    /// nothing now. An HDR clip keeps its own light (``ClipPlayer/hdrPicture(at:)``); a look and
    /// blur fill apply to its SDR base, which its light lifts again (``HDRClipLook``); its date
    /// imprint and caption are laid over in linear light. Kept as the one place such a limit goes.
    /// - Returns: the usage error naming the first such clip, nil when there is none.
    func hdrClipProblem(infos: [PhotoInfo]?) -> OptionError? {
        nil
    }
}
