#!/usr/bin/env bash
# Fuzzes the parsers and decoders that read untrusted bytes, with libFuzzer and AddressSanitizer.
#
#   Tests/Fuzz/run.sh [seconds-per-target] [target ...]      # default: 60 s, every target
#   make fuzz                                                # FUZZ_SECONDS=300 make fuzz
#
# Each target is one Swift file in this folder defining `LLVMFuzzerTestOneInput`. It is compiled
# together with the library's targets (Sources/Slideshow*) into one module (so it can call internal API), with
# `swiftc -sanitize=fuzzer,address`, into .build-fuzz/<target>; it is rebuilt only when a source
# is newer. Each run starts from a seed corpus built in a temporary folder (the project's sample
# photos, small synthetic photos made with ffmpeg, and, when ../shared/photos exists, its small
# files and the first 64 KiB of its big ones) plus the corpus kept from earlier runs in
# .build-fuzz/corpus/<target>. Every target runs for a bounded time; a crash, a leak, a unit
# slower than 10 s or one over 2 GB stops it, and the input is saved in
# .build-fuzz/artifacts/<target>/. The script prints executions and crashes per target and exits 1
# when any target found something.
#
# Reproduce a finding: .build-fuzz/<target> <artifact>. Every finding becomes a regression test in
# the normal suite (see docs/testing.md, "Bad input and faults").
set -euo pipefail
cd "$(dirname "$0")/../.."

# One line per target: name, source file, longest input (bytes), seeds ("photos" or a folder).
# Tests/Fuzz/<name>.dict, when it exists, is the target's dictionary.
TARGETS=(
    "header   Tests/Fuzz/HeaderFuzz.swift  65536   photos"
    "decode   Tests/Fuzz/DecodeFuzz.swift  300000  photos"
    "manifest Tests/Fuzz/ManifestFuzz.swift 65536 Tests/Fuzz/seeds/manifest"
)

SECONDS_PER_TARGET="${1:-${FUZZ_SECONDS:-60}}"
shift || true
WANTED=("$@")
BUILD=.build-fuzz
SWIFTC="${SWIFTC:-swiftc}"
mkdir -p "$BUILD"

SYMBOLIZER="$(dirname "$(command -v "$SWIFTC")")/llvm-symbolizer"
[ -x "$SYMBOLIZER" ] && export ASAN_SYMBOLIZER_PATH="$SYMBOLIZER"

# build <name> <file>: the fuzzer binary, rebuilt when a library source or the target is newer.
build() {
    local name="$1" file="$2" binary="$BUILD/$1"
    local sources
    sources=$(find Sources/Slideshow* Sources/C* -type f | sort)
    if [ -x "$binary" ] && [ -z "$(find $sources "$file" -newer "$binary" | head -1)" ]; then
        return
    fi
    echo "building $name ($file)"
    # The binary takes the time the build started: a source edited meanwhile is newer than it.
    touch "$binary.started"
    # Every system-library module (a folder of Sources with a module map) by -I; the C++ face
    # detector (a plain target) built as the library of its own the fuzzers load from their
    # folder at the first face looked for, as the tool does (SlideshowFraming/FaceDetectionLibrary.swift).
    local includes=() module
    for module in Sources/C*/module.modulemap; do includes+=(-I "$(dirname "$module")"); done
    clang++ -shared -O1 -fPIC -I/usr/include/opencv4 -I Sources/CFaceDetection/include Sources/CFaceDetection/face_detection.cpp \
        -lopencv_objdetect -lopencv_imgproc -lopencv_core -o "$BUILD/libSlideshowFaceDetection.so"
    # The system libraries whose headers live in folders of their own (Pango, Cairo, GLib, aubio).
    local cflags=() flag
    for flag in $(pkg-config --cflags pangocairo aubio); do cflags+=(-Xcc "$flag"); done
    # The layers are targets of their own in the package; here they are one module, so their
    # imports of each other go (a copy of each file without them).
    rm -rf "$BUILD/src" && mkdir -p "$BUILD/src"
    local copied=() source
    for source in $(echo "$sources" | grep '\.swift$'); do
        copied+=("$BUILD/src/$(echo "$source" | tr / _)")
        sed -E '/^(@_exported |package |internal )?import Slideshow[A-Za-z]+$/d' "$source" > "${copied[-1]}"
    done
    # shellcheck disable=SC2086
    "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name SlideshowKit -package-name slideshow \
        "${includes[@]}" "${cflags[@]}" -Xcc -I/usr/include/x86_64-linux-gnu -use-ld=lld \
        "${copied[@]}" "$file" \
        -lavformat -lavcodec -lswscale -lswresample -lavutil -lturbojpeg -lheif -lwebpdemux -lwebpmux -lwebp -llcms2 -lzimg -lebur128 \
        -lstdc++ $(pkg-config --libs pangocairo aubio zlib) -o "$binary"
    touch -r "$binary.started" "$binary"
    rm -f "$binary.started"
}

