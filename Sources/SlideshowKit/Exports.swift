// The library's public API is the show (this target) and the public types of the layers below
// it: one `import SlideshowKit` brings them all.
@_exported import SlideshowAudio
@_exported import SlideshowColor
@_exported import SlideshowFFmpeg
@_exported import SlideshowFormats
@_exported import SlideshowFraming
@_exported import SlideshowImages
@_exported import SlideshowLooks
@_exported import SlideshowMetadata
@_exported import SlideshowMix
@_exported import SlideshowPicking
@_exported import SlideshowPixels
@_exported import SlideshowPlan
@_exported import SlideshowSupport
@_exported import SlideshowText
@_exported import SlideshowVideo
@_exported import SlideshowWriter
