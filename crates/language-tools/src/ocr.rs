//! Optical character recognition with the Tesseract command line (`tesseract stdin stdout -l <pack> tsv`).
//!
//! The installed language packs are listed once at start-up (`tesseract --list-langs`) and mapped to the
//! catalogue's base codes. Each run gets the image on standard input, `OMP_THREAD_LIMIT=1` (the service's
//! worker pool is the parallelism), and is killed when the request's deadline passes. Tesseract's TSV
//! output becomes paragraphs of lines of words; see [`paragraphs`].
//!
//! Without a language, Tesseract's orientation and script detection (`--psm 0`) picks a first pack for the
//! script (Latin when it finds too little text to say), the service's own detector names the language of
//! what that pass read, and when that language has another pack the image is read again with it.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::picture::Picture;

/// How long reading one image may take, every pass together.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Paragraphs whose words' mean confidence is below this are dropped as noise.
pub const MIN_PARAGRAPH_CONFIDENCE: f64 = 40.0;

/// Why an image could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OcrError {
    /// 503.
    #[error("OCR is unavailable: tesseract is not installed")]
    Unavailable,
    /// 400.
    #[error("Field 'image' cannot be read: {0}")]
    Unreadable(String),
    /// 422.
    #[error("Reading the image took longer than {} s", .0.as_secs())]
    Timeout(Duration),
    /// 500: Tesseract could not be run although it was there at start-up.
    #[error("tesseract could not be run: {0}")]
    Failed(String),
}

/// A recognised word; boxes in pixels from the image's top-left corner, confidence 0..=100.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Word {
    pub text: String,
    pub left: u32,
    pub top: u32,
    pub width: u32,
    pub height: u32,
    pub confidence: f64,
}

/// A recognised line: its words, their text joined, its box, and the mean of its words' confidences.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    pub text: String,
    pub left: u32,
    pub top: u32,
    pub width: u32,
    pub height: u32,
    pub confidence: f64,
    pub words: Vec<Word>,
}

/// A recognised paragraph: its lines, their text joined, and the mean of its words' confidences.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Paragraph {
    pub text: String,
    pub confidence: f64,
    pub lines: Vec<Line>,
}

/// What `/ocr` answers (without the image's size).
#[derive(Debug, Clone, PartialEq)]
pub struct Recognised {
    pub language: &'static str,
    pub paragraphs: Vec<Paragraph>,
}

/// The Tesseract command line and the catalogue languages its installed packs serve.
#[derive(Debug, Clone)]
pub struct Ocr {
    binary: PathBuf,
    /// Catalogue base code → pack, for every language with an installed pack.
    packs: BTreeMap<&'static str, String>,
    /// The codes of `packs`, sorted.
    languages: Vec<&'static str>,
    timeout: Duration,
}

impl Ocr {
    /// Lists the packs `binary` (a path, or a name looked up in `PATH`) has installed. A missing or failing
    /// binary gives an `Ocr` without languages: the service runs, and `/ocr` answers 503.
    pub fn load(binary: &Path) -> Ocr {
        let installed = match Command::new(binary).arg("--list-langs").stdin(Stdio::null()).output() {
            Ok(output) if output.status.success() => {
                // Tesseract 5 lists on standard output after a heading line; older ones on standard error.
                let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
                text.push('\n');
                text.push_str(&String::from_utf8_lossy(&output.stderr));
                text.lines()
                    .filter(|line| !line.is_empty() && !line.contains(' ') && !line.contains(':'))
                    .map(|line| line.trim().to_string())
                    .collect::<BTreeSet<String>>()
            }
            Ok(output) => {
                tracing::warn!(status = %output.status, "`tesseract --list-langs` failed: OCR is unavailable");
                BTreeSet::new()
            }
            Err(error) => {
                tracing::warn!(%error, binary = %binary.display(), "tesseract cannot be run: OCR is unavailable");
                BTreeSet::new()
            }
        };
        Ocr::with_packs(binary, installed)
    }

