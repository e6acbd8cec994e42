# Set-up and everyday commands. `make demo` renders the samples; `make test` runs the tests;
# `make fuzz` and `make sanitize` look for crashes, leaks and races.
# Both first install the Debian packages the build needs, if any are missing.

SWIFT ?= swift
PACKAGES := pkg-config libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libswresample-dev libavfilter-dev libebur128-dev libturbojpeg0-dev ffmpeg time libopencv-objdetect-dev opencv-data libheif-dev liblcms2-dev libwebp-dev libzimg-dev python3-pil libheif-examples webp \
  libaubio-dev aubio-tools espeak-ng \
  libpango1.0-dev libcairo2-dev fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
  zlib1g-dev tesseract-ocr tesseract-ocr-fra tesseract-ocr-rus tesseract-ocr-ell tesseract-ocr-ara tesseract-ocr-heb tesseract-ocr-jpn tesseract-ocr-hin \
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad libde265-examples libopenh264-7 mediainfo libimage-exiftool-perl chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps demo test settings-doc madmom bench bench-codecs bench-hdr bench-pick bench-clips bench-batch bench-audio release fuzz sanitize bench-slides sheets bench-formats \
  man docs example-app

## deps: install the Debian packages that are missing (FFmpeg's, TurboJPEG's, libheif's, Little CMS's, libwebp's and Pango's headers,
## the Noto fonts; ffmpeg, tesseract with its languages (the captions' OCR tests), GNU time, Pillow (python3-pil, the colour tests' reference), heif-convert and the webp tools for the tests;
## GStreamer with OpenH264 (gst-launch-1.0, openh264dec: the second decoder of the writer's tests; libde265dec, in plugins-bad, the HEVC tests' second decoder; libde265-examples' dec265, the HDR tests' one, as libde265dec decodes 8-bit only); MediaInfo, the second reader of each codec's tags;
## ExifTool (libimage-exiftool-perl), the Ultra HDR tests' independent reader of MPF and gain maps;
## Chromium, which .ci/chromium-seek plays and seeks the VP9 and AV1 outputs in, headless, one launch: ChromiumPlaybackTests)
deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

## release: the tool, and beside it the face detection library it loads when faces are first looked for
release: deps
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection

## demo: render the bundled sample photos into demo.mp4, DEMO_SECONDS long (.ci/run checks it)
DEMO_SECONDS := 6
demo: release
	.build/release/slideshow make Samples/photos/landscape.jpg Samples/photos/portrait-orient6.jpg Samples/photos/square.jpg \
	  --duration $(DEMO_SECONDS) --filter minimal-life --overwrite -o demo.mp4

## test: run the whole test suite
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## settings-doc: write docs/settings.md again from the settings table (Sources/SlideshowKit/Slideshow/Settings.swift);
## the tests compare the committed page with the table
settings-doc:
	SNAPSHOT_UPDATE=1 $(SWIFT) test --filter SettingsTableTests/document

## bench: the speed and memory benchmark (release build)
bench: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench

## fuzz: run each libFuzzer target (AddressSanitizer) for FUZZ_SECONDS seconds (default 60)
FUZZ_SECONDS ?= 60
fuzz: deps
	Tests/Fuzz/run.sh $(FUZZ_SECONDS)

## sanitize: the whole test suite under AddressSanitizer, then ThreadSanitizer
sanitize: deps
	SWIFT=$(SWIFT) Tests/sanitizers.sh

## bench-pick: issue 36's figures only: `make --pick` analysis per 100 photos and peak memory at 100, 500 and 1000 JPEGs,
## 100 HEICs, precision/recall on a labelled set made from the shared photos (release build)
bench-pick: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench --pick

## bench-codecs: each codec's R1 and R3 beside H.264's (issue 34: time, size, SSIM; release build)
bench-codecs: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench --codecs

## bench-hdr: the HDR shows (moving and dissolving) against ffmpeg + libx265 on their own frames (issue 35: ≤ 1.2x, ≤ 300 MB), the HDR show of cuts beside R1 (≤ 3x), an HDR clip against ffmpeg (release build)
bench-hdr: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench --hdr

