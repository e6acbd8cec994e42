#!/usr/bin/env bash
# Makes the sample photos in Samples/photos from FFmpeg's own test sources, so the project
# ships no third-party pictures. Run once; the results are committed.
#   landscape.jpg           1600x1000, a Mandelbrot scene
#   portrait-orient6.jpg    stored as 1200x900 pixels with EXIF orientation 6: it displays
#                           as a 900x1200 portrait with a blue sky at the top and green ground below
#   square.jpg              1000x1000 colour bars and gradients
set -euo pipefail
cd "$(dirname "$0")/photos"
ffmpeg -v error -y -f lavfi -i "mandelbrot=size=1600x1000:start_scale=2.5:end_pts=1" -frames:v 1 -q:v 3 landscape.jpg
# A portrait scene (sky above, ground below, a sun top-right), stored rotated 90° anticlockwise
# so that orientation 6 (rotate 90° clockwise to display) puts it upright.
ffmpeg -v error -y -f lavfi -i "color=c=0x3070d0:size=900x1200,format=rgb24" \
  -vf "drawbox=x=0:y=700:w=900:h=500:color=0x308030:t=fill,drawbox=x=620:y=120:w=160:h=160:color=0xffd020:t=fill,drawbox=x=380:y=560:w=140:h=300:color=0x704020:t=fill,transpose=2" \
  -frames:v 1 -q:v 3 portrait-plain.jpg
python3 - <<'PY'
import struct
# APP1 "Exif\0\0", big-endian TIFF header, IFD0 with one entry: Orientation (0x0112, SHORT, 1) = 6.
tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack(">I", 0)
payload = b"Exif\x00\x00" + tiff
app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
data = open("portrait-plain.jpg", "rb").read()
assert data[:2] == b"\xff\xd8"
open("portrait-orient6.jpg", "wb").write(data[:2] + app1 + data[2:])
PY
rm portrait-plain.jpg
ffmpeg -v error -y -f lavfi -i "testsrc2=size=1000x1000:rate=1" -frames:v 1 -q:v 3 square.jpg
ls -l