    /// An `Ocr` running `binary` with these installed packs.
    pub fn with_packs(binary: &Path, installed: impl IntoIterator<Item = String>) -> Ocr {
        let installed: BTreeSet<String> = installed.into_iter().collect();
        let packs: BTreeMap<&'static str, String> = catalogue::all()
            .iter()
            .filter(|language| !language.is_variant())
            .filter_map(|language| {
                let code = language.base_code();
                let pack = pack_candidates(code).into_iter().find(|pack| installed.contains(*pack))?;
                Some((code, pack.to_string()))
            })
            .collect();
        let languages = packs.keys().copied().collect();
        Ocr { binary: binary.to_path_buf(), packs, languages, timeout: TIMEOUT }
    }

    /// The same with another time limit per image.
    pub fn with_timeout(mut self, timeout: Duration) -> Ocr {
        self.timeout = timeout;
        self
    }

    /// Whether any language can be read.
    pub fn available(&self) -> bool {
        !self.packs.is_empty()
    }

    /// The catalogue base codes with an installed pack, sorted.
    pub fn languages(&self) -> &[&'static str] {
        &self.languages
    }

    /// The pack that reads `code` (a catalogue base code), if installed.
    pub fn pack(&self, code: &str) -> Option<&str> {
        self.packs.get(code).map(String::as_str)
    }

