import Testing
@testable import SlideshowKit
import SlideshowFraming
import SlideshowPixels

/// One hand-computed layout.
struct LayoutCase: Sendable, CustomTestStringConvertible {
    var source: Size
    var target: Size
    var mode: ContentMode
    var content: Rect
    var crop: Rect
    var fitted: Size

    var testDescription: String { "\(source) into \(target) \(mode)" }
}

@Suite("Fit geometry")
struct FitGeometryTests {
    static let handComputed: [LayoutCase] = [
        // 3:2 into 3:2: fills exactly.
        LayoutCase(source: Size(width: 1800, height: 1200), target: Size(width: 180, height: 120), mode: .aspectFit,
                   content: Rect(x: 0, y: 0, width: 180, height: 120), crop: Rect(x: 0, y: 0, width: 1800, height: 1200),
                   fitted: Size(width: 180, height: 120)),
        // 3:2 into 16:9: 270 wide; (320 − 270) / 2 = 25 rounds down to 24, so the right bar is 26.
        LayoutCase(source: Size(width: 1800, height: 1200), target: Size(width: 320, height: 180), mode: .aspectFit,
                   content: Rect(x: 24, y: 0, width: 270, height: 180), crop: Rect(x: 0, y: 0, width: 1800, height: 1200),
                   fitted: Size(width: 270, height: 180)),
        // Nikon D90: 4288·1080/2848 = 1626.07 → 1626; (1920 − 1626) / 2 = 147 → 146.
        LayoutCase(source: Size(width: 4288, height: 2848), target: .hd1080, mode: .aspectFit,
                   content: Rect(x: 146, y: 0, width: 1626, height: 1080), crop: Rect(x: 0, y: 0, width: 4288, height: 2848),
                   fitted: Size(width: 1626, height: 1080)),
        // iPhone portrait (displayed 2448x3264): 810 wide; (1920 − 810) / 2 = 555 → 554.
        LayoutCase(source: Size(width: 2448, height: 3264), target: .hd1080, mode: .aspectFit,
                   content: Rect(x: 554, y: 0, width: 810, height: 1080), crop: Rect(x: 0, y: 0, width: 2448, height: 3264),
                   fitted: Size(width: 810, height: 1080)),
        // Panorama: 771·1920/6000 = 246.72 → 246 (nearest even); (1080 − 246) / 2 = 417 → 416.
        LayoutCase(source: Size(width: 6000, height: 771), target: .hd1080, mode: .aspectFit,
                   content: Rect(x: 0, y: 416, width: 1920, height: 246), crop: Rect(x: 0, y: 0, width: 6000, height: 771),
                   fitted: Size(width: 1920, height: 246)),
        // 1x2 (the tiny orientation-8 JPEG displayed): 54x108; (192 − 54) / 2 = 69 → 68.
        LayoutCase(source: Size(width: 1, height: 2), target: Size(width: 192, height: 108), mode: .aspectFit,
                   content: Rect(x: 68, y: 0, width: 54, height: 108), crop: Rect(x: 0, y: 0, width: 1, height: 2),
                   fitted: Size(width: 54, height: 108)),
        // An absurd strip keeps 2 pixels: (108 − 2) / 2 = 53 → 52.
        LayoutCase(source: Size(width: 10000, height: 1), target: Size(width: 192, height: 108), mode: .aspectFit,
                   content: Rect(x: 0, y: 52, width: 192, height: 2), crop: Rect(x: 0, y: 0, width: 10000, height: 1),
                   fitted: Size(width: 192, height: 2)),
        // An odd frame: content uses the even box 1920x1080.
        LayoutCase(source: Size(width: 1600, height: 900), target: Size(width: 1921, height: 1081), mode: .aspectFit,
                   content: Rect(x: 0, y: 0, width: 1920, height: 1080), crop: Rect(x: 0, y: 0, width: 1600, height: 900),
                   fitted: Size(width: 1920, height: 1080)),
        // A small square enlarges: 1080x1080 at (1920 − 1080) / 2 = 420.
        LayoutCase(source: Size(width: 100, height: 100), target: .hd1080, mode: .aspectFit,
                   content: Rect(x: 420, y: 0, width: 1080, height: 1080), crop: Rect(x: 0, y: 0, width: 100, height: 100),
                   fitted: Size(width: 1080, height: 1080)),
        // Fill, Nikon: keep the width; 4288·1080/1920 = 2412 high, (2848 − 2412) / 2 = 218 down;
        // the whole photo at that scale is 1920 x ⌈2848·1080/2412⌉ = 1276.
        LayoutCase(source: Size(width: 4288, height: 2848), target: .hd1080, mode: .aspectFill,
                   content: Rect(x: 0, y: 0, width: 1920, height: 1080), crop: Rect(x: 0, y: 218, width: 4288, height: 2412),
                   fitted: Size(width: 1920, height: 1276)),
        // Fill, iPhone portrait: 2448·1080/1920 = 1377 high at (3264 − 1377) / 2 = 943; 3264·1080/1377 = 2560.
        LayoutCase(source: Size(width: 2448, height: 3264), target: .hd1080, mode: .aspectFill,
                   content: Rect(x: 0, y: 0, width: 1920, height: 1080), crop: Rect(x: 0, y: 943, width: 2448, height: 1377),
                   fitted: Size(width: 1920, height: 2560)),
        // Fill, panorama: keep the height; 771·1920/1080 = 1370.67 → 1371 wide at (6000 − 1371) / 2 = 2314;
        // ⌈6000·1920/1371⌉ = 8403.
        LayoutCase(source: Size(width: 6000, height: 771), target: .hd1080, mode: .aspectFill,
                   content: Rect(x: 0, y: 0, width: 1920, height: 1080), crop: Rect(x: 2314, y: 0, width: 1371, height: 771),
                   fitted: Size(width: 8403, height: 1080)),
    ]

