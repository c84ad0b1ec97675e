//! Quotation marks and apostrophes: `punctuation.quotation_mark`, `quotation_mark_and_apostrophe`,
//! `quotation_style`, `apostrophe`.
//!
//! # Reading the marks
//!
//! Every quotation mark of the text (`" ' “ ” „ ‟ ‘ ’ ‚ ‛ « » ‹ ›`) is read as opening, closing
//! or, for `'` and `’`, an apostrophe, from what stands around it, not from its shape (`“` opens
//! in English and closes in German):
//!
//! * a mark after a space, an opening bracket or a dash and before a word opens; one after a word
//!   and before a space or punctuation closes; guillemets may have a space inside (`« oui »`);
//! * `'` or `’` between two letters is an apostrophe (`don't`, `l'eau`), and so is one before a
//!   digit (`'90s`), those of `'n'`, and one after a word when no single quotation is open (`the boys' toys`); one
//!   before a word opens a quotation only if a closing mark follows (`'tis` is an apostrophe);
//! * where the surroundings do not tell (`他说"你好"`, with no spaces), marks pair up in turn;
//! * a straight mark right after a digit that closes no quotation is a prime (`5' 10"`), left.
//!
//! Nested quotations count: the first level is the primary one, the next the secondary one, and
//! so on. Japanese corner brackets are never rewritten, but count as a level.
//!
//! # Writing them
//!
//! The style gives each level its marks (`“…” ‘…’`, `„…“ ‚…‘`, `«…» “…”`, `»…« ›…‹`, `「…」『…』`,
//! straight `"…" '…'`); two-level styles alternate for deeper levels, and the three-level one
//! repeats its last. The options about the marks' shape only (`use_curly_quotation_marks`,
//! `use_straight_quotation_marks`, and the same with apostrophes) keep each mark's kind: double
//! marks stay double, single ones single. Where a style says double or single marks but not
//! their shape, each mark keeps its shape: straight stays straight, any other becomes curly. `use_guillemets` means `»…«` in
//! German lists, `«…»` elsewhere. In French lists guillemets take a narrow no-break space
//! inside (`« oui »`), or what `spacing_and_punctuation` says; elsewhere none.
//!
//! The apostrophe rules rewrite only marks read as apostrophes. Precedence when several rules are
//! set: `quotation_style`, then `quotation_mark_and_apostrophe`, then `quotation_mark`; for
//! apostrophes `apostrophe`, then `quotation_mark_and_apostrophe`.
//!
//! Not mechanical: `highlighting_specific_expressions` and `setting_off_non_quoted_phrases`
//! (which quotations they are about is a matter of meaning).

use super::text::{Lang, Text, is_cjk, is_mask, is_space};
use crate::ConfiguredRules;

const CATEGORY: &str = "punctuation";

/// An opening and a closing mark.
type Pair = (char, char);

/// Quotation marks for each level of nesting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Style {
    levels: &'static [Pair],
    /// For levels past the last: alternate (else repeat the last).
    alternate: bool,
    /// The marks for marks written straight, when a style keeps each mark's shape.
    straight: Option<&'static [Pair]>,
    /// Levels follow each mark's kind (double marks take the first, single marks the second)
    /// rather than nesting: for options about the marks' shape only.
    by_kind: bool,
}

const CURLY: &[Pair] = &[('“', '”'), ('‘', '’')];
const STRAIGHT: &[Pair] = &[('"', '"'), ('\'', '\'')];
const GERMAN: &[Pair] = &[('„', '“'), ('‚', '‘')];
const GUILLEMETS_CURLY: &[Pair] = &[('«', '»'), ('“', '”')];
const GUILLEMETS_STRAIGHT: &[Pair] = &[('«', '»'), ('"', '"')];
const GUILLEMETS_SINGLE: &[Pair] = &[('«', '»'), ('‹', '›')];
const GUILLEMETS_THREE: &[Pair] = &[('«', '»'), ('“', '”'), ('‘', '’')];
const REVERSED: &[Pair] = &[('»', '«'), ('›', '‹')];
const CORNER: &[Pair] = &[('「', '」'), ('『', '』')];
const SINGLE_FIRST_CURLY: &[Pair] = &[('‘', '’'), ('“', '”')];
const SINGLE_FIRST_STRAIGHT: &[Pair] = &[('\'', '\''), ('"', '"')];