    /// The language a pack is answered as when the detector says nothing: the first catalogue language
    /// it serves (`eng` → `en`, `nor` → `nb`).
    fn language_of(&self, pack: &str) -> &'static str {
        self.packs.iter().find(|(_, served)| *served == pack).map_or("en", |(code, _)| code)
    }

    /// Reads `picture`: with `language` (a code [`Ocr::pack`] knows), with its pack; without, as the module
    /// documentation says, `detect` naming the language of a first pass's text (or `None`).
    pub fn recognise(
        &self,
        picture: &Picture,
        language: Option<&'static str>,
        detect: impl Fn(&str) -> Option<&'static str>,
    ) -> Result<Recognised, OcrError> {
        if !self.available() {
            return Err(OcrError::Unavailable);
        }
        let deadline = Instant::now() + self.timeout;
        if let Some(language) = language {
            let pack = self.pack(language).ok_or(OcrError::Failed(format!("no pack for {language}")))?;
            let paragraphs = self.read(picture, pack, deadline)?;
            return Ok(Recognised { language, paragraphs });
        }
        let script = self.script(picture, deadline)?;
        let first = script_pack(script.as_deref().unwrap_or("Latin"));
        let mut first = if self.packs.values().any(|pack| pack == first) {
            first.to_string()
        } else if self.packs.values().any(|pack| pack == "eng") {
            "eng".to_string()
        } else {
            self.packs.values().next().cloned().ok_or(OcrError::Unavailable)?
        };
        let mut paragraphs = self.read(picture, &first, deadline)?;
        // OSD guesses from a few characters: when its script's pack reads poorly, English may read better.
        if first != "eng" && mean_confidence(&paragraphs) < 70.0 && self.packs.values().any(|pack| pack == "eng") {
            let english = self.read(picture, "eng", deadline)?;
            if score(&english) > score(&paragraphs) {
                tracing::debug!(script, "the script's pack read poorly; English read better");
                first = "eng".to_string();
                paragraphs = english;
            }
        }
        let text: Vec<&str> = paragraphs.iter().map(|paragraph| paragraph.text.as_str()).collect();
        let detected = detect(&text.join("\n")).filter(|code| self.pack(code).is_some());
        match detected {
            Some(code) if self.pack(code) != Some(first.as_str()) => {
                let pack = self.pack(code).unwrap_or("eng").to_string();
                tracing::debug!(script, first, pack, "reading the image again in its language");
                Ok(Recognised { language: code, paragraphs: self.read(picture, &pack, deadline)? })
            }
            Some(code) => Ok(Recognised { language: code, paragraphs }),
            None => Ok(Recognised { language: self.language_of(&first), paragraphs }),
        }
    }

    /// The script Tesseract's orientation and script detection names, `None` when it cannot tell (too
    /// little text).
    fn script(&self, picture: &Picture, deadline: Instant) -> Result<Option<String>, OcrError> {
        // Tesseract's OSD gives up below 50 characters by default; a sign or a caption has fewer.
        match self.run(&["--psm", "0", "-l", "osd", "-c", "min_characters_to_try=5"], &picture.bytes, deadline) {
            Ok(output) => Ok(output
                .lines()
                .find_map(|line| line.strip_prefix("Script:"))
                .map(|script| script.trim().to_string())
                .filter(|script| !script.is_empty())),
            Err(OcrError::Timeout(limit)) => Err(OcrError::Timeout(limit)),
            Err(OcrError::Unavailable) => Err(OcrError::Unavailable),
            Err(_) => Ok(None),
        }
    }

    fn read(&self, picture: &Picture, pack: &str, deadline: Instant) -> Result<Vec<Paragraph>, OcrError> {
        let tsv = self.run(&["-l", pack, "tsv"], &picture.bytes, deadline)?;
        Ok(paragraphs(&tsv, is_cjk_pack(pack)))
    }

    /// Runs `tesseract stdin stdout <args>` with `input` on standard input; kills it at `deadline`.
    fn run(&self, args: &[&str], input: &[u8], deadline: Instant) -> Result<String, OcrError> {
        let mut child = Command::new(&self.binary)
            .args(["stdin", "stdout"])
            .args(args)
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| match error.kind() {
                std::io::ErrorKind::NotFound => OcrError::Unavailable,
                _ => OcrError::Failed(error.to_string()),
            })?;
        let (mut stdin, mut stdout, mut stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        std::thread::scope(|scope| {
            // Writing and reading on their own threads: a large image fills the pipe before Tesseract
            // answers, and its output could fill the other pipe before it reads everything.
            scope.spawn(move || {
                if let Some(stdin) = stdin.as_mut() {
                    // A failed write (Tesseract gave up early) shows in its exit status.
                    let _ = stdin.write_all(input);
                }
                drop(stdin);
            });
            let out = scope.spawn(move || {
                let mut bytes = Vec::new();
                if let Some(stdout) = stdout.as_mut() {
                    let _ = stdout.read_to_end(&mut bytes);
                }
                bytes
            });
            let err = scope.spawn(move || {
                let mut bytes = Vec::new();
                if let Some(stderr) = stderr.as_mut() {
                    let _ = stderr.take(64 * 1024).read_to_end(&mut bytes);
                }
                bytes
            });
            let status = loop {
                match child.try_wait() {
                    Ok(Some(status)) => break Ok(status),
                    Ok(None) if Instant::now() >= deadline => {
                        let _ = child.kill();
                        let _ = child.wait();
                        break Err(OcrError::Timeout(self.timeout));
                    }
                    Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                    Err(error) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        break Err(OcrError::Failed(error.to_string()));
                    }
                }
            };
            let stdout = out.join().unwrap_or_default();
            let stderr = err.join().unwrap_or_default();
            let status = status?;
            if status.success() {
                Ok(String::from_utf8_lossy(&stdout).into_owned())
            } else {
                let stderr = String::from_utf8_lossy(&stderr);
                tracing::debug!(%status, stderr = %stderr, "tesseract failed");
                Err(OcrError::Unreadable(failure_cause(&stderr)))
            }
        })
    }
}

/// Tesseract's complaint in a few words, without paths.
fn failure_cause(stderr: &str) -> String {
    if stderr.contains("Too few characters") {
        "too little text to read".to_string()
    } else {
        "the image data is damaged or truncated".to_string()
    }
}

