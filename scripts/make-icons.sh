#!/usr/bin/env bash
# Draws the CDXTheme app icon (a fan of colour swatch cards on a dark rounded
# square) with ImageMagick, then derives every size the packages need:
#   build/appicon.png                                  1024x1024 master (Wails uses it too)
#   build/linux/icons/hicolor/NxN/apps/cdxtheme.png    16..512 for the .deb
#   build/windows/icon.ico                             multi-size for the .exe and installer
# The output is reproducible (no timestamps in the PNGs), so the committed files
# only change when this script does.
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v magick >/dev/null 2>&1; then IM=(magick); else IM=(convert); fi
# Debian's ImageMagick 6 policy and any wrapper on PATH: prefer the real binary.
[ "${IM[0]}" = convert ] && [ -x /usr/bin/convert ] && IM=(/usr/bin/convert)

S=1024
PIVOT_X=512 PIVOT_Y=752   # every card turns about this rivet
# Card geometry before rotation: a tall card standing on the rivet.
CX0=416 CX1=608 CY0=262 CY1=812 CR=44
# Three bands per card (light, base, dark), top to bottom, like a paint fan deck.
B1=432 B2=602

# name light base dark angle
CARDS=(
	"#fca5a5 #ef4444 #b91c1c -42"
	"#fcd34d #f59e0b #b45309 -25"
	"#6ee7b7 #10b981 #047857 -8"
	"#7dd3fc #0ea5e9 #0369a1 9"
	"#c4b5fd #8b5cf6 #6d28d9 26"
	"#f9a8d4 #ec4899 #be185d 43"
)

png_opts=(-strip -define png:exclude-chunks=date,time -define png:compression-level=9)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Background: rounded square, slate gradient, a faint highlight along the top edge.
"${IM[@]}" -size ${S}x${S} xc:none \
	\( -size 864x864 gradient:'#334155'-'#0b1120' \) -geometry +80+80 -compose over -composite \
	\( -size ${S}x${S} xc:none -fill white -draw "roundrectangle 80,80 943,943 192,192" \) \
	-compose DstIn -composite \
	\( -size ${S}x${S} xc:none -fill none -stroke 'rgba(255,255,255,0.14)' -strokewidth 6 \
		-draw "roundrectangle 83,83 940,940 189,189" \) -compose over -composite \
	"$tmp/bg.png"

layers=()
i=0
for card in "${CARDS[@]}"; do
	read -r light base dark angle <<<"$card"
	out="$tmp/card$i.png"
	# Bands as plain rectangles, then cut to the card's rounded outline, then
	# turned about the rivet; a soft shadow underneath gives the fan depth. The
	# shadow is larger than the canvas and offset, so it is flattened onto an
	# empty canvas of the icon's size to keep the card where it was drawn.
	"${IM[@]}" -size ${S}x${S} xc:none \
		-fill "$light" -draw "rectangle $CX0,$CY0 $CX1,$B1" \
		-fill "$base" -draw "rectangle $CX0,$B1 $CX1,$B2" \
		-fill "$dark" -draw "rectangle $CX0,$B2 $CX1,$CY1" \
		-fill 'rgba(255,255,255,0.35)' -draw "rectangle $CX0,$B1 $CX1,$((B1 + 3))" \
		-fill 'rgba(0,0,0,0.18)' -draw "rectangle $CX0,$B2 $CX1,$((B2 + 3))" \
		\( -size ${S}x${S} xc:none -fill white -draw "roundrectangle $CX0,$CY0 $CX1,$CY1 $CR,$CR" \) \
		-compose DstIn -composite \
		-virtual-pixel transparent -distort SRT "$PIVOT_X,$PIVOT_Y $angle" \
		\( +clone -background black -shadow 55x14+0+10 \) \( -size ${S}x${S} xc:none \) -reverse \
		-background none -compose over -flatten \
		"$out"
	layers+=("$out")
	i=$((i + 1))
done

"${IM[@]}" "$tmp/bg.png" "${layers[@]}" -background none -compose over -flatten \
	-fill '#e2e8f0' -stroke '#475569' -strokewidth 6 \
	-draw "circle $PIVOT_X,$PIVOT_Y $((PIVOT_X + 30)),$PIVOT_Y" \
	-fill '#94a3b8' -stroke none \
	-draw "circle $PIVOT_X,$PIVOT_Y $((PIVOT_X + 11)),$PIVOT_Y" \
	"${png_opts[@]}" "PNG32:build/appicon.png"

for n in 16 32 48 64 128 256 512; do
	dir="build/linux/icons/hicolor/${n}x${n}/apps"
	mkdir -p "$dir"
	extra=()
	# Small sizes lose the card edges to the resampling blur; sharpen a touch.
	[ "$n" -le 48 ] && extra=(-unsharp 0x0.75+0.75+0.008)
	"${IM[@]}" build/appicon.png -filter Lanczos -resize ${n}x${n} "${extra[@]}" \
		"${png_opts[@]}" "PNG32:$dir/cdxtheme.png"
done

mkdir -p build/windows
"${IM[@]}" build/appicon.png -define icon:auto-resize=256,128,64,48,32,16 build/windows/icon.ico

echo "icons written: build/appicon.png, build/linux/icons/hicolor/*/apps/cdxtheme.png, build/windows/icon.ico"
