#!/usr/bin/env bash
# Renders the README's contact sheets from the sample photos with the tool itself, then tiles
# one frame of each photo with ffmpeg's tile filter (run by `make sheets`):
#   Samples/sheets/looks.png      a row per look (original, minimal-life, tumble-down, sepia,
#                                 vignette, sepia,vignette), a column per sample photo
#   Samples/sheets/blur-fill.png  the sample photos with --fit blur, and with --fit blur --filter minimal-life
#   Samples/sheets/motion.png     every 9th frame of a 4.5 s show: fades (with a fade in and out at
#                                 the ends) above, a Ken Burns zoom-in with fades below
#   Samples/sheets/phone.png      phone formats from ../shared/media (when it is beside the project):
#                                 an iPhone HEIC portrait (irot 270, EXIF 6), a Samsung HEIC (EXIF 6,
#                                 no irot), a WebP with EXIF 6, a Display P3 JPEG
#   Samples/sheets/captions.png   a caption per photo in ten scripts (Latin with diacritics, Greek,
#                                 Cyrillic, Arabic, Hebrew, Japanese, Devanagari, Korean, colour
#                                 emoji, mixed Latin and Hebrew) over the sample photos and, when
#                                 ../shared is beside the project, camera photos from ../shared/photos
#   Samples/sheets/clips.png      clips among the photos from ../shared/clips (when beside the project):
#                                 an iPhone portrait clip, an HDR HLG clip tone-mapped, a Samsung motion
#                                 photo playing its video, with fades and blur fill; every 15th frame
#   Samples/sheets/hdr.jpg        the shared iPhone gain-map HEIC in SDR and with --hdr pq (tone-mapped for the page)
#   Samples/sheets/sharing.png    one show for three screens (--for youtube, reels, square) with a title
#                                 card and captions; the Reels safe area drawn on the portrait row
# Usage: Samples/make-sheets.sh [path/to/slideshow]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tool="${1:-$here/../.build/release/slideshow}"
photos=("$here/photos/landscape.jpg" "$here/photos/portrait-orient6.jpg" "$here/photos/square.jpg")
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$here/sheets"

# One row: the photos, one second each at 1 fps, so that frame i is photo i.
row() {  # row <name> <options…>
  local name="$1"; shift
  "$tool" make "${photos[@]}" --size 320x180 --fps 1 --duration 3 --quiet --overwrite "$@" -o "$scratch/$name.mp4"
  ffmpeg -v error -y -i "$scratch/$name.mp4" -vf "tile=3x1:padding=4:color=white" -frames:v 1 "$scratch/$name.png"
}
sheet() {  # sheet <output.png> <row names…>
  local output="$1"; shift
  local inputs=() labels=""
  for name in "$@"; do inputs+=(-i "$scratch/$name.png"); done
  ffmpeg -v error -y "${inputs[@]}" -filter_complex "vstack=inputs=$#,pad=iw+8:ih+8:4:4:white" -frames:v 1 "$output"
}

looks=(original minimal-life tumble-down sepia vignette "sepia,vignette")
for look in "${looks[@]}"; do row "look-${look/,/+}" --filter "$look"; done
sheet "$here/sheets/looks.png" $(for look in "${looks[@]}"; do echo "look-${look/,/+}"; done)

row blur --fit blur
row blur-minimal-life --fit blur --filter minimal-life
sheet "$here/sheets/blur-fill.png" blur blur-minimal-life
# Motion: every 9th frame of a fade show and of a zoom-in show.
show=("${photos[@]}" --duration 4.5 --size 320x180 --overwrite --quiet)
"$tool" make "${show[@]}" --transition fade --transition-duration 0.6 --fade-in 0.5 --fade-out 0.5 -o "$scratch/fade.mp4"
"$tool" make "${show[@]}" --motion zoom-in --zoom 0.3 --fit fill --transition fade --transition-duration 0.6 -o "$scratch/zoom.mp4"
ffmpeg -v error -y -i "$scratch/fade.mp4" -i "$scratch/zoom.mp4" -filter_complex \
  "[0]select='not(mod(n,9))',scale=160:90,tile=5x3:padding=2:margin=2[a];[1]select='not(mod(n,9))',scale=160:90,tile=5x3:padding=2:margin=2[b];[a][b]vstack" \
  -frames:v 1 "$here/sheets/motion.png"

# Phone formats, from the shared media (never copied into the project): one frame each.
media="$here/../../shared/media"
phone=(heic_iphone8plus_grid_irot270_exif6_arrow.heic heic_samsung_s24fe_grid_exif6_no_irot.heic
       webp_lossy_exif_orient6_iphonex.webp jpeg_display_p3_nikon_d3s.jpg)
if [ -d "$media" ]; then
  "$tool" make "${phone[@]/#/$media/}" --size 320x180 --fps 1 --duration 4 --quiet --overwrite -o "$scratch/phone.mp4"
  ffmpeg -v error -y -i "$scratch/phone.mp4" -vf "tile=4x1:padding=4:color=white,pad=iw+8:ih+8:4:4:white" -frames:v 1 "$here/sheets/phone.png"
else
  echo "phone.png: left as it is (../shared/media is not beside the project)"
fi

# Captions in several scripts: one caption per photo, one frame each, 5 by 2.
captions=("Café à Montréal — été 2024" "Κρήτη, Ελλάδα" "Прогулка по Москве" "مرحبا بالعالم" "שלום עולם"
          "東京の夜景" "नमस्ते दुनिया" "서울의 봄" "🎉🌍" "Tel Aviv תל אביב 2024")