const fn style(levels: &'static [Pair]) -> Style {
    Style { levels, alternate: true, straight: None, by_kind: false }
}

/// A style that changes the marks' shape, not their kind.
const fn shape(levels: &'static [Pair]) -> Style {
    Style { levels, alternate: true, straight: None, by_kind: true }
}

/// Guillemets as a list's language writes them.
fn guillemets(lang: Lang) -> Style {
    style(if lang == Lang::De { REVERSED } else { GUILLEMETS_CURLY })
}

fn quotation_mark(option: &str, lang: Lang) -> Option<Style> {
    Some(match option {
        "use_curly_quotation_marks" => shape(CURLY),
        "use_straight_quotation_marks" => shape(STRAIGHT),
        "use_double_curly_quotation_marks" => style(CURLY),
        "use_double_straight_quotation_marks" => style(STRAIGHT),
        "use_guillemets" => guillemets(lang),
        _ => return None,
    })
}

/// The quotation marks and apostrophe of a `quotation_mark_and_apostrophe` option.
fn quotation_mark_and_apostrophe(option: &str, lang: Lang) -> Option<(Style, char)> {
    Some(match option {
        "use_curly_quotation_marks_and_apostrophes" => (shape(CURLY), '’'),
        "use_double_and_single_curly_quotation_marks_and_curly_apostrophes" => (style(CURLY), '’'),
        "use_double_and_single_straight_quotation_marks_and_straight_apostrophes" => (style(STRAIGHT), '\''),
        "use_straight_quotation_marks_and_apostrophes" => (shape(STRAIGHT), '\''),
        "use_guillemets_and_curly_apostrophes" => (guillemets(lang), '’'),
        "use_guillemets_and_straight_apostrophes" => (guillemets(lang), '\''),
        _ => return None,
    })
}

fn quotation_style(option: &str) -> Option<Style> {
    Some(match option {
        "use_corner_brackets_for_primary_quotations_and_double_corner_brackets_for_secondary_quotations" => {
            style(CORNER)
        }
        "use_double_curly_quotation_marks_for_primary_quotations_and_single_curly_quotation_marks_for_secondary_quotations"
        | "use_double_curly_quotation_marks_for_primary_quotations_then_alternate_with_single_curly_quotation_marks_for_nested_quotations" => {
            style(CURLY)
        }
        "use_double_german_quotation_marks_for_primary_quotations_and_single_german_quotation_marks_for_secondary_quotations" => {
            style(GERMAN)
        }
        "use_double_quotation_marks_for_primary_quotations_and_single_quotation_marks_for_secondary_quotations" => {
            Style { levels: CURLY, alternate: true, straight: Some(STRAIGHT), by_kind: false }
        }
        "use_double_straight_quotation_marks_for_primary_quotations_and_single_straight_quotation_marks_for_secondary_quotations"
        | "use_double_straight_quotation_marks_for_primary_quotations_then_alternate_with_single_straight_quotation_marks_for_nested_quotations" => {
            style(STRAIGHT)
        }
        "use_guillemets_for_primary_quotations_and_double_curly_quotation_marks_for_secondary_quotations" => {
            style(GUILLEMETS_CURLY)
        }
        "use_guillemets_for_primary_quotations_and_double_straight_quotation_marks_for_secondary_quotations" => {
            style(GUILLEMETS_STRAIGHT)
        }
        "use_guillemets_for_primary_quotations_and_single_guillemets_for_secondary_quotations" => {
            style(GUILLEMETS_SINGLE)
        }
        "use_guillemets_for_primary_quotations_double_curly_quotation_marks_for_secondary_quotations_and_single_curly_quotation_marks_for_further_nested_quotations" => {
            Style { levels: GUILLEMETS_THREE, alternate: false, straight: None, by_kind: false }
        }
        "use_reversed_guillemets_for_primary_quotations_and_single_reversed_guillemets_for_secondary_quotations" => {
            style(REVERSED)
        }
        "use_single_quotation_marks_for_primary_quotations_and_double_quotation_marks_for_secondary_quotations" => {
            Style { levels: SINGLE_FIRST_CURLY, alternate: true, straight: Some(SINGLE_FIRST_STRAIGHT), by_kind: false }
        }
        _ => return None,
    })
}

