#!/usr/bin/env bash
# Document translation at size, through the local runner with the deterministic engine (so the
# figures are the document pipeline's own: cutting, storing, batches, leases, putting together):
#   one-page docx     the time from the upload's request to `done`, and to the download
#   1,000-paragraph   a docx of 1,000 paragraphs (some with bold and italic runs) and a table
#   30 MB docx        the one-page docx with 29 MiB of media: the memory a large file takes
#   5 MB xlsx         a workbook whose shared strings make about 5 MB
#   1 MB txt          a text file of a million bytes, about as many characters as a Pro
#                     subscription's document may hold
# For each: the time from the upload to `done` (polling the status every 100 ms), and the
# runner's peak resident memory after it (VmHWM; it only grows, so each row shows the most any
# document so far needed). Fixtures are made by python-docx and XlsxWriter (tests/python).
source "$(dirname "$0")/lib.sh"

python=target/venv/bin/python
app documents deterministic
runner_pid=${pids[-1]}
key=$(developer_key "$address")
auth="Authorization: Service-Auth-Key $key"

peak() { awk '/VmHWM/ {printf "%.0f MiB", $2 / 1024}' "/proc/$runner_pid/status"; }

"$python" - "$work" <<'PY'
import random, shutil, sys, zipfile
from docx import Document
import xlsxwriter
work = sys.argv[1]
rng = random.Random(7)
words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(5000)]
def sentence(count):
    return " ".join(rng.choice(words) for _ in range(count)).capitalize() + "."

page = Document()
page.add_heading("A one-page document", 1)
for _ in range(6):
    page.add_paragraph(" ".join(sentence(12) for _ in range(3)))
page.save(f"{work}/page.docx")

# The largest docx a Pro subscription may send: the one-page document with 29 MiB of media that
# does not compress (the package's other entries are copied as they are).
shutil.copy(f"{work}/page.docx", f"{work}/media.docx")
with zipfile.ZipFile(f"{work}/media.docx", "a", zipfile.ZIP_STORED) as package:
    package.writestr("word/media/noise.bin", rng.randbytes(29 * 1024 * 1024))

book = Document()
book.add_heading("A thousand paragraphs", 1)
for index in range(1000):
    paragraph = book.add_paragraph(sentence(10) + " ")
    if index % 3 == 0:
        paragraph.add_run(sentence(3)).bold = True
        paragraph.add_run(" " + sentence(5)).italic = True
table = book.add_table(rows=20, cols=3)
for row in table.rows:
    for cell in row.cells:
        cell.text = sentence(4)
book.save(f"{work}/book.docx")

# XlsxWriter keeps repeated strings once, in the shared strings (openpyxl's fast mode writes each
# cell's own): 20,000 different sentences in 70,000 rows, beside four numbers each.
texts = [sentence(6) for _ in range(20000)]
sheet_book = xlsxwriter.Workbook(f"{work}/sheet.xlsx")
sheet = sheet_book.add_worksheet()
for row in range(70000):
    sheet.write_string(row, 0, texts[row % len(texts)])
    for column in range(1, 5):
        sheet.write_number(row, column, rng.random() * 1000)
sheet_book.close()

with open(f"{work}/text.txt", "w", encoding="utf-8") as out:
    size = 0
    while True:
        paragraph = " ".join(sentence(12) for _ in range(2)) + "\n\n"
        # A million bytes: just under the Pro plan's million characters per document.
        if size + len(paragraph.encode()) > 1000 * 1000:
            break
        out.write(paragraph)
        size += len(paragraph.encode())
PY

# translate FILE: one document from upload to download; prints a row.
translate() {
    translate_document "$1" source_lang=EN target_lang=DE
    printf '%-24s %9s bytes  done after %6.2f s  downloaded after %6.2f s  peak %s\n' "$1" \
        "$(stat -c %s "$work/$1")" "$done_after" "$downloaded_after" "$(peak)"
}

echo "document translation ($(nproc) cores; deterministic engine)"
printf '%-24s %s\n' "runner peak memory before" "$(peak)"
translate page.docx
translate book.docx
translate media.docx
translate sheet.xlsx
translate text.txt