/// The Tesseract packs that may read a catalogue base code, the preferred first: special cases, then the
/// catalogue's ISO 639-3 codes (which are most packs' names).
pub fn pack_candidates(code: &str) -> Vec<&'static str> {
    let special: &[&'static str] = match code {
        "zh" => &["chi_sim", "chi_tra"],
        "yue" => &["chi_tra", "chi_sim"],
        "nb" | "no" => &["nor"],
        "sr" => &["srp", "srp_latn"],
        "ms" => &["msa"],
        "fa" => &["fas"],
        "sq" => &["sqi"],
        "sw" => &["swa"],
        "uz" => &["uzb", "uzb_cyrl"],
        "az" => &["aze", "aze_cyrl"],
        "mn" => &["mon"],
        "ku" | "kmr" => &["kmr"],
        _ => &[],
    };
    if !special.is_empty() {
        return special.to_vec();
    }
    catalogue::find(code)
        .filter(|language| !language.is_variant())
        .map(|language| language.iso639_3().to_vec())
        .unwrap_or_default()
}

/// The first-pass pack for a script Tesseract's OSD names.
pub fn script_pack(script: &str) -> &'static str {
    match script {
        "Cyrillic" => "rus",
        "Greek" => "ell",
        "Han" => "chi_sim",
        "Japanese" | "Hiragana" | "Katakana" => "jpn",
        "Hangul" | "Korean" => "kor",
        "Arabic" => "ara",
        "Hebrew" => "heb",
        "Thai" => "tha",
        _ => "eng",
    }
}

/// Whether a pack's text is written without spaces between words (Chinese and Japanese; Korean uses them).
fn is_cjk_pack(pack: &str) -> bool {
    pack.starts_with("chi_") || pack.starts_with("jpn")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    left: u32,
    top: u32,
    width: u32,
    height: u32,
}

impl Rect {
    fn union(self, other: Rect) -> Rect {
        let left = self.left.min(other.left);
        let top = self.top.min(other.top);
        let right = (self.left + self.width).max(other.left + other.width);
        let bottom = (self.top + self.height).max(other.top + other.height);
        Rect { left, top, width: right - left, height: bottom - top }
    }
}

struct RawLine {
    number: u32,
    rect: Option<Rect>,
    words: Vec<(String, Rect, f64)>,
}

struct RawParagraph {
    key: (u32, u32, u32),
    lines: Vec<RawLine>,
}