fn apostrophe(option: &str) -> Option<char> {
    match option {
        "use_curly_apostrophes" => Some('’'),
        "use_straight_apostrophes" => Some('\''),
        _ => None,
    }
}

/// Whether this family applies (category, rule, option).
pub(super) fn understands(category: &str, rule: &str, option: &str) -> bool {
    category == CATEGORY
        && match rule {
            "quotation_mark" => quotation_mark(option, Lang::Other).is_some(),
            "quotation_mark_and_apostrophe" => quotation_mark_and_apostrophe(option, Lang::Other).is_some(),
            "quotation_style" => quotation_style(option).is_some(),
            "apostrophe" => apostrophe(option).is_some(),
            _ => false,
        }
}

/// The quotation rules of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Quotes {
    style: Option<Style>,
    apostrophe: Option<char>,
    /// The space inside guillemets.
    guillemet_space: Option<char>,
}

impl Quotes {
    pub(super) fn new(rules: &ConfiguredRules, lang: Lang) -> Option<Quotes> {
        let get = |rule| rules.get(CATEGORY, rule);
        let both = get("quotation_mark_and_apostrophe").and_then(|option| quotation_mark_and_apostrophe(option, lang));
        let style = get("quotation_style")
            .and_then(quotation_style)
            .or(both.map(|(style, _)| style))
            .or(get("quotation_mark").and_then(|option| quotation_mark(option, lang)));
        let apostrophe = get("apostrophe").and_then(apostrophe).or(both.map(|(_, apostrophe)| apostrophe));
        let guillemet_space = match (lang, get("spacing_and_punctuation")) {
            (Lang::Fr, Some("use_regular_space")) => Some(' '),
            (Lang::Fr, Some("do_not_use_space")) => None,
            (Lang::Fr, _) => Some('\u{202f}'),
            _ => None,
        };
        (style.is_some() || apostrophe.is_some()).then_some(Quotes { style, apostrophe, guillemet_space })
    }