pool=("${photos[@]}")
shared="$here/../../shared/photos"
if [ -d "$shared" ]; then
  for name in camera_nikon_d90_12mp.jpg camera_canon_eos5d_13mp_portrait.jpg camera_apple_iphone4s_8mp_orient6.jpg \
              camera_nokia_8.3_9mp_wide.jpg progressive_panasonic_lc70_1280x960.jpg; do
    [ -f "$shared/$name" ] && pool+=("$shared/$name")
  done
fi
captioned=() options=()
for i in "${!captions[@]}"; do
  captioned+=("${pool[i % ${#pool[@]}]}")
  options+=(--caption "${captions[i]}")
done
"$tool" make "${captioned[@]}" "${options[@]}" --size 384x216 --fps 1 --duration ${#captions[@]} --quiet --overwrite -o "$scratch/captions.mp4"
ffmpeg -v error -y -i "$scratch/captions.mp4" -vf "tile=5x2:padding=4:color=white,pad=iw+8:ih+8:4:4:white" -frames:v 1 "$here/sheets/captions.png"

# Clips among the photos, from the shared clips (never copied into the project): a photo, an
# iPhone portrait clip (display matrix −90°), a photo, an iPhone HDR HLG clip (tone-mapped), a
# Samsung motion photo playing its video then holding its still; fades between; every 15th frame.
clips="$here/../../shared/clips"
if [ -d "$clips" ]; then
  "$tool" make "${photos[0]}" "$clips/mov_h264_iphone6_portrait_rot90_aac_568x320.mov#t=0,2" "${photos[2]}" \
    "$clips/mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4#t=0,2" "$clips/mp_samsung_s22_motionphoto.heic" \
    --motion-photos play --slide-duration 2 --transition fade --transition-duration 0.4 --fit blur \
    --size 320x180 --quiet --overwrite -o "$scratch/clips.mp4"
  ffmpeg -v error -y -i "$scratch/clips.mp4" -vf "select='not(mod(n,15))',tile=5x4:padding=4:color=white,pad=iw+8:ih+8:4:4:white" \
    -frames:v 1 "$here/sheets/clips.png"
else
  echo "clips.png: left as it is (../shared/clips is not beside the project)"
fi
# One show for three screens: --for youtube (landscape), reels (portrait) and square, each a
# caption per photo and a title card, one frame a photo; the portrait row has the Reels safe area
# drawn in red (top 14%, bottom 35%, left 6%, right 6%: Platform.swift's figures, as in
# docs/sharing.md), inside which the captions and the card stay.
shapes=(youtube:320x180 reels:180x320 square:240x240)
for shape in "${shapes[@]}"; do
  platform="${shape%%:*}" size="${shape#*:}"
  "$tool" make "${photos[@]}" --for "$platform" --size "$size" --fps 1 --duration 4 --title-card "Summer 2024" --title-card-duration 1 \
    --caption "A long caption along the bottom" --caption "Under the buttons?" --caption "Never" --quiet --overwrite -o "$scratch/$platform.mp4"
  box=""
  if [ "$platform" = reels ]; then
    w="${size%x*}" h="${size#*x}"
    box=",drawbox=x=$(( (w * 600 + 5000) / 10000 )):y=$(( (h * 1400 + 5000) / 10000 )):w=$(( w - 2 * ((w * 600 + 5000) / 10000) )):h=$(( h - (h * 1400 + 5000) / 10000 - (h * 3500 + 5000) / 10000 )):color=red:t=2"
  fi
  ffmpeg -v error -y -i "$scratch/$platform.mp4" -vf "null$box,tile=4x1:padding=4:color=white" -frames:v 1 "$scratch/$platform.png"
done
ffmpeg -v error -y -i "$scratch/youtube.png" -i "$scratch/reels.png" -i "$scratch/square.png" -filter_complex \
  "[0]pad=1292:ih:0:0:white[a];[1]pad=1292:ih:0:0:white[b];[2]pad=1292:ih:0:0:white[c];[a][b][c]vstack=inputs=3,pad=iw+8:ih+8:4:4:white" \
  -frames:v 1 "$here/sheets/sharing.png"
# HDR: the shared iPhone 15 Pro photo with its gain map (../shared/clips), rendered SDR and
# --hdr pq; the HDR frame tone-mapped for the page (linear light at 203 nits a unit, Hable).
if [ -f "$clips/livephoto_iphone15pro_IMG_4394.HEIC" ]; then
  for mode in off pq; do
    "$tool" make "$clips/livephoto_iphone15pro_IMG_4394.HEIC" --duration 1 --size 360x480 --hdr "$mode" --quiet --overwrite -o "$scratch/hdr-$mode.mp4"
  done
  ffmpeg -v error -y -i "$scratch/hdr-off.mp4" -i "$scratch/hdr-pq.mp4" -filter_complex \
    "[0:v]select=eq(n\,0),scale=out_range=pc,format=rgb24[a];[1:v]select=eq(n\,0),zscale=t=linear:npl=203,format=gbrpf32le,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=pc:p=bt709,format=rgb24[b];[a][b]hstack=inputs=2" \
    -frames:v 1 -q:v 4 "$here/sheets/hdr.jpg"
else
  echo "hdr.jpg: left as it is (../shared/clips is not beside the project)"
fi
ls -l "$here/sheets"
