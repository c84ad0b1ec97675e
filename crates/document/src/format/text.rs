//! Plain text: a paragraph (a run of lines that are not blank) is one piece to translate, as one
//! text whose line breaks the translation keeps; blank lines, the whitespace around a paragraph
//! and a byte order mark are kept.

use super::Cut;

pub(super) fn cut(text: &str) -> Cut {
    let mut cut = Cut::new();
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    cut.push(false, bom);
    // A paragraph's lines: from the start of its first line to the end of its last one.
    let mut paragraph: Option<(usize, usize)> = None;
    let mut offset = 0;
    let flush = |cut: &mut Cut, paragraph: &mut Option<(usize, usize)>| {
        if let Some((start, end)) = paragraph.take() {
            let lines = &body[start..end];
            let trimmed = lines.trim();
            let lead = lines.len() - lines.trim_start().len();
            cut.push(false, &lines[..lead]);
            cut.push(true, trimmed);
            cut.push(false, &lines[lead + trimmed.len()..]);
            cut.characters += trimmed.chars().count() as i64;
        }
    };
    for line in body.split_inclusive('\n') {
        let end = offset + line.len();
        if line.trim().is_empty() {
            flush(&mut cut, &mut paragraph);
            cut.push(false, line);
        } else {
            paragraph = Some((paragraph.map_or(offset, |(start, _)| start), end));
        }
        offset = end;
    }
    flush(&mut cut, &mut paragraph);
    cut
}