    pub(super) fn apply(&self, text: &mut Text) {
        let marks = read(text);
        if marks.is_empty() {
            return;
        }
        let chars = &text.chars;
        // What each character becomes: `None` keeps it.
        let mut edits: Vec<Option<String>> = vec![None; chars.len()];
        for mark in &marks {
            match mark.role {
                Role::Apostrophe => {
                    if let Some(apostrophe) = self.apostrophe {
                        edits[mark.at] = Some(apostrophe.to_string());
                    }
                }
                Role::Corner | Role::Keep => {}
                Role::Open | Role::Close => {
                    let Some(style) = self.style else {
                        continue;
                    };
                    let straight = matches!(chars[mark.at], '"' | '\'');
                    let levels = match style.straight {
                        Some(levels) if straight => levels,
                        _ => style.levels,
                    };
                    let depth = if style.by_kind { usize::from(mark.kind == Kind::Single) } else { mark.depth };
                    let level = if depth < levels.len() {
                        depth
                    } else if style.alternate {
                        depth % levels.len()
                    } else {
                        levels.len() - 1
                    };
                    let (open, close) = levels[level];
                    let glyph = if mark.role == Role::Open { open } else { close };
                    let guillemet = matches!(glyph, '«' | '»' | '‹' | '›');
                    let space = if guillemet { self.guillemet_space } else { None };
                    let space: String = space.into_iter().collect();
                    match (mark.role, mark.inner_space) {
                        (Role::Open, Some(inner)) => {
                            edits[mark.at] = Some(glyph.to_string());
                            edits[inner] = Some(space);
                        }
                        (Role::Open, None) => edits[mark.at] = Some(format!("{glyph}{space}")),
                        (_, Some(inner)) => {
                            edits[mark.at] = Some(glyph.to_string());
                            edits[inner] = Some(space);
                        }
                        (_, None) => edits[mark.at] = Some(format!("{space}{glyph}")),
                    }
                }
            }
        }
        let mut out = Vec::with_capacity(chars.len() + 8);
        for (c, edit) in chars.iter().zip(edits) {
            match edit {
                Some(edit) => out.extend(edit.chars()),
                None => out.push(*c),
            }
        }
        text.chars = out;
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Open,
    Close,
    Apostrophe,
    /// A corner bracket: counted, never rewritten.
    Corner,
    /// Not a quotation mark (a prime: `5' 10"`).
    Keep,
}

/// A quotation mark read in a text.
#[derive(Debug)]
struct Mark {
    at: usize,
    kind: Kind,
    role: Role,
    /// The level of nesting of its quotation (0: primary).
    depth: usize,
    /// A space inside guillemets (`« oui »`), which belongs to the mark.
    inner_space: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Double,
    Single,
    Corner,
    DoubleCorner,
}

fn kind(c: char) -> Option<Kind> {
    match c {
        '"' | '“' | '”' | '„' | '‟' | '«' | '»' => Some(Kind::Double),
        '\'' | '‘' | '’' | '‚' | '‛' | '‹' | '›' => Some(Kind::Single),
        '「' | '」' => Some(Kind::Corner),
        '『' | '』' => Some(Kind::DoubleCorner),
        _ => None,
    }
}

/// Characters after which a quotation may open.
fn opens_after(c: char) -> bool {
    c.is_whitespace()
        || matches!(c, '(' | '[' | '{' | '—' | '–' | '-' | '/' | '¿' | '¡' | '（' | '［')
        || kind(c).is_some()
}

/// Characters before which a quotation may close.
fn closes_before(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '.' | ','
                | ';'
                | ':'
                | '!'
                | '?'
                | ')'
                | ']'
                | '}'
                | '—'
                | '–'
                | '-'
                | '…'
                | '/'
                | '，'
                | '。'
                | '、'
                | '！'
                | '？'
                | '：'
                | '；'
                | '）'
        )
        || kind(c).is_some()
}

