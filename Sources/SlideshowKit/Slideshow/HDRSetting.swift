import SlideshowPixels
import SlideshowLooks
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
    /// An HDR show's pictures are 16-bit BT.2020 light (``HDRPixelBuffer``); the compositor,
    /// the looks, the text and the clips' path work on 8-bit sRGB, so a show that needs them is
    /// refused rather than made SDR-looking in HDR clothes.
    /// - Throws: ``OptionError`` on the first such setting.
    func checkHDR() throws(OptionError) {
        guard video.hdr != nil else { return }
        if video.codec != .hevc {
            throw OptionError(field: .hdr, reason: "HDR video is HEVC Main 10: give codec hevc, or leave the codec out", conflicting: .codec)
        }
        func refuse(_ field: SlideshowOptions.Field, _ what: String) throws(OptionError) {
            throw OptionError(field: field, reason: "\(what) is not yet possible in an HDR show: leave it out, or make the show SDR", conflicting: .hdr)
        }
        if let format = AnimatedFormat(outputPath: output) { try refuse(.output, "an animated \(format.rawValue.uppercased()) preview") }
        if transition != .none || photoSettings.contains(where: { ($0.transition ?? .none) != .none }) { try refuse(.transition, "a transition") }
        if fadeIn > 0 { try refuse(.fadeIn, "a fade in") }
        if fadeOut > 0 { try refuse(.fadeOut, "a fade out") }
        if motion != .none || photoSettings.contains(where: { ($0.motion ?? .none) != .none }) { try refuse(.motion, "motion") }
        if look.name != Looks.original.name { try refuse(.filter, "a look") }
        if backdrop == .blur { try refuse(.fit, "blur fill") }
        if dateImprint != nil { try refuse(.dateStamp, "the date stamp") }
        if text.burnIn && text.mayDrawText { try refuse(.captions, "a burnt-in caption") }
        if text.openingCard != nil || text.closingCard != nil { try refuse(.titleCard, "a title card") }
        if motionPhotos == .play { try refuse(.motionPhotos, "playing motion photos") }
    }
}
