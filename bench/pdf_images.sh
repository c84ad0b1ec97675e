#!/usr/bin/env bash
# PDF and image translation through the local runner and the language-tools service (release
# builds), with the deterministic engine, so that the figures are reading and writing:
#   book.pdf     20 pages made by LibreOffice, a heading and three paragraphs on each
#   sign.png     a 900 × 300 sign of three paragraphs (ImageMagick)
#   page.png     an A4 page at 150 dpi (1240 × 1754) of 12 paragraphs, 36 lines (ImageMagick)
#   page.jpg     the same page as a JPEG
#   scan.pdf     that page as a scan: the PNG placed on an A4 page by LibreOffice, no text layer
# For each: seconds from the upload to `done` (polling every 100 ms; per page for the PDF), the
# images read without source_lang (script detection, a first reading, detection, perhaps a
# second reading). Memory: the service's peak resident size after each (VmHWM, which only
# grows), and the peaks of its child processes on the largest files, measured alone with GNU
# time: pdftotext on the book, Tesseract on the page, pdftoppm rendering the scan for OCR.
source "$(dirname "$0")/lib.sh"

SERVICE=${LANGUAGE_TOOLS:-./target/release/glossa-language-tools}
port=$(free_port)
export LANGUAGE_TOOLS_SECRET=bench-$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export LANGUAGE_TOOLS_URL=http://127.0.0.1:$port
GLOSSA_LOG=warn "$SERVICE" --listen "127.0.0.1:$port" >"$work/language-tools.log" 2>&1 &
pids+=($!)
service_pid=$!
wait_for "$LANGUAGE_TOOLS_URL/health" "$work/language-tools.log"
peak() { awk '/^VmHWM:/ {printf "%.0f MiB", $2 / 1024}' "/proc/$service_pid/status"; }

app images deterministic
key=$(developer_key "$address")
auth="Authorization: Service-Auth-Key $key"

# The book: LibreOffice's PDF of a 20-chapter HTML file, a chapter a page.
{
    echo "<html><body>"
    for chapter in $(seq 1 20); do
        style=""
        [ "$chapter" -gt 1 ] && style=' style="page-break-before: always"'
        echo "<h1$style>Chapter $chapter</h1>"
        for paragraph in 1 2 3; do
            echo "<p>Paragraph $paragraph of chapter $chapter. $(printf 'The committee met to review the budget and asked for more time to read the proposals. %.0s' 1 2 3 4 5)</p>"
        done
    done
    echo "</body></html>"
} >"$work/book.html"
soffice "-env:UserInstallation=file://$work/profile" --headless "--infilter=HTML (StarWriter)" --convert-to pdf \
    --outdir "$work" "$work/book.html" >/dev/null 2>&1
pages=$(pdfinfo "$work/book.pdf" | awk '/^Pages:/ {print $2}')

draw=(/usr/bin/convert -font DejaVu-Sans -fill '#1a1a1a')
"${draw[@]}" -size 900x300 'xc:#f4f0e0' -pointsize 34 -annotate +30+60 'The weather is nice today.' \
    -annotate +30+130 'We are going to the beach' -annotate +30+172 'with our friends.' \
    -pointsize 30 -annotate +30+250 'Open every day.' "$work/sign.png"
page=("${draw[@]}" -size 1240x1754 xc:white -pointsize 22)
sentences=("The committee met on Tuesday to review the budget for the coming year."
    "Several members asked for more time to read the proposals before the vote."
    "The chair agreed and moved the decision to the next meeting in March.")
y=120
for paragraph in $(seq 1 12); do
    for line in 0 1 2; do
        page+=(-annotate "+100+$y" "${sentences[$line]}")
        y=$((y + 34))
    done
    y=$((y + 30))
done
"${page[@]}" "$work/page.png"
/usr/bin/convert "$work/page.png" -quality 90 "$work/page.jpg"
echo '<html><body><p><img src="page.png" width="624" height="883"></p></body></html>' >"$work/scan.html"
soffice "-env:UserInstallation=file://$work/profile" --headless "--infilter=HTML (StarWriter)" --convert-to pdf \
    --outdir "$work" "$work/scan.html" >/dev/null 2>&1

# translate FILE: one document from upload to download; prints a row.
translate() {
    translate_document "$1" target_lang=DE
    printf '%-10s %9s bytes  done after %6.2f s  service peak %s\n' "$1" "$(stat -c %s "$work/$1")" "$done_after" "$(peak)"
}

echo "PDF and image translation ($(nproc) cores; deterministic engine; the images' language found by the service)"
printf '%-10s %s\n' "service" "peak $(peak) after start"
translate book.pdf
echo "book.pdf: $pages pages, $(awk "BEGIN {printf \"%.3f\", $done_after / $pages}") s a page"
/usr/bin/time -f '%M' -o "$work/pdftotext.kib" pdftotext -bbox-layout "$work/book.pdf" /dev/null
echo "pdftotext alone on book.pdf: peak $(($(tail -1 "$work/pdftotext.kib") / 1024)) MiB"
translate sign.png
translate page.png
translate page.jpg
/usr/bin/time -f '%M' -o "$work/tesseract.kib" tesseract "$work/page.png" stdout -l eng tsv >/dev/null 2>&1
echo "tesseract alone on page.png: peak $(($(tail -1 "$work/tesseract.kib") / 1024)) MiB"
translate scan.pdf
/usr/bin/time -f '%M' -o "$work/pdftoppm.kib" pdftoppm -r 300 -png -singlefile "$work/scan.pdf" "$work/scan-page"
echo "pdftoppm alone on scan.pdf at 300 dpi: peak $(($(tail -1 "$work/pdftoppm.kib") / 1024)) MiB"