/// Every quotation mark of the text, read.
fn read(text: &Text) -> Vec<Mark> {
    let chars = &text.chars;
    let masks = &text.masks;
    let candidates: Vec<usize> = (0..chars.len()).filter(|&i| !is_mask(chars[i]) && kind(chars[i]).is_some()).collect();
    // How each candidate may act, from its surroundings.
    let flanks: Vec<(bool, bool)> = candidates.iter().map(|&i| flanking(text, i)).collect();
    // Whether a single mark that can only close comes after each candidate.
    let mut closer_after = vec![false; candidates.len()];
    for n in (0..candidates.len().saturating_sub(1)).rev() {
        let (open, close) = flanks[n + 1];
        let closes = kind(chars[candidates[n + 1]]) == Some(Kind::Single) && close && !open;
        closer_after[n] = closer_after[n + 1] || closes;
    }
    let mut marks = Vec::with_capacity(candidates.len());
    let mut stack: Vec<Kind> = Vec::new();
    for (n, &i) in candidates.iter().enumerate() {
        let c = chars[i];
        let kind = kind(c).unwrap_or(Kind::Double);
        if matches!(kind, Kind::Corner | Kind::DoubleCorner) {
            let opening = matches!(c, '「' | '『');
            let depth = if opening {
                stack.push(kind);
                stack.len() - 1
            } else {
                close(&mut stack, kind)
            };
            marks.push(Mark { at: i, kind, role: Role::Corner, depth, inner_space: None });
            continue;
        }
        let prev = masks.prev(chars, i);
        let next = masks.next(chars, i);
        let letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() && !is_cjk(c));
        let (can_open, can_close) = flanks[n];
        let apostrophe_shape = matches!(c, '\'' | '’');
        let single_open = stack.contains(&Kind::Single);
        // `rock 'n' roll`: both marks of `'n'` are apostrophes.
        let elided_n =
            |at: usize| chars.get(at..at + 3).is_some_and(|word| matches!(word, ['\'' | '’', 'n', '\'' | '’']));
        let inside_word = letter(prev) && letter(next) || elided_n(i) || i >= 2 && elided_n(i - 2);
        let before_digit = !can_close && next.is_some_and(|c| c.is_ascii_digit());
        // `5' 10"`: a straight mark right after a digit that closes nothing is a prime.
        let prime = matches!(c, '"' | '\'') && i > 0 && chars[i - 1].is_ascii_digit() && !stack.contains(&kind);
        let role = if prime {
            Role::Keep
        } else if kind == Kind::Single && apostrophe_shape && (inside_word || before_digit) {
            Role::Apostrophe
        } else if can_open && !can_close {
            // A single mark opens only if a closing single mark follows (`'tis` does not).
            if kind == Kind::Single && apostrophe_shape && !closer_after[n] { Role::Apostrophe } else { Role::Open }
        } else if can_close && !can_open {
            if kind == Kind::Single && apostrophe_shape && !single_open { Role::Apostrophe } else { Role::Close }
        } else if stack.last() == Some(&kind) {
            Role::Close
        } else {
            Role::Open
        };
        let depth = match role {
            Role::Open => {
                stack.push(kind);
                stack.len() - 1
            }
            Role::Close => close(&mut stack, kind),
            Role::Apostrophe | Role::Corner | Role::Keep => 0,
        };
        let inner_space = match role {
            Role::Open if matches!(c, '«' | '»' | '‹' | '›') => {
                masks.next_index(chars, i).filter(|&j| j == i + 1 && is_space(chars[j]))
            }
            Role::Close if matches!(c, '«' | '»' | '‹' | '›') => {
                masks.prev_index(chars, i).filter(|&j| j + 1 == i && is_space(chars[j]))
            }
            _ => None,
        };
        marks.push(Mark { at: i, kind, role, depth, inner_space });
    }
    marks
}

/// Closes the innermost open quotation of `kind`; the depth it was opened at (0 if none was).
fn close(stack: &mut Vec<Kind>, kind: Kind) -> usize {
    match stack.iter().rposition(|open| *open == kind) {
        Some(depth) => {
            stack.truncate(depth);
            depth
        }
        None => 0,
    }
}

