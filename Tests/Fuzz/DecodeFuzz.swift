// Fuzz target `decode`: a photo's bytes to a slide, end to end.
//
// ImageManager.image(from:targetSize:contentMode:background:) is requestImage without the
// file system: sniff, parse, limits, TurboJPEG (or libavcodec for PNG) at the chosen DCT scale,
// CMYK conversion, EXIF orientation, letterbox or fill, Lanczos into the slide. The input is
// the file itself (so a crash file is a photo that reproduces with `slideshow make`); its
// length picks the slide's shape and fit, so every layout is reached. Built into the
// SlideshowKit module by Tests/Fuzz/run.sh; never part of the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Small slides keep each run fast; the odd shapes exercise the even-aligned geometry.
    let shapes = [Size(width: 64, height: 36), Size(width: 36, height: 64), Size(width: 2, height: 2), Size(width: 50, height: 50)]
    let target = shapes[size & 3]
    let mode: ContentMode = size & 4 == 0 ? .aspectFit : .aspectFill
    let slide = try? ImageManager().image(from: bytes, targetSize: target, contentMode: mode, background: RGBColor(red: 10, green: 20, blue: 30))
    // An HDR show's gain map of the same photo (a HEIC's tmap or Apple's, an Ultra HDR JPEG's), fitted to the slide.
    if let slide { _ = ImageManager.fittedGainMap(bytes, like: slide, contentMode: mode) }
    return 0
}