/// Tesseract's TSV output as paragraphs in reading order: its (block, paragraph) groups of lines of words.
/// Words without text, lines without words and paragraphs without lines are left out, and so is a
/// paragraph whose words' mean confidence is below [`MIN_PARAGRAPH_CONFIDENCE`] (Tesseract's reading of
/// texture in photos). Words join with a space (`cjk`: with nothing), lines too, except that a line ending
/// in a hyphen after a letter joins the next line starting with a lower-case letter without the hyphen.
pub fn paragraphs(tsv: &str, cjk: bool) -> Vec<Paragraph> {
    let mut raw: Vec<RawParagraph> = Vec::new();
    for row in tsv.lines() {
        let fields: Vec<&str> = row.split('\t').collect();
        if fields.len() < 11 {
            continue;
        }
        let number = |index: usize| fields[index].trim().parse::<u32>().ok();
        let (Some(level), Some(page), Some(block), Some(par), Some(line)) =
            (number(0), number(1), number(2), number(3), number(4))
        else {
            continue; // The heading, or a damaged row.
        };
        if level < 4 {
            continue;
        }
        let (Some(left), Some(top), Some(width), Some(height)) = (number(6), number(7), number(8), number(9)) else {
            continue;
        };
        let rect = Rect { left, top, width, height };
        let key = (page, block, par);
        if raw.last().is_none_or(|paragraph| paragraph.key != key) {
            raw.push(RawParagraph { key, lines: Vec::new() });
        }
        let Some(paragraph) = raw.last_mut() else { continue };
        if paragraph.lines.last().is_none_or(|last| last.number != line) {
            paragraph.lines.push(RawLine { number: line, rect: None, words: Vec::new() });
        }
        let Some(current) = paragraph.lines.last_mut() else { continue };
        if level == 4 {
            current.rect = Some(rect);
        } else if level == 5 {
            let text = fields.get(11).map_or("", |text| text.trim());
            let confidence = fields[10].trim().parse::<f64>().unwrap_or(0.0).clamp(0.0, 100.0);
            if !text.is_empty() {
                current.words.push((text.to_string(), rect, confidence));
            }
        }
    }

    let separator = if cjk { "" } else { " " };
    raw.into_iter()
        .filter_map(|paragraph| {
            let mut confidences = Vec::new();
            let lines: Vec<Line> = paragraph
                .lines
                .into_iter()
                .filter(|line| !line.words.is_empty())
                .map(|line| {
                    let rect = line.rect.unwrap_or_else(|| {
                        line.words.iter().map(|(_, rect, _)| *rect).reduce(Rect::union).unwrap_or(Rect {
                            left: 0,
                            top: 0,
                            width: 0,
                            height: 0,
                        })
                    });
                    let scores: Vec<f64> = line.words.iter().map(|(_, _, confidence)| *confidence).collect();
                    confidences.extend(&scores);
                    let text: Vec<&str> = line.words.iter().map(|(text, _, _)| text.as_str()).collect();
                    Line {
                        text: text.join(separator),
                        left: rect.left,
                        top: rect.top,
                        width: rect.width,
                        height: rect.height,
                        confidence: round(mean(&scores)),
                        words: line
                            .words
                            .into_iter()
                            .map(|(text, rect, confidence)| Word {
                                text,
                                left: rect.left,
                                top: rect.top,
                                width: rect.width,
                                height: rect.height,
                                confidence: round(confidence),
                            })
                            .collect(),
                    }
                })
                .collect();
            let confidence = mean(&confidences);
            if lines.is_empty() || confidence < MIN_PARAGRAPH_CONFIDENCE {
                return None;
            }
            Some(Paragraph { text: join_lines(&lines, separator), confidence: round(confidence), lines })
        })
        .collect()
}

fn join_lines(lines: &[Line], separator: &str) -> String {
    let mut text = String::new();
    for line in lines {
        if text.is_empty() {
            text.push_str(&line.text);
            continue;
        }
        let mut ending = text.chars().rev();
        let hyphenated = ending.next() == Some('-') && ending.next().is_some_and(char::is_alphabetic);
        if hyphenated && line.text.chars().next().is_some_and(char::is_lowercase) {
            text.pop();
        } else {
            text.push_str(separator);
        }
        text.push_str(&line.text);
    }
    text
}

/// The mean confidence of every word read, 0 for none.
fn mean_confidence(paragraphs: &[Paragraph]) -> f64 {
    let words: Vec<f64> = paragraphs
        .iter()
        .flat_map(|paragraph| &paragraph.lines)
        .flat_map(|line| &line.words)
        .map(|word| word.confidence)
        .collect();
    mean(&words)
}

/// How much a pass read, and how surely: its words' confidences weighted by their lengths.
fn score(paragraphs: &[Paragraph]) -> f64 {
    paragraphs
        .iter()
        .flat_map(|paragraph| &paragraph.lines)
        .flat_map(|line| &line.words)
        .map(|word| word.confidence * word.text.chars().count() as f64)
        .sum()
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() { 0.0 } else { values.iter().sum::<f64>() / values.len() as f64 }
}

