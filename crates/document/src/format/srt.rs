//! SubRip subtitles (`.srt`): each cue's text is translated; its number, its timing line, the
//! blank lines between cues, a byte order mark and the line endings (LF or CRLF) are kept byte
//! for byte.
//!
//! The file is cut by its blocks: runs of lines that are not blank, separated by blank lines.
//! Each block is a cue: its number, its timing line (`00:00:01,000 --> 00:00:02,500`, position
//! information after the end time allowed), and its text lines. Each block is checked by the
//! `srtlib` subtitle parser; one it refuses (a missing number, a malformed timing, text where a
//! cue should start) refuses the file, naming the line. The crate gives no byte positions, so the
//! cutting itself is done here, block by block.
//!
//! A cue's text lines are one piece, line breaks included, translated as plain text: plain text
//! is cut into sentences at each line break (`split_sentences` defaults to `1`) and the
//! separators come back as they were, so each line is translated into its own line and a
//! cue keeps as many lines as it had, each about as long as the source's. (A sentence that runs
//! over two lines is translated as two halves: the price of keeping the lines.) The whitespace
//! around a cue's text is kept. A cue without text is kept whole.

use super::{Cut, FormatError};

fn corrupt(why: impl Into<String>) -> FormatError {
    FormatError::Corrupt { format: "srt", why: why.into() }
}

pub(super) fn cut(text: &str) -> Result<Cut, FormatError> {
    let mut cut = Cut::new();
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    cut.push(false, bom);
    // The lines of the block being read: their numbers (from 1) and text, endings included.
    let mut block: Vec<(usize, &str)> = Vec::new();
    let mut cues = 0;
    for (index, line) in body.split_inclusive('\n').enumerate() {
        if line.trim().is_empty() {
            cues += cue(&mut cut, std::mem::take(&mut block))?;
            cut.push(false, line);
        } else {
            block.push((index + 1, line));
        }
    }
    cues += cue(&mut cut, block)?;
    if cues == 0 {
        return Err(corrupt("the file holds no subtitles"));
    }
    Ok(cut)
}