/// Whether the mark at `i` may open, and whether it may close, a quotation.
fn flanking(text: &Text, i: usize) -> (bool, bool) {
    let chars = &text.chars;
    let masks = &text.masks;
    let mut prev = masks.prev(chars, i);
    let mut next = masks.next(chars, i);
    // Guillemets may have a space inside: look past it.
    if matches!(chars[i], '«' | '»' | '‹' | '›') {
        let spaced_after = chars.get(i + 1).is_some_and(|c| is_space(*c));
        let spaced_before = i > 0 && is_space(chars[i - 1]);
        if spaced_after && !spaced_before {
            next = masks.next(chars, i + 1);
        } else if spaced_before && !spaced_after {
            prev = masks.prev(chars, i - 1);
        }
    }
    // Between characters of unspaced scripts the surroundings tell nothing.
    if prev.is_some_and(is_cjk) || next.is_some_and(is_cjk) {
        return (true, true);
    }
    let can_open = next.is_some_and(|n| !n.is_whitespace() && !closes_before(n) || kind(n).is_some())
        && prev.is_none_or(opens_after);
    let can_close =
        prev.is_some_and(|p| !p.is_whitespace() && !matches!(p, '(' | '[' | '{')) && next.is_none_or(closes_before);
    (can_open, can_close)
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::tests::{Example, check_examples, rewrite};

    const STYLE: &str = "quotation_style";
    const MARK: &str = "quotation_mark";
    const BOTH: &str = "quotation_mark_and_apostrophe";

    /// One example or more per mechanical option of this family.
    pub(in crate::mechanical) const EXAMPLES: &[Example] = &[
        ("punctuation", MARK, "use_curly_quotation_marks", "en", "He said \"it's 'fine'\".", "He said “it's ‘fine’”."),
        ("punctuation", MARK, "use_curly_quotation_marks", "en", "She said 'yes'.", "She said ‘yes’."),
        ("punctuation", MARK, "use_double_curly_quotation_marks", "it", "Disse \"ciao\".", "Disse “ciao”."),
        ("punctuation", MARK, "use_double_straight_quotation_marks", "en", "He said “hi”.", "He said \"hi\"."),
        ("punctuation", MARK, "use_guillemets", "fr", "Il a dit \"oui\".", "Il a dit «\u{202f}oui\u{202f}»."),
        ("punctuation", MARK, "use_guillemets", "de", "Er sagte „ja“.", "Er sagte »ja«."),
        ("punctuation", MARK, "use_straight_quotation_marks", "en", "“It’s ‘fine’”", "\"It’s 'fine'\""),
        (
            "punctuation",
            BOTH,
            "use_curly_quotation_marks_and_apostrophes",
            "en",
            "\"It's 'fine'\", the boys' toys.",
            "“It’s ‘fine’”, the boys’ toys.",
        ),
        (
            "punctuation",
            BOTH,
            "use_double_and_single_curly_quotation_marks_and_curly_apostrophes",
            "en",
            "'Tis \"rock'n'roll\" in the '90s.",
            "’Tis “rock’n’roll” in the ’90s.",
        ),
        (
            "punctuation",
            BOTH,
            "use_double_and_single_straight_quotation_marks_and_straight_apostrophes",
            "en",
            "“It’s ‘fine’”",
            "\"It's 'fine'\"",
        ),
        (
            "punctuation",
            BOTH,
            "use_guillemets_and_curly_apostrophes",
            "fr",
            "\"L'eau\" est là.",
            "«\u{202f}L’eau\u{202f}» est là.",
        ),
        ("punctuation", BOTH, "use_guillemets_and_straight_apostrophes", "it", "“L’acqua” è qui.", "«L'acqua» è qui."),
        ("punctuation", BOTH, "use_straight_quotation_marks_and_apostrophes", "en", "« It’s »", "\"It's\""),
        (
            "punctuation",
            STYLE,
            "use_corner_brackets_for_primary_quotations_and_double_corner_brackets_for_secondary_quotations",
            "ja",
            "彼は“こんにちは‘世界’”と言った。",
            "彼は「こんにちは『世界』」と言った。",
        ),
        (
            "punctuation",
            STYLE,
            "use_double_curly_quotation_marks_for_primary_quotations_and_single_curly_quotation_marks_for_secondary_quotations",
            "en",
            "'He said \"hi\"' - done.",
            "“He said ‘hi’” - done.",
        ),
        (
            "punctuation",
            STYLE,
            "use_double_curly_quotation_marks_for_primary_quotations_then_alternate_with_single_curly_quotation_marks_for_nested_quotations",
            "en",
            "\"a 'b \"c\" b' a\"",
            "“a ‘b “c” b’ a”",
        ),
        (
            "punctuation",
            STYLE,
            "use_double_german_quotation_marks_for_primary_quotations_and_single_german_quotation_marks_for_secondary_quotations",
            "de",
            "Er sagte: \"Das ist 'gut'.\"",
            "Er sagte: „Das ist ‚gut‘.“",
        ),
        (
            "punctuation",
            STYLE,
            "use_double_quotation_marks_for_primary_quotations_and_single_quotation_marks_for_secondary_quotations",
            "en",
            "'a \"b\" a' and «c»",
            "\"a 'b' a\" and “c”",
        ),
        (
            "punctuation",
            STYLE,
            "use_double_straight_quotation_marks_for_primary_quotations_and_single_straight_quotation_marks_for_secondary_quotations",
            "en",
            "„a ‚b‘ a“",
            "\"a 'b' a\"",
        ),
        (
            "punctuation",
            STYLE,
            "use_double_straight_quotation_marks_for_primary_quotations_then_alternate_with_single_straight_quotation_marks_for_nested_quotations",
            "en",
            "“a ‘b “c” b’ a”",
            "\"a 'b \"c\" b' a\"",
        ),
        (
            "punctuation",
            STYLE,
            "use_guillemets_for_primary_quotations_and_double_curly_quotation_marks_for_secondary_quotations",
            "es",
            "Dijo \"hola 'amigo'\".",
            "Dijo «hola “amigo”».",
        ),
        (
            "punctuation",
            STYLE,
            "use_guillemets_for_primary_quotations_and_double_straight_quotation_marks_for_secondary_quotations",
            "it",
            "Disse “ciao ‘amico’”.",
            "Disse «ciao \"amico\"».",
        ),
        (
            "punctuation",
            STYLE,
            "use_guillemets_for_primary_quotations_and_single_guillemets_for_secondary_quotations",
            "fr",
            "Il dit “oui ‘non’”.",
            "Il dit «\u{202f}oui ‹\u{202f}non\u{202f}›\u{202f}».",
        ),
        (
            "punctuation",
            STYLE,
            "use_guillemets_for_primary_quotations_double_curly_quotation_marks_for_secondary_quotations_and_single_curly_quotation_marks_for_further_nested_quotations",
            "fr",
            "« a “b ‘c’ b” a »",
            "«\u{202f}a “b ‘c’ b” a\u{202f}»",
        ),
        (
            "punctuation",
            STYLE,
            "use_reversed_guillemets_for_primary_quotations_and_single_reversed_guillemets_for_secondary_quotations",
            "de",
            "Er sagte „ja ‚gern‘“.",
            "Er sagte »ja ›gern‹«.",
        ),
        (
            "punctuation",
            STYLE,
            "use_single_quotation_marks_for_primary_quotations_and_double_quotation_marks_for_secondary_quotations",
            "en",
            "\"a 'b' a\" and “c”",
            "'a \"b\" a' and ‘c’",
        ),
        ("punctuation", "apostrophe", "use_curly_apostrophes", "en", "It's 'ok', isn't it?", "It’s 'ok', isn’t it?"),
        ("punctuation", "apostrophe", "use_straight_apostrophes", "fr", "L’eau, ‘oui’.", "L'eau, ‘oui’."),
    ];

    #[test]
    fn examples_hold() {
        check_examples(EXAMPLES);
    }

    const CURLY: (&str, &str, &str) = ("punctuation", "quotation_mark", "use_curly_quotation_marks");

    #[test]
    fn primes_after_digits_are_not_quotation_marks() {
        assert_eq!(rewrite(&[CURLY], "en", "Size 5' 10\" and \"5 feet\""), "Size 5' 10\" and “5 feet”");
        assert_eq!(rewrite(&[CURLY], "en", "\"Route 66\" is long"), "“Route 66” is long");
    }

    #[test]
    fn a_quotation_across_tags_is_one_quotation() {
        assert_eq!(
            rewrite(&[CURLY], "en", "\"<g1>Hello</g1>\" and <g2>\"x</g2> y\""),
            "“<g1>Hello</g1>” and <g2>“x</g2> y”"
        );
    }

    #[test]
    fn marks_between_unspaced_words_pair_up_in_turn() {
        assert_eq!(rewrite(&[CURLY], "zh", "他说\"你好\"，她说\"再见\"。"), "他说“你好”，她说“再见”。");
    }

    #[test]
    fn french_guillemets_keep_or_take_their_spaces() {
        let rule = ("punctuation", "quotation_mark", "use_guillemets");
        assert_eq!(rewrite(&[rule], "fr", "« oui » et «non»"), "«\u{202f}oui\u{202f}» et «\u{202f}non\u{202f}»");
        let spacing = ("punctuation", "spacing_and_punctuation", "do_not_use_space");
        assert_eq!(rewrite(&[rule, spacing], "fr", "“oui”"), "«oui»");
        assert_eq!(rewrite(&[CURLY], "fr", "« oui »"), "“oui”");
    }

    #[test]
    fn a_quotation_split_across_sentences_still_converts() {
        assert_eq!(rewrite(&[CURLY], "en", "\"Hello."), "“Hello.");
        assert_eq!(rewrite(&[CURLY], "en", "World.\""), "World.”");
    }
}