fn round(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tsv(rows: &[&str]) -> String {
        let mut text =
            "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
                .to_string();
        for row in rows {
            text.push_str(&row.replace(' ', "\t").replace('_', " "));
            text.push('\n');
        }
        text
    }

    #[test]
    fn tsv_becomes_paragraphs_of_lines_of_words() {
        let output = tsv(&[
            "1 1 0 0 0 0 0 0 900 260 -1 ",
            "2 1 1 0 0 0 30 34 445 33 -1 ",
            "3 1 1 1 0 0 30 34 445 33 -1 ",
            "4 1 1 1 1 0 30 34 445 33 -1 ",
            "5 1 1 1 1 1 30 34 62 26 96.4 The",
            "5 1 1 1 1 2 106 34 139 26 95.6 weather",
            "5 1 1 1 1 3 250 34 10 26 95 _",
            "4 1 1 1 2 0 30 80 445 33 -1 ",
            "5 1 1 1 2 1 30 80 100 26 90 after-",
            "4 1 1 1 3 0 30 120 445 33 -1 ",
            "5 1 1 1 3 1 30 120 100 26 90 noon",
            "5 1 1 1 3 2 140 120 100 26 90 well-",
            "4 1 1 1 4 0 30 160 445 33 -1 ",
            "5 1 1 1 4 1 30 160 100 26 90 Known",
            "5 1 1 1 4 2 140 160 100 26 90 2-",
            "4 1 1 1 5 0 30 200 445 33 -1 ",
            "5 1 1 1 5 1 30 200 100 26 90 fold",
            "4 1 1 1 6 0 30 240 445 33 -1 ",
            "5 1 1 1 6 1 30 240 10 10 -1 _",
            // A second paragraph of noise (a photo's texture), then an empty one.
            "3 1 1 2 0 0 500 34 100 100 -1 ",
            "4 1 1 2 1 0 500 34 100 30 -1 ",
            "5 1 1 2 1 1 500 34 40 30 12 |{~",
            "5 1 1 2 1 2 540 34 40 30 55 ii",
            "3 1 2 1 0 0 0 0 10 10 -1 ",
            "4 1 2 1 1 0 0 0 10 10 -1 ",
            // A block whose last row lacks its newline-terminated text column.
            "3 1 3 1 0 0 30 300 200 30 -1 ",
            "4 1 3 1 1 0 30 300 200 30 -1 ",
            "5 1 3 1 1 1 31 301 50 25 88.88 Fine.",
        ]);
        let paragraphs = paragraphs(&output, false);
        assert_eq!(paragraphs.len(), 2, "{paragraphs:#?}");
        let first = &paragraphs[0];
        assert_eq!(first.text, "The weather afternoon well- Known 2- fold");
        assert_eq!(first.lines.len(), 5);
        assert_eq!(first.lines[0].text, "The weather");
        assert_eq!(
            (first.lines[0].left, first.lines[0].top, first.lines[0].width, first.lines[0].height),
            (30, 34, 445, 33)
        );
        assert_eq!(first.lines[0].confidence, 96.0);
        assert_eq!(
            first.lines[0].words[1],
            Word { text: "weather".into(), left: 106, top: 34, width: 139, height: 26, confidence: 95.6 }
        );
        assert_eq!(first.confidence, 91.5);
        assert_eq!(paragraphs[1].text, "Fine.");
        assert_eq!(paragraphs[1].confidence, 88.9);
    }

    #[test]
    fn cjk_text_joins_without_spaces_and_lines_fall_back_to_their_words_box() {
        let output = tsv(&[
            "5 1 1 1 1 1 10 10 20 20 91 我们",
            "5 1 1 1 1 2 32 12 20 22 93 去",
            "5 1 1 1 2 1 10 40 20 20 95 海滩。",
        ]);
        let paragraphs = paragraphs(&output, true);
        assert_eq!(paragraphs.len(), 1);
        assert_eq!(paragraphs[0].text, "我们去海滩。");
        assert_eq!(paragraphs[0].lines[0].text, "我们去");
        let line = &paragraphs[0].lines[0];
        assert_eq!((line.left, line.top, line.width, line.height), (10, 10, 42, 24));
        assert!(super::paragraphs("", false).is_empty());
        assert!(super::paragraphs("level\tpage_num\n", false).is_empty());
    }

    #[test]
    fn catalogue_codes_map_to_packs() {
        let installed = ["eng", "deu", "chi_sim", "chi_tra", "nor", "osd", "ara", "est", "lav", "srp_latn", "jpn"];
        let ocr = Ocr::with_packs(Path::new("tesseract"), installed.iter().map(|pack| pack.to_string()));
        for (code, pack) in [
            ("en", "eng"),
            ("de", "deu"),
            ("zh", "chi_sim"),
            ("nb", "nor"),
            ("ar", "ara"),
            ("et", "est"),
            ("lv", "lav"),
            ("sr", "srp_latn"),
            ("ja", "jpn"),
        ] {
            assert_eq!(ocr.pack(code), Some(pack), "{code}");
        }
        for code in ["fr", "ko", "zh-hant", "xx", "EN"] {
            assert_eq!(ocr.pack(code), None, "{code}");
        }
        assert_eq!(ocr.languages(), ["ar", "de", "en", "et", "ja", "lv", "nb", "sr", "yue", "zh"]);
        assert_eq!(ocr.language_of("nor"), "nb");
        assert_eq!(ocr.language_of("chi_sim"), "zh");
        assert_eq!(pack_candidates("de"), ["deu"]);
        assert_eq!(pack_candidates("zh"), ["chi_sim", "chi_tra"]);
        assert!(pack_candidates("xx").is_empty());
        assert_eq!(script_pack("Cyrillic"), "rus");
        assert_eq!(script_pack("Han"), "chi_sim");
        assert_eq!(script_pack("Devanagari"), "eng");
        assert!(!Ocr::with_packs(Path::new("tesseract"), ["osd".to_string()]).available());
    }

    #[test]
    fn a_missing_binary_is_unavailable() {
        let ocr = Ocr::load(Path::new("/nonexistent/tesseract"));
        assert!(!ocr.available() && ocr.languages().is_empty());
        let picture = Picture::from_bytes(crate::picture::tests::sample_png(10, 10)).expect("a PNG");
        assert_eq!(ocr.recognise(&picture, None, |_| None), Err(OcrError::Unavailable));
        // Packs listed, but the binary gone since.
        let gone = Ocr::with_packs(Path::new("/nonexistent/tesseract"), ["eng".to_string()]);
        assert_eq!(gone.recognise(&picture, Some("en"), |_| None), Err(OcrError::Unavailable));
    }

    /// A stand-in for Tesseract that lists a pack and then never answers: killed at the deadline.
    #[test]
    fn a_slow_tesseract_is_killed_at_the_deadline() {
        let directory = tempfile::tempdir().expect("a temporary directory");
        let script = directory.path().join("tesseract");
        std::fs::write(
            &script,
            "#!/bin/sh\nif [ \"$1\" = --list-langs ]; then echo 'List of available languages (1):'; echo eng; exit 0; fi\nexec sleep 30\n",
        )
        .expect("written");
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("executable");
        // Another test's fork may hold the new script open for a moment ("text file busy"): retry.
        let mut ocr = Ocr::load(&script);
        for _ in 0..50 {
            if ocr.available() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
            ocr = Ocr::load(&script);
        }
        let ocr = ocr.with_timeout(Duration::from_millis(300));
        assert_eq!(ocr.languages(), ["en"]);
        let picture = Picture::from_bytes(crate::picture::tests::sample_png(10, 10)).expect("a PNG");
        let started = Instant::now();
        let error = ocr.recognise(&picture, Some("en"), |_| None).expect_err("timed out");
        assert_eq!(error, OcrError::Timeout(Duration::from_millis(300)));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(OcrError::Timeout(TIMEOUT).to_string(), "Reading the image took longer than 60 s");
    }
}