/// Adds a cue (the lines of one block, none blank) to the cut, once `srtlib` has read it;
/// answers how many cues it added (none for no lines).
fn cue(cut: &mut Cut, lines: Vec<(usize, &str)>) -> Result<usize, FormatError> {
    let Some(&(first, _)) = lines.first() else {
        return Ok(0);
    };
    let ending = |line: &str| line.trim_end_matches(['\n', '\r']).len();
    // The number and timing lines as srtlib reads them (trimmed), the text lines as they are.
    let mut normalised = String::new();
    for (position, (_, line)) in lines.iter().enumerate() {
        let line = &line[..ending(line)];
        normalised.push_str(if position < 2 { line.trim() } else { line });
        normalised.push('\n');
    }
    if let Err(error) = srtlib::Subtitle::parse(normalised) {
        let line = match error {
            // The timing line, or the line where the timing line should be.
            srtlib::ParsingError::MalformedTimestamp | srtlib::ParsingError::BadSubtitleStructure(_)
                if lines.len() > 1 =>
            {
                first + 1
            }
            srtlib::ParsingError::ParseIntError(_) if lines.len() > 1 && lines[0].1.trim().parse::<usize>().is_ok() => {
                first + 1
            }
            _ => first,
        };
        return Err(corrupt(format!(
            "line {line} is not what a subtitle has there: its number, then a timing line such as \
             00:00:01,000 --> 00:00:02,500 ({error})"
        )));
    }
    if lines.len() < 2 {
        return Err(corrupt(format!("line {first} is a subtitle's number without its timing line")));
    }
    // Number and timing: kept.
    for (_, line) in &lines[..2] {
        cut.push(false, line);
    }
    let Some(&(_, last)) = lines.last().filter(|_| lines.len() > 2) else {
        return Ok(1);
    };
    let body: String = lines[2..].iter().map(|(_, line)| *line).collect();
    let end = body.len() - (last.len() - ending(last));
    let words = &body[..end];
    let trimmed = words.trim();
    let lead = words.len() - words.trim_start().len();
    cut.push(false, &words[..lead]);
    cut.push(true, trimmed);
    cut.push(false, &words[lead + trimmed.len()..]);
    cut.push(false, &body[end..]);
    cut.characters += trimmed.chars().count() as i64;
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(cut: &Cut) -> String {
        cut.pieces.iter().map(|piece| piece.text.as_str()).collect()
    }

    fn texts(cut: &Cut) -> Vec<&str> {
        cut.pieces.iter().filter(|piece| piece.translate).map(|piece| piece.text.as_str()).collect()
    }

    /// The file with every cue's text in upper case.
    fn translated(cut: &Cut) -> String {
        cut.pieces
            .iter()
            .map(|piece| if piece.translate { piece.text.to_uppercase() } else { piece.text.clone() })
            .collect()
    }

    const FILM: &str = "1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:03,000 --> 00:00:05,000 X1:10 X2:20\n  Two lines,\nthe second one.\n\n3\n00:01:00,000 --> 00:01:01,000\nLast\n";

    #[test]
    fn cues_of_one_and_two_lines_are_translated_and_numbers_and_timings_kept() {
        let cut = cut(FILM).unwrap();
        assert_eq!(joined(&cut), FILM, "the pieces are the file");
        assert_eq!(texts(&cut), ["Hello there.", "Two lines,\nthe second one.", "Last"]);
        assert_eq!(cut.characters, 12 + 26 + 4);
        assert_eq!(
            translated(&cut),
            "1\n00:00:01,000 --> 00:00:02,500\nHELLO THERE.\n\n2\n00:00:03,000 --> 00:00:05,000 X1:10 X2:20\n  TWO LINES,\nTHE SECOND ONE.\n\n3\n00:01:00,000 --> 00:01:01,000\nLAST\n"
        );
    }

    #[test]
    fn crlf_line_endings_a_bom_and_extra_blank_lines_are_kept() {
        let file = format!("\u{feff}{}\r\n\r\n", FILM.replace('\n', "\r\n"));
        let cut = cut(&file).unwrap();
        assert_eq!(joined(&cut), file);
        assert_eq!(texts(&cut), ["Hello there.", "Two lines,\r\nthe second one.", "Last"]);
        assert_eq!(
            cut.pieces[0],
            super::super::Piece { translate: false, text: "\u{feff}1\r\n00:00:01,000 --> 00:00:02,500\r\n".into() }
        );
        assert!(translated(&cut).ends_with("\r\nLAST\r\n\r\n\r\n"));
        // Without a final line break.
        let cut = super::cut("1\r\n00:00:01,000 --> 00:00:02,000\r\nEnd").unwrap();
        assert_eq!(texts(&cut), ["End"]);
        assert_eq!(joined(&cut), "1\r\n00:00:01,000 --> 00:00:02,000\r\nEnd");
    }

    #[test]
    fn a_cue_without_text_is_kept_whole() {
        let file = "1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:02,000 --> 00:00:03,000\nWords\n";
        let cut = cut(file).unwrap();
        assert_eq!(joined(&cut), file);
        assert_eq!(texts(&cut), ["Words"]);
        assert_eq!(cut.characters, 5);
        let silent = super::cut("1\n00:00:01,000 --> 00:00:02,000\n").unwrap();
        assert!(texts(&silent).is_empty());
        assert_eq!(silent.characters, 0);
    }

    fn refused(file: &str) -> String {
        match cut(file) {
            Err(FormatError::Corrupt { format: "srt", why }) => why,
            other => panic!("refused: {other:?} for {file:?}"),
        }
    }

    #[test]
    fn malformed_cues_are_refused_with_their_line() {
        let why = refused("1\n00:00:01,000 --> 00:00:02,000\nFine\n\n2\n00:00:03 --> 00:00:04\nNo milliseconds\n");
        assert!(why.starts_with("line 6 "), "{why}");
        let why =
            refused("1\r\n00:00:01,000 --> 00:00:02,000\r\nFine\r\n\r\n2\r\n00:00:0x,000 --> 00:00:04,000\r\nBad\r\n");
        assert!(why.starts_with("line 6 "), "{why}");
        let why = refused("1\n00:00:01,000 to 00:00:02,000\nText\n");
        assert!(why.starts_with("line 2 "), "{why}");
        let why = refused("1\n00:00:01,000 --> 00:00:02,000\nText\n\nA stray paragraph\n");
        assert!(why.starts_with("line 5 "), "{why}");
        let why = refused("1\n00:00:01,000 --> 00:00:02,000\nText\n\n2\n");
        assert!(why.contains("line 5"), "{why}");
        assert!(refused("\u{feff}\n\n \r\n").contains("no subtitles"));
    }
}