# photo_seeds <folder>: the photo seed corpus.
photo_seeds() {
    local seeds="$1"
    cp Samples/photos/*.jpg "$seeds/"
    # Hostile photos kept in the repository (issue 21), each refused before anything large is
    # allocated: self-grid.heic (the shared iPhone XR HEIC's boxes, its grid listing itself as
    # its first tile, no picture data), lying-ispe.heic and lying-ispe.avif (heif-enc of a
    # 256x256 picture, ispe rewritten to 16x16), lying-vp8.webp (cwebp of the same picture,
    # its VP8 header saying 16383x16383), lying-ihdr.png (a 16x16 picture under an IHDR of
    # 11000x11000). Issue 31's, made with Python's zlib and struct: motion photos whose numbers
    # overflow (motion-offset-min.jpg: XMP MicroVideoOffset -2^63; motion-box-max.heic and
    # motion-mpvd-max.heic: a 64-bit box size of 2^63-1 before or as mpvd; motion-mpvd-cut.heic:
    # an mpvd box cut short), and PNG text bombs (ztxt-bomb.png: a zTXt chunk of 8 KB that
    # inflates to 8 MB; iccp-bomb.png: a profile of 17 MB, over the 16 MiB cap; xmp-chunks.png:
    # 64 compressed XMP iTXt chunks).
    cp Tests/Fuzz/seeds/photos/* "$seeds/"
    # Ultra HDR JPEGs (libavif's test data): MPF, hdrgm XMP, a gain map JPEG after the primary.
    cp Tests/SlideshowTests/UltraHDR/*.jpg "$seeds/"
    if command -v ffmpeg >/dev/null; then
        local make=(ffmpeg -v error -y -f lavfi -i "testsrc2=s=40x24:d=1" -frames:v 1)
        "${make[@]}" -pix_fmt yuvj420p "$seeds/s420.jpg"
        "${make[@]}" -pix_fmt yuvj444p "$seeds/s444.jpg"
        "${make[@]}" -pix_fmt yuvj422p "$seeds/s422.jpg"
        "${make[@]}" -pix_fmt gray "$seeds/grey.jpg"
        "${make[@]}" -pix_fmt rgb24 "$seeds/rgb.png"
        "${make[@]}" -pix_fmt rgba "$seeds/rgba.png"
        "${make[@]}" -pix_fmt rgb48be "$seeds/rgb48.png"
        "${make[@]}" -pix_fmt pal8 "$seeds/pal8.png"
        "${make[@]}" -pix_fmt gray "$seeds/grey.png"
        "${make[@]}" -pix_fmt ya8 "$seeds/greyalpha.png"
        # The 4:2:0 JPEG again, with an EXIF APP1 after SOI: orientation 6 (II) and 3 (MM).
        { printf '\377\330\377\341\000\042Exif\000\000II*\000\010\000\000\000\001\000\022\001\003\000\001\000\000\000\006\000\000\000\000\000\000\000'
          tail -c +3 "$seeds/s420.jpg"; } > "$seeds/exif6-ii.jpg"
        { printf '\377\330\377\341\000\042Exif\000\000MM\000*\000\000\000\010\000\001\001\022\000\003\000\000\000\001\000\003\000\000\000\000\000\000'
          tail -c +3 "$seeds/s420.jpg"; } > "$seeds/exif3-mm.jpg"
    fi
    # A small HEIC (one HEVC picture, which the slide path decodes without libheif), when
    # libheif's encoder tool is installed.
    if command -v heif-enc >/dev/null && [ -f "$seeds/rgb.png" ]; then
        heif-enc -q 50 "$seeds/rgb.png" -o "$seeds/small.heic" >/dev/null 2>&1 || true
    fi
    local shared=../shared/photos
    if [ -d "$shared" ]; then
        for photo in "$shared"/*.jpg "$shared"/*.png; do
            [ -f "$photo" ] || continue
            if [ "$(stat -c %s "$photo")" -le 65536 ]; then
                cp "$photo" "$seeds/shared-$(basename "$photo")"
            else
                head -c 65536 "$photo" > "$seeds/shared-head-$(basename "$photo")"
            fi
        done
    fi
}

# selected: the lines of the targets asked for (all when none was named).
selected=()
for line in "${TARGETS[@]}"; do
    read -r name _ <<< "$line"
    if [ ${#WANTED[@]} -eq 0 ] || printf '%s\n' "${WANTED[@]}" | grep -qx "$name"; then selected+=("$line"); fi
done
[ ${#selected[@]} -gt 0 ] || { echo "no such target: ${WANTED[*]}" >&2; exit 64; }
for line in "${selected[@]}"; do
    read -r name file _ <<< "$line"
    build "$name" "$file"
done

SEEDS=$(mktemp -d)
trap 'rm -rf "$SEEDS"' EXIT
mkdir -p "$SEEDS/photos"
photo_seeds "$SEEDS/photos"

printf '\n%-10s %12s %8s %10s %8s %8s  %s\n' target executions seconds "exec/s" corpus crashes result
failed=0
for line in "${selected[@]}"; do
    read -r name file max_len seeds <<< "$line"
    [ "$seeds" = photos ] && seeds="$SEEDS/photos"
    corpus="$BUILD/corpus/$name"
    artifacts="$BUILD/artifacts/$name"
    mkdir -p "$corpus" "$artifacts"
    dictionary=()
    [ -f "Tests/Fuzz/$name.dict" ] && dictionary=("-dict=Tests/Fuzz/$name.dict")
    log="$BUILD/$name.log"
    before=$(ls "$artifacts" | wc -l)
    started=$(date +%s)
    status=0
    "$BUILD/$name" "$corpus" "$seeds" "${dictionary[@]}" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
        -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$artifacts/" \
        > "$log" 2>&1 || status=$?
    elapsed=$(( $(date +%s) - started ))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    found=$(( $(ls "$artifacts" | wc -l) - before ))
    result=ok
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        result="FOUND (see $log)"
        failed=1
    fi
    printf '%-10s %12s %8s %10s %8s %8s  %s\n' "$name" "${executions:-?}" "$elapsed" "${speed:-?}" \
        "$(ls "$corpus" | wc -l)" "$found" "$result"
    if [ "$result" != ok ]; then
        grep -E '^(==[0-9]+==ERROR|SUMMARY|ALARM|Fatal error|.*Test unit written)' "$log" | head -5 | sed 's/^/    /'
    fi
done
exit "$failed"