    @Test("hand-computed layouts", arguments: handComputed)
    func handComputedLayouts(_ example: LayoutCase) {
        let geometry = FitGeometry(source: example.source, target: example.target, mode: example.mode)
        #expect(geometry.content == example.content)
        #expect(geometry.crop == example.crop)
        #expect(geometry.fittedSize == example.fitted)
    }

    static let sides = [1, 2, 3, 7, 64, 100, 149, 227, 771, 1080, 1200, 1976, 2448, 3264, 4288, 6000, 20000]
    static let targets = [Size(width: 2, height: 2), Size(width: 3, height: 5), Size(width: 192, height: 108),
                          Size(width: 180, height: 120), Size(width: 641, height: 479), Size(width: 1080, height: 1920),
                          Size(width: 1920, height: 1080), Size(width: 1921, height: 1081), Size(width: 3840, height: 2160)]

    @Test("aspectFit properties over a sweep", arguments: targets)
    func fitProperties(_ target: Size) {
        let boxW = target.width & ~1, boxH = target.height & ~1
        for sw in Self.sides {
            for sh in Self.sides {
                let g = FitGeometry(source: Size(width: sw, height: sh), target: target, mode: .aspectFit)
                let c = g.content
                let label = "\(sw)x\(sh) into \(target): \(c)"
                // Even sizes and offsets, at least 2x2, inside the frame.
                #expect(c.width % 2 == 0 && c.height % 2 == 0 && c.x % 2 == 0 && c.y % 2 == 0, "\(label)")
                #expect(c.width >= 2 && c.height >= 2, "\(label)")
                #expect(c.x >= 0 && c.y >= 0 && c.maxX <= target.width && c.maxY <= target.height, "\(label)")
                // Touches the even box on one side.
                #expect(c.width == boxW || c.height == boxH, "\(label)")
                // Centred: the right/bottom bar is the left/top one plus 0 to 3 pixels.
                let extraX = (target.width - c.maxX) - c.x, extraY = (target.height - c.maxY) - c.y
                #expect((0...3).contains(extraX) && (0...3).contains(extraY), "\(label)")
                // Aspect kept: the free side is within 1 pixel of exact (rounding to even),
                // unless the 2-pixel minimum or the box clamps it.
                if c.width == boxW {
                    let exact = Double(sh) * Double(c.width) / Double(sw)
                    if exact >= 2 && exact <= Double(boxH) { #expect(abs(Double(c.height) - exact) <= 1, "\(label)") }
                } else {
                    let exact = Double(sw) * Double(c.height) / Double(sh)
                    if exact >= 2 && exact <= Double(boxW) { #expect(abs(Double(c.width) - exact) <= 1, "\(label)") }
                }
                #expect(g.crop == Rect(x: 0, y: 0, width: sw, height: sh), "\(label)")
                #expect(g.fittedSize == Size(width: c.width, height: c.height), "\(label)")
            }
        }
    }

    static let evenTargets = targets.filter { $0.width % 2 == 0 && $0.height % 2 == 0 }

    @Test("aspectFill properties over a sweep", arguments: evenTargets)
    func fillProperties(_ target: Size) {
        for sw in Self.sides {
            for sh in Self.sides {
                let g = FitGeometry(source: Size(width: sw, height: sh), target: target, mode: .aspectFill)
                let crop = g.crop
                let label = "\(sw)x\(sh) into \(target): crop \(crop), fitted \(g.fittedSize)"
                #expect(g.content == Rect(target), "\(label)")
                // The crop lies inside the source, spans it on one side, and is centred.
                #expect(crop.x >= 0 && crop.y >= 0 && crop.maxX <= sw && crop.maxY <= sh && crop.width >= 1 && crop.height >= 1, "\(label)")
                #expect(crop.width == sw || crop.height == sh, "\(label)")
                #expect((0...1).contains((sw - crop.maxX) - crop.x) && (0...1).contains((sh - crop.maxY) - crop.y), "\(label)")
                // The crop has the frame's aspect, to within half a pixel of rounding (unless
                // the 1-pixel minimum clamps it). A source wider than the frame keeps its height.
                if sw * target.height > sh * target.width {
                    #expect(crop.height == sh, "\(label)")
                    let exact = Double(sh) * Double(target.width) / Double(target.height)
                    if exact >= 1 { #expect(abs(Double(crop.width) - exact) <= 0.5, "\(label)") }
                } else {
                    #expect(crop.width == sw, "\(label)")
                    let exact = Double(sw) * Double(target.height) / Double(target.width)
                    if exact >= 1 { #expect(abs(Double(crop.height) - exact) <= 0.5, "\(label)") }
                }
                // Fill covers: the whole source at this scale is at least the frame.
                #expect(g.fittedSize.width >= target.width && g.fittedSize.height >= target.height, "\(label)")
            }
        }
    }

    @Test("the crop of a DCT-scaled buffer is recomputed centred with the frame's aspect")
    func centreCropOfScaledBuffer() {
        // 4288x2848 decoded at 1/2 is 2144x1424; for 1920x1080: 2144·1080/1920 = 1206 high at 109.
        #expect(FitGeometry.centreCrop(of: Size(width: 2144, height: 1424), aspect: .hd1080)
                == Rect(x: 0, y: 109, width: 2144, height: 1206))
        // Same aspect: everything.
        #expect(FitGeometry.centreCrop(of: Size(width: 1600, height: 900), aspect: .hd1080)
                == Rect(x: 0, y: 0, width: 1600, height: 900))
    }
}
