#!/usr/bin/env bash
# Makes assets/fonts/: egui's four default fonts cut down to the characters the game can show (Latin with its
# accents, the punctuation and symbols of the texts and of egui's own widgets). The whole fonts were 1.4 MB of the
# web module, 776 KB gzipped; these are about a tenth of that. Run it again after a text needs a new character;
# `cargo test --test fonts` says which one is missing. Needs Python (installs fontTools with pip).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import fontTools' 2>/dev/null || python3 -m pip install --quiet fonttools
SRC="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/epaint_default_fonts-0.36.*/fonts | tail -1)"
OUT=assets/fonts
# Latin: ASCII, Latin-1 and Latin Extended-A (French, Malagasy and the names of most European players), the
# Romanian comma letters and the spacing accents.
LATIN="U+0020-007E,U+00A0-017F,U+0218-021B,U+02C6-02DD"
# Typographic punctuation, arrows, maths, the media triangles egui's menus use, shapes, stars, card suits and
# musical signs, check marks, the replacement character.
SYMBOLS="U+2013-2014,U+2018-201E,U+2020-2022,U+2026,U+2030,U+2039-203A,U+20AC,U+2122,U+2190-2199,U+2212,U+2248"
SYMBOLS+=",U+2260,U+2264-2265,U+23F4-23F7,U+25A0-25FA,U+25FC-25FF,U+2605-2606,U+2660-266F,U+2713-2718,U+FFFD"
subset() { # font, characters
  pyftsubset "$SRC/$1.ttf" --unicodes="$2" --layout-features='*' --drop-tables+=hdmx,VDMX,FFTM,TTFA \
    --output-file="$OUT/$1.ttf" 2>/dev/null
}
subset Ubuntu-Light "$LATIN,$SYMBOLS"
# The Ubuntu Font Licence (2c) asks a modified version to carry the name "<original> derivative <work>".
python3 - "$OUT/Ubuntu-Light.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
font = TTFont(sys.argv[1])
for record in font["name"].names:
    if record.nameID in (1, 3, 4, 6, 16):
        sep = "-" if record.nameID == 6 else " "
        record.string = record.toUnicode() + sep + "derivative" + sep + "Fanorona"
font.save(sys.argv[1])
PY
subset Hack-Regular "U+0020-007E,U+00A0-00FF,$SYMBOLS"
subset NotoEmoji-Regular "$SYMBOLS"
subset emoji-icon-font "$SYMBOLS"
# egui draws a missing character as the first face's ◻ (U+25FB) and calls a character missing when it resolves to
# that face: ◻ alone, in a face of its own at the end of the chain, keeps the other faces' characters "present".
pyftsubset "$SRC/NotoEmoji-Regular.ttf" --unicodes=U+25FB --drop-tables+=FFTM --output-file="$OUT/Replacement.ttf" \
  2>/dev/null
cp "$SRC"/*.txt "$OUT/"
ls -l "$OUT"