## bench-batch: the throughput of `slideshow batch` with one and two jobs at once (release build)
bench-batch: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench --batch

## bench-clips: issue 22's clip figures only: a phone clip against ffmpeg decoding, scaling and encoding it, photos around a clip,
## a 60-s 4K HEVC clip's memory, a 10-minute clip trimmed to 3 s, issue 33's 1080i camcorder clip (bwdif, 50 fps) and Motion JPEG AVI
## against ffmpeg (release build; synthetic clips made once into .build/bench-cache)
bench-clips: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench --clips

## madmom: madmom's beat tracker (recurrent networks and a Bayesian network: the strongest of the beat
## benchmark's reference trackers), in a Python of its own in .build/madmom. madmom 0.16.1 needs
## NumPy < 1.24 and its C sources made again by Cython for Python 3.11; librosa and essentia
## (`pip install librosa essentia`) need a newer NumPy, so they stay in the system's python3.
MADMOM := .build/madmom
madmom: $(MADMOM)/bin/python
$(MADMOM)/bin/python:
	rm -rf $(MADMOM) && python3 -m venv $(MADMOM)
	$(MADMOM)/bin/pip install -q "numpy==1.23.5" "Cython<3" "scipy<1.11" mido setuptools wheel
	$(MADMOM)/bin/pip download -q --no-deps --no-binary :all: madmom==0.16.1 -d $(MADMOM)/src
	cd $(MADMOM)/src && tar xzf madmom-0.16.1.tar.gz && find madmom-0.16.1/madmom -name '*.c' -delete
	cd $(MADMOM)/src/madmom-0.16.1 && ../../bin/pip install -q --no-build-isolation .

## bench-audio: only the soundtrack's figures (R1 with a 3-minute MP3, a 60-minute show with a 60-minute FLAC, against ffmpeg's CLI and moviepy)
bench-audio: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench --audio

## bench-slides: the per-slide cost of each look, the blur fill and the date imprint (release build)
bench-slides: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench --slides

## sheets: the README's contact sheets (every look, blur fill, fades and Ken Burns motion) rendered from the sample photos, and phone formats from ../shared/media
sheets: release
	Samples/make-sheets.sh .build/release/slideshow

## bench-formats: issue 11's figures only: HEIC decode against heif-convert, the colour transform, HEIC against JPEG renders (release build)
bench-formats: deps
	$(SWIFT) build -c release --product slideshow-bench
	$(SWIFT) build -c release --product slideshow
	$(SWIFT) build -c release --product SlideshowFaceDetection
	.build/release/slideshow-bench --formats

## man: docs/slideshow.1, the manual page, made from the parser by swift-argument-parser's generate-manual
## plugin (it builds the package's products in MAN_CONFIGURATION, debug by default as `make test` does, runs
## `slideshow --experimental-dump-help` and writes the page into the plugin's folder, whence it is copied).
## The page is dated by the last commit that touched the tool's sources, so it changes only when they do.
MAN_CONFIGURATION ?= debug
MAN_DATE = $(shell git log -1 --format=%cs -- Sources/slideshow 2>/dev/null || date +%F)
man: deps
	$(SWIFT) package plugin generate-manual --configuration $(MAN_CONFIGURATION) --date $(MAN_DATE)
	cp "$$(find .build/plugins/GenerateManual -name slideshow.1 | head -n 1)" docs/slideshow.1
	@echo "wrote docs/slideshow.1 (man docs/slideshow.1)"

## docs: the DocC documentation of SlideshowKit (Sources/SlideshowKit/SlideshowKit.docc and the doc comments)
## through swift-docc-plugin into .build/plugins/Swift-DocC/outputs/SlideshowKit.doccarchive; a warning (a ``link``
## to a symbol that is not public, an undocumented parameter) fails it (DOCC_FLAGS= lets warnings through)
DOCC_FLAGS ?= --warnings-as-errors
docs: deps
	$(SWIFT) package generate-documentation --target SlideshowKit $(DOCC_FLAGS)

## example-app: Samples/App, a separate package that depends on this one by path, built in .build-example-app
example-app: deps
	$(SWIFT) build --package-path Samples/App --scratch-path "$(CURDIR)/.build-example-app"
