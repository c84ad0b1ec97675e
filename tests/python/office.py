"""Office documents for the document translation tests, made and checked with the tools people use:
python-docx, python-pptx and openpyxl.

    office.py BASE_URL KEY make FOLDER
        writes FOLDER/report.docx, FOLDER/deck.pptx, FOLDER/book.xlsx (inline strings) and
        FOLDER/shared.xlsx (shared strings), and prints their paths;
    office.py BASE_URL KEY bad FOLDER
        writes files an upload must refuse (a corrupt zip, a docx without word/document.xml, a zip
        bomb) and a docx of more than 10 MiB, and prints their paths;
    office.py BASE_URL KEY check KIND SOURCE TRANSLATED
        opens both files with the tool of their KIND (docx, pptx, xlsx) and prints one JSON report:
        `problems` (empty when the translation is right) and what was checked.

The translation was made from EN into DE by the deterministic engine, which translates word by word
whatever the segmentation: so every text of the translated file must be exactly what
`POST /v2/translate` (with KEY) makes of the source's text, run by run, with each run's formatting
(bold, italic, hyperlinks) where it was, and numbers, dates and formulas untouched.
"""

import datetime
import json
import os
import re
import sys
import urllib.request

SOURCE_LANG, TARGET_LANG = "EN", "DE"


