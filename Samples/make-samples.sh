#!/usr/bin/env bash
# Makes the sample photos in Samples/photos from the public-domain and CC0 photographs that
# Debian's python3-skimage package ships (scikit-image's data folder). Run once; the results
# are committed. Needs Debian's /usr/bin/python3 with PIL (python3-pil) and apt-get download.
#   landscape.jpg         451x282 (16:10), "Chelsea the cat", CC0 by the photographer, Stefan van der Walt
#   portrait-orient6.jpg  stored as 512x384 pixels with EXIF orientation 6: it displays as a
#                         384x512 (3:4) portrait of the astronaut Eileen Collins (NASA, public domain)
#   square.jpg            400x400, "Coffee cup", CC0 by the photographer, Rachel Michetti (Pikolo Espresso Bar)
# Their licences are stated in skimage/data/_fetchers.py of the package; none has EXIF dates.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data=${SKIMAGE_DATA:-/usr/lib/python3/dist-packages/skimage/data}
if [ ! -f "$data/astronaut.png" ]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  (cd "$scratch" && apt-get download python3-skimage >/dev/null && dpkg -x python3-skimage_*.deb root)
  data="$scratch/root/usr/lib/python3/dist-packages/skimage/data"
fi
DATA="$data" OUT="$here/photos" /usr/bin/python3 - <<'PY'
import io, os, struct
from PIL import Image
data, out = os.environ["DATA"], os.environ["OUT"]
def save(image, name, orientation=None):
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=92, optimize=False, progressive=False, subsampling="4:2:0")
    jpeg = buffer.getvalue()
    if orientation:
        # APP1 "Exif\0\0", big-endian TIFF, IFD0 with one entry: Orientation (0x0112, SHORT, 1).
        tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
        payload = b"Exif\x00\x00" + tiff
        jpeg = jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]
    open(os.path.join(out, name), "wb").write(jpeg)
cat = Image.open(os.path.join(data, "chelsea.png"))            # 451x300
save(cat.crop((0, 9, 451, 291)), "landscape.jpg")                 # 451x282, 16:10
astronaut = Image.open(os.path.join(data, "astronaut.png"))    # 512x512
portrait = astronaut.crop((128, 0, 512, 512))                    # 384x512, 3:4
# Stored rotated 90° anticlockwise, so that orientation 6 (rotate 90° clockwise) puts it upright.
save(portrait.transpose(Image.Transpose.ROTATE_90), "portrait-orient6.jpg", orientation=6)
coffee = Image.open(os.path.join(data, "coffee.png"))          # 600x400
save(coffee.crop((60, 0, 460, 400)), "square.jpg")                # 400x400
PY
ls -l "$here/photos"
