/// A width and a height in pixels.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Full HD, the default output size.
    public static let hd1080 = Size(width: 1920, height: 1080)

    /// `WxH`, the form the command line takes.
    public var description: String { "\(width)x\(height)" }

    /// Parses `WxH` (for example `1920x1080`); nil when it is not of that form.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }
}

/// A rectangle of whole pixels, origin at the top left.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of a canvas of the given size.
    public init(_ size: Size) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// One past the right edge.
    public var maxX: Int { x + width }
    /// One past the bottom edge.
    public var maxY: Int { y + height }

    /// Whether the pixel at (px, py) lies inside.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// An 8-bit sRGB colour.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0 to 255.
    public var red: UInt8
    /// Green, 0 to 255.
    public var green: UInt8
    /// Blue, 0 to 255.
    public var blue: UInt8

    /// Creates a colour from its three channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Black, the default letterbox colour.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// Parses `#RRGGBB` (the `#` is optional); nil when it is not of that form.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            return nil
        }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `#RRGGBB`.
    public var description: String {
        let hex = (Int(red) << 16) | (Int(green) << 8) | Int(blue)
        let digits = String(hex, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}

/// An image of interleaved 8-bit RGB pixels: full-range, gamma-encoded sRGB, rows top to bottom.
///
/// A slide is one of these at exactly the output size: the photo fills ``contentRect`` and
/// the rest is background. It is a value (copy-on-write), so it crosses tasks freely.
public struct PixelBuffer: Sendable, Equatable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The part of the buffer the photo covers; outside it lies the background.
    public var contentRect: Rect
    /// `width * height * 3` bytes, R G B for each pixel, row after row with no padding.
    ///
    /// Read-only: the count always matches the size, so code that reads `width * height * 3`
    /// bytes (the resampler, the colour converter) never reads past the end. Change pixels
    /// through the subscript or ``withUnsafeMutableBufferPointer(_:)``, which cannot resize.
    public var pixels: [UInt8] { storage }

    /// The pixels; always `width * height * 3` bytes.
    private var storage: [UInt8]

    /// Bytes from one row to the next.
    public var bytesPerRow: Int { width * 3 }

    /// The size of the buffer.
    public var size: Size { Size(width: width, height: height) }

    /// A buffer filled with one colour, whose content rectangle is the whole buffer.
    public init(size: Size, filledWith color: RGBColor = .black) {
        precondition(size.width > 0 && size.height > 0, "a pixel buffer needs a positive size")
        width = size.width
        height = size.height
        contentRect = Rect(size)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        if color != .black {
            for offset in stride(from: 0, to: pixels.count, by: 3) {
                pixels[offset] = color.red
                pixels[offset + 1] = color.green
                pixels[offset + 2] = color.blue
            }
        }
        storage = pixels
    }

    /// A buffer over existing pixels.
    /// - Precondition: `pixels.count == size.width * size.height * 3`.
    public init(size: Size, pixels: [UInt8], contentRect: Rect? = nil) {
        precondition(pixels.count == size.width * size.height * 3, "pixel count does not match the size")
        width = size.width
        height = size.height
        storage = pixels
        self.contentRect = contentRect ?? Rect(size)
    }

    /// The colour of the pixel at (x, y).
    public subscript(x: Int, y: Int) -> RGBColor {
        get {
            let offset = (y * width + x) * 3
            return RGBColor(red: storage[offset], green: storage[offset + 1], blue: storage[offset + 2])
        }
        set {
            let offset = (y * width + x) * 3
            storage[offset] = newValue.red
            storage[offset + 1] = newValue.green
            storage[offset + 2] = newValue.blue
        }
    }

    /// Calls `body` with the pixels' bytes (`width * height * 3`), valid only inside the call.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        let outcome = storage.withUnsafeBytes { raw in Swift.Result { () throws(Failure) -> Result in try body(raw) } }
        return try outcome.get()
    }

    /// Calls `body` with the pixels to change in place (`width * height * 3` bytes, which it
    /// cannot resize), valid only inside the call.
    public mutating func withUnsafeMutableBufferPointer<Result>(
        _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result) -> Result {
        storage.withUnsafeMutableBufferPointer { pixels in body(pixels) }
    }
}