class Translator:
    """What `POST /v2/translate` makes of texts (stripped), asked in batches and remembered."""

    def __init__(self, base_url, key):
        self.base_url, self.key, self.known = base_url, key, {}

    def prepare(self, texts):
        wanted = sorted({text.strip() for text in texts if text.strip()} - set(self.known))
        for start in range(0, len(wanted), 50):
            batch = wanted[start:start + 50]
            body = json.dumps({"text": batch, "source_lang": SOURCE_LANG, "target_lang": TARGET_LANG}).encode()
            request = urllib.request.Request(
                f"{self.base_url}/v2/translate",
                data=body,
                headers={"Authorization": f"Service-Auth-Key {self.key}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=60) as reply:
                translations = json.load(reply)["translations"]
            for text, translation in zip(batch, translations):
                self.known[text] = translation["text"]

    def __call__(self, text):
        text = text.strip()
        return self.known[text] if text else text


class Checker:
    def __init__(self, translate):
        self.translate, self.problems, self.checked = translate, [], 0
        self.source_words, self.translated_text = set(), []

    def text(self, where, source, translated):
        """A text translated as /v2/translate translates it."""
        self.checked += 1
        self.source_words.update(word.lower() for word in re.findall(r"[A-Za-z]{4,}", source))
        self.translated_text.append(translated)
        expected = self.translate(source)
        if translated.strip() != expected:
            self.problems.append(f"{where}: {translated!r} is not {expected!r} (from {source!r})")
        elif re.search(r"[A-Za-z]{2,}", source) and translated.strip() == source.strip():
            self.problems.append(f"{where}: {source!r} was not translated")

    def same(self, where, source, translated):
        if source != translated:
            self.problems.append(f"{where}: {source!r} became {translated!r}")

    def count(self, where, source, translated):
        if len(source) != len(translated):
            self.problems.append(f"{where}: {len(source)} items became {len(translated)}")
        return zip(source, translated)

    def report(self, **details):
        left = sorted(
            word for word in self.source_words
            if re.search(rf"\b{word}\b", "\n".join(self.translated_text), re.IGNORECASE)
        )
        if left:
            self.problems.append(f"source words left in the translation: {left}")
        return {"problems": self.problems, "checked": self.checked, **details}


# ------------------------------------------------------------------------------------------------
# docx


def make_docx(path):
    import docx
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = docx.Document()
    document.add_heading("Quarterly report for the board", level=1)
    paragraph = document.add_paragraph("The ")
    paragraph.add_run("important").bold = True
    paragraph.add_run(" numbers and the ")
    paragraph.add_run("careful").italic = True
    paragraph.add_run(" reading are on ")
    # A hyperlink: python-docx reads them but has no call to write one.
    relation = paragraph.part.relate_to("https://example.com/report", RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), relation)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "our website"
    run.append(text)
    link.append(run)
    paragraph._p.append(link)
    paragraph.add_run(".")
    document.add_heading("Details", level=2)
    centered = document.add_paragraph("Sales grew in every region this quarter.")
    centered.alignment = WD_ALIGN_PARAGRAPH.CENTER
    table = document.add_table(rows=2, cols=2)
    for row, cells in enumerate([("Region", "Growth"), ("North", "Strong")]):
        for column, value in enumerate(cells):
            table.cell(row, column).text = value
    document.add_paragraph("")
    section = document.sections[0]
    section.header.paragraphs[0].text = "Confidential draft"
    section.footer.paragraphs[0].text = "Prepared by finance"
    document.save(path)


def runs_of(paragraph):
    """(text, bold, italic, hyperlink address) of each run, hyperlinks' runs included, in order."""
    from docx.text.hyperlink import Hyperlink

    runs = []
    for item in paragraph.iter_inner_content():
        if isinstance(item, Hyperlink):
            runs.extend((run.text, run.bold, run.italic, item.address) for run in item.runs)
        else:
            runs.append((item.text, item.bold, item.italic, None))
    return runs


def paragraphs_of_docx(document):
    """Every paragraph a reader sees, with where it is: body, table cells, header, footer."""
    found = [(f"body paragraph {index}", paragraph) for index, paragraph in enumerate(document.paragraphs)]
    for index, table in enumerate(document.tables):
        for row_index, row in enumerate(table.rows):
            for column, cell in enumerate(row.cells):
                found.extend(
                    (f"table {index} cell {row_index},{column}", paragraph) for paragraph in cell.paragraphs
                )
    for index, section in enumerate(document.sections):
        found.extend((f"section {index} header", paragraph) for paragraph in section.header.paragraphs)
        found.extend((f"section {index} footer", paragraph) for paragraph in section.footer.paragraphs)
    return found


def check_docx(translate, source_path, translated_path):
    import docx

    source, translated = docx.Document(source_path), docx.Document(translated_path)
    source_paragraphs, translated_paragraphs = paragraphs_of_docx(source), paragraphs_of_docx(translated)
    translate.prepare(
        [paragraph.text for _, paragraph in source_paragraphs]
        + [run[0] for _, paragraph in source_paragraphs for run in runs_of(paragraph)]
    )
    check = Checker(translate)
    formatted = 0
    for (where, old), (_, new) in check.count("paragraphs", source_paragraphs, translated_paragraphs):
        check.text(where, old.text, new.text)
        check.same(f"{where} style", old.style.name, new.style.name)
        check.same(f"{where} alignment", old.alignment, new.alignment)
        for index, (old_run, new_run) in enumerate(check.count(f"{where} runs", runs_of(old), runs_of(new))):
            check.text(f"{where} run {index}", old_run[0], new_run[0])
            check.same(f"{where} run {index} formatting", old_run[1:], new_run[1:])
            formatted += any(old_run[1:])
    return check.report(paragraphs=len(source_paragraphs), formatted_runs=formatted)


# ------------------------------------------------------------------------------------------------
# pptx


def make_pptx(path):
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    slide.shapes.title.text = "Launch plan for the spring"
    box = slide.shapes.add_textbox(Inches(1), Inches(1.5), Inches(6), Inches(1))
    paragraph = box.text_frame.paragraphs[0]
    paragraph.add_run().text = "Every team "
    bold = paragraph.add_run()
    bold.text = "must"
    bold.font.bold = True
    paragraph.add_run().text = " finish testing first."
    second = box.text_frame.add_paragraph()
    second.text = "Questions go to the product owner."
    table = slide.shapes.add_table(2, 2, Inches(1), Inches(3), Inches(6), Inches(1.5)).table
    for row, cells in enumerate([("Milestone", "Owner"), ("Beta release", "Engineering")]):
        for column, value in enumerate(cells):
            table.cell(row, column).text = value
    slide.notes_slide.notes_text_frame.text = "Remind everyone about the deadline."
    deck.save(path)


def text_frames_of(deck):
    found = []
    for slide_index, slide in enumerate(deck.slides):
        for shape in slide.shapes:
            if shape.has_text_frame:
                found.append((f"slide {slide_index} shape {shape.name}", shape.text_frame))
            if shape.has_table:
                for row_index, row in enumerate(shape.table.rows):
                    for column, cell in enumerate(row.cells):
                        found.append((f"slide {slide_index} table cell {row_index},{column}", cell.text_frame))
        if slide.has_notes_slide:
            found.append((f"slide {slide_index} notes", slide.notes_slide.notes_text_frame))
    return found


def check_pptx(translate, source_path, translated_path):
    import pptx

    source, translated = pptx.Presentation(source_path), pptx.Presentation(translated_path)
    source_frames, translated_frames = text_frames_of(source), text_frames_of(translated)
    translate.prepare(
        [paragraph.text for _, frame in source_frames for paragraph in frame.paragraphs]
        + [run.text for _, frame in source_frames for paragraph in frame.paragraphs for run in paragraph.runs]
    )
    check = Checker(translate)
    paragraphs = formatted = 0
    for (where, old), (_, new) in check.count("text frames", source_frames, translated_frames):
        for index, (old_paragraph, new_paragraph) in enumerate(
            check.count(f"{where} paragraphs", old.paragraphs, new.paragraphs)
        ):
            paragraphs += 1
            check.text(f"{where} paragraph {index}", old_paragraph.text, new_paragraph.text)
            for run_index, (old_run, new_run) in enumerate(
                check.count(f"{where} paragraph {index} runs", old_paragraph.runs, new_paragraph.runs)
            ):
                check.text(f"{where} paragraph {index} run {run_index}", old_run.text, new_run.text)
                check.same(f"{where} paragraph {index} run {run_index} bold", old_run.font.bold, new_run.font.bold)
                formatted += bool(old_run.font.bold)
    return check.report(paragraphs=paragraphs, formatted_runs=formatted)


# ------------------------------------------------------------------------------------------------
# xlsx


def make_xlsx(path):
    import openpyxl
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Budget"
    sheet["A1"] = 1200
    sheet["A2"] = 34.5
    sheet["A3"] = "=SUM(A1:A2)"
    sheet["A4"] = datetime.datetime(2024, 3, 15)
    sheet["A4"].number_format = "yyyy-mm-dd"
    sheet["B1"] = "Travel expenses"
    sheet["B2"] = "Office supplies and furniture"
    sheet["B3"] = "Travel expenses"
    sheet["B4"] = CellRichText([TextBlock(InlineFont(b=True), "Total"), " spending this year"])
    other = book.create_sheet("Notes")
    other["A1"] = "Approved by the committee"
    other["A2"] = True
    book.save(path)


def make_shared_xlsx(path):
    """A workbook whose strings are shared (openpyxl writes inline strings), made by XlsxWriter (a
    dependency of python-pptx): plain and rich shared strings, a number, a date and a formula."""
    import xlsxwriter

    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Budget")
    bold = book.add_format({"bold": True})
    sheet.write_number("A1", 1200)
    sheet.write_number("A2", 34.5)
    sheet.write_formula("A3", "=SUM(A1:A2)")
    sheet.write_datetime("A4", datetime.datetime(2024, 3, 15), book.add_format({"num_format": "yyyy-mm-dd"}))
    sheet.write_string("B1", "Travel expenses")
    sheet.write_string("B2", "Office supplies and furniture")
    sheet.write_string("B3", "Travel expenses")
    sheet.write_rich_string("B4", bold, "Total", " spending this year")
    book.close()


def cells_of(book):
    return [
        (f"{sheet.title}!{cell.coordinate}", cell)
        for sheet in book.worksheets for row in sheet.iter_rows() for cell in row if cell.value is not None
    ]


def check_xlsx(translate, source_path, translated_path):
    import openpyxl
    from openpyxl.cell.rich_text import CellRichText, TextBlock

    source = openpyxl.load_workbook(source_path, rich_text=True)
    translated = openpyxl.load_workbook(translated_path, rich_text=True)
    source_cells, translated_cells = cells_of(source), cells_of(translated)

    def blocks(value):
        return [(block.text, bool(block.font.b)) if isinstance(block, TextBlock) else (block, False) for block in value]

    translate.prepare(
        [str(cell.value) for _, cell in source_cells if isinstance(cell.value, (str, CellRichText))]
        + [text for _, cell in source_cells if isinstance(cell.value, CellRichText) for text, _ in blocks(cell.value)]
    )
    check = Checker(translate)
    kept = strings = rich = 0
    for (where, old), (new_where, new) in check.count("cells", source_cells, translated_cells):
        check.same(f"{where} position", where, new_where)
        if isinstance(old.value, CellRichText):
            rich += 1
            check.text(where, str(old.value), str(new.value))
            for index, ((old_text, old_bold), (new_text, new_bold)) in enumerate(
                check.count(f"{where} rich text", blocks(old.value), blocks(new.value))
            ):
                check.text(f"{where} block {index}", old_text, new_text)
                check.same(f"{where} block {index} bold", old_bold, new_bold)
        elif isinstance(old.value, str) and not old.value.startswith("="):
            strings += 1
            check.text(where, old.value, new.value)
        else:
            kept += 1
            check.same(f"{where} value", old.value, new.value)
            check.same(f"{where} type", type(old.value), type(new.value))
    check.same("sheet names", source.sheetnames, translated.sheetnames)
    return check.report(strings=strings, rich_text=rich, kept=kept)


# ------------------------------------------------------------------------------------------------
# Files an upload must refuse, and one past the Free plan's size


def make_bad(folder):
    import zipfile

    paths = {name: os.path.join(folder, file) for name, file in [
        ("corrupt", "corrupt.docx"), ("no_document", "no_document.docx"), ("bomb", "bomb.docx"),
        ("large", "large.docx"),
    ]}
    with open(paths["corrupt"], "wb") as file:
        file.write(b"PK\x03\x04" + b"this is not a zip file at all" * 10)
    with zipfile.ZipFile(paths["no_document"], "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", "<Types/>")
        package.writestr("word/styles.xml", "<w:styles/>")
    # 64 MiB of document that deflate to some 64 KiB: a thousand to one.
    with zipfile.ZipFile(paths["bomb"], "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", "<Types/>")
        with package.open("word/document.xml", "w") as part:
            part.write(b"<w:document><w:body><w:p><w:r><w:t>")
            for _ in range(64):
                part.write(b"a" * (1024 * 1024))
            part.write(b"</w:t></w:r></w:p></w:body></w:document>")
    # A real document with 11 MiB of incompressible media, stored.
    make_docx(paths["large"])
    with zipfile.ZipFile(paths["large"], "a") as package:
        package.writestr(zipfile.ZipInfo("word/media/noise.bin"), os.urandom(11 * 1024 * 1024), zipfile.ZIP_STORED)
    return {**paths, "large_bytes": os.path.getsize(paths["large"])}


# ------------------------------------------------------------------------------------------------


def main():
    base_url, key, mode = sys.argv[1:4]
    if mode == "make":
        folder = sys.argv[4]
        made = [("docx", "report.docx", make_docx), ("pptx", "deck.pptx", make_pptx),
                ("xlsx", "book.xlsx", make_xlsx), ("shared_xlsx", "shared.xlsx", make_shared_xlsx)]
        paths = {}
        for kind, name, make in made:
            paths[kind] = os.path.join(folder, name)
            make(paths[kind])
        print(json.dumps(paths))
    elif mode == "bad":
        print(json.dumps(make_bad(sys.argv[4])))
    elif mode == "check":
        kind, source, translated = sys.argv[4:7]
        checker = {"docx": check_docx, "pptx": check_pptx, "xlsx": check_xlsx}[kind]
        print(json.dumps(checker(Translator(base_url, key), source, translated)))
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main()
