//! The rule engine: phrase tables applied by whole words, and the two rewrites that need a whole
//! sentence (splitting a long one, putting "Please" before a request).
//!
//! A [`Recipe`] is what one style or tone does in one language: a description (the README table
//! and [`super::rule_based_effect`] show it) and its [`Step`]s. Running a recipe applies its steps
//! in order, again and again until the text no longer changes (at most [`MAX_ROUNDS`] times), so
//! running it on its own output changes nothing: every recipe is idempotent.
//!
//! A [`Rule`] replaces a phrase: its words, spaces and punctuation must match whole tokens (so
//! never inside another word), in any case, never across a line break or an opaque span (markup,
//! placeholders, code, addresses: see `text.rs`). Where several rules match at one place the
//! longest wins, then the first in the table. The replacement takes the case the phrase was
//! written in (`Do not` → `Don't`, `DO NOT` → `DON'T`) and the text's apostrophe (`’` in a text
//! that uses only those). An empty replacement deletes the phrase with the space after it; a
//! deleted phrase that started a sentence hands its capital to the next word. [`Guard`]s say
//! where a rule applies, from the words around it.

use crate::request::{Change, Style, Tone};

use super::text::{
    Case, Grammar, Kind, Place, Token, apostrophe_of, capitalise, case_of, decapitalise, in_case, is_lower_word,
    is_upper_word, normalise, places, sentences, tokenize, word_count,
};

/// How often a recipe's steps run at most before its result is taken (each round is needed only
/// when the previous one made a new match possible: a dropped hedge exposing another).
const MAX_ROUNDS: usize = 8;

/// Where a rule applies: every guard of the rule must hold. "Next" and "previous" skip the
/// spaces within a line, never a line break; word lists are lower case.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Guard {
    /// The phrase starts a sentence.
    SentenceStart,
    /// The phrase does not start a sentence.
    NotSentenceStart,
    /// The phrase is not in a question (a sentence ending with `?`): "Perhaps we could meet?"
    /// is a suggestion, not a hedged statement.
    NotInQuestion,
    /// The phrase ends its sentence: next is `.`, `!`, `?`, `…`, a line break or the end.
    SentenceEnd,
    /// The phrase is a sentence of its own: it starts one, and whitespace or the end follows it
    /// (used by phrases that include their final mark).
    WholeSentence,
    /// A space and a word follow.
    BeforeWord,
    /// The next word or mark is one of these.
    BeforeAny(&'static [&'static str]),
    /// The next word or mark (if any) is none of these.
    NotBefore(&'static [&'static str]),
    /// A word and a space come just before.
    AfterWord,
    /// The previous word or mark is one of these.
    AfterAny(&'static [&'static str]),
    /// The previous word or mark (if any) is none of these.
    NotAfter(&'static [&'static str]),
    /// German: a noun follows (a capitalised word), which is none of these and is not followed by
    /// a comma (a noun before a comma may carry a relative clause that wants the full article).
    BeforeNoun(&'static [&'static str]),
    /// The phrase does not follow `,`, `;`, `:`, `(` or a dash (German: a preposition there may
    /// open a relative clause, `das Haus, in das wir ziehen`).
    NotAfterClauseMark,
    /// Next is a comma, a line break or the end (a greeting or a closing on its own line).
    BeforeCommaOrLineEnd,
    /// The text has the key's exact case (its first letter may be a capital); the replacement is
    /// written as the table writes it, capitalised at the start of a sentence (acronyms, German
    /// nouns).
    ExactCase,
}

/// One phrase and its replacement.
#[derive(Debug)]
pub(crate) struct Rule {
    /// Words, spaces and punctuation, lower case unless the rule is [`Guard::ExactCase`].
    pub from: &'static str,
    /// The replacement; empty to delete the phrase.
    pub to: &'static str,
    pub when: &'static [Guard],
}

impl Rule {
    /// A rule that applies wherever its phrase is.
    pub const fn new(from: &'static str, to: &'static str) -> Rule {
        Rule { from, to, when: &[] }
    }

    /// A rule that applies where every guard holds.
    pub const fn when(from: &'static str, to: &'static str, when: &'static [Guard]) -> Rule {
        Rule { from, to, when }
    }

    fn exact_case(&self) -> bool {
        self.when.iter().any(|guard| matches!(guard, Guard::ExactCase))
    }
}

/// Where a long sentence may be cut in two.
#[derive(Debug)]
pub(crate) struct Splitting {
    /// A sentence with more words than this is cut.
    pub max_words: usize,
    /// Neither part may have fewer words.
    pub min_part_words: usize,
    /// `, <conjunction>` and what the second sentence starts with instead (empty: nothing, so it
    /// starts with its subject).
    pub joins: &'static [(&'static str, &'static str)],
    /// The conjunction must be followed by one of these (a subject: the second part is a clause of
    /// its own, not a list's last item).
    pub subjects: &'static [&'static str],
}

/// A request made politer with "Please": a sentence that starts with one of the verbs, followed
/// by one of the words, ends with `.` or `!` and has no "please" yet.
#[derive(Debug)]
pub(crate) struct Imperatives {
    pub verbs: &'static [&'static str],
    pub followed_by: &'static [&'static str],
    /// Whether the word after the verb must have the list's case (German `Sie`, the polite you,
    /// not `sie`).
    pub followed_by_exact_case: bool,
    /// Whether a sentence with a comma is left alone (German: `Haben Sie Fragen, melden Sie sich`
    /// is a condition, not a request).
    pub without_comma: bool,
    /// The word to put first: `Please`, `Bitte`.
    pub please: &'static str,
}

/// One step of a recipe.
#[derive(Debug)]
pub(crate) enum Step {
    Phrases(&'static [Rule]),
    Split(&'static Splitting),
    Please(&'static Imperatives),
}

/// What one style or tone does in one language.
#[derive(Debug)]
pub(crate) struct Recipe {
    pub description: &'static str,
    pub steps: &'static [Step],
}

/// One language's recipe for each style and tone.
pub(crate) struct Recipes {
    pub casual: &'static Recipe,
    pub business: &'static Recipe,
    pub academic: &'static Recipe,
    pub simple: &'static Recipe,
    pub confident: &'static Recipe,
    pub diplomatic: &'static Recipe,
    pub enthusiastic: &'static Recipe,
    pub friendly: &'static Recipe,
}

impl Recipes {
    /// The recipe for `change`.
    pub fn get(&self, change: Change) -> &'static Recipe {
        match change {
            Change::Style(Style::Casual) => self.casual,
            Change::Style(Style::Business) => self.business,
            Change::Style(Style::Academic) => self.academic,
            Change::Style(Style::Simple) => self.simple,
            Change::Tone(Tone::Confident) => self.confident,
            Change::Tone(Tone::Diplomatic) => self.diplomatic,
            Change::Tone(Tone::Enthusiastic) => self.enthusiastic,
            Change::Tone(Tone::Friendly) => self.friendly,
        }
    }
}

impl Recipe {
    /// Rewrites `text`; every rule that fired is added to `trace`.
    pub fn run(&self, grammar: &Grammar, text: &str, trace: &mut Vec<&'static Rule>) -> String {
        let apostrophe = apostrophe_of(text);
        let mut current = text.to_owned();
        for _ in 0..MAX_ROUNDS {
            let mut next = current.clone();
            for step in self.steps {
                next = match step {
                    Step::Phrases(rules) => apply_phrases(&next, rules, grammar, apostrophe, trace),
                    Step::Split(splitting) => split_long_sentences(&next, splitting, grammar),
                    Step::Please(imperatives) => add_please(&next, imperatives, grammar),
                };
            }
            if next == current {
                break;
            }
            current = next;
        }
        current
    }
}

/// A rule's phrase as tokens, lower case.
struct Key {
    rule: &'static Rule,
    atoms: Vec<(Kind, &'static str, String)>,
}

impl Key {
    fn new(rule: &'static Rule) -> Key {
        let atoms =
            tokenize(rule.from).into_iter().map(|token| (token.kind, token.text, normalise(token.text))).collect();
        Key { rule, atoms }
    }

    /// Where the phrase ends if it starts at `at`.
    fn match_at(&self, tokens: &[Token<'_>], norm: &[String], at: usize) -> Option<usize> {
        for (offset, (kind, _, atom)) in self.atoms.iter().enumerate() {
            let index = at + offset;
            let token = tokens.get(index)?;
            let same = token.kind == *kind
                && match kind {
                    Kind::Space => true,
                    Kind::Word | Kind::Punct => norm[index] == *atom,
                    Kind::Break | Kind::Opaque => false,
                };
            if !same {
                return None;
            }
        }
        Some(at + self.atoms.len())
    }
}

/// A match and what is around it.
struct Context<'a> {
    tokens: &'a [Token<'a>],
    norm: &'a [String],
    places: &'a [Place],
    start: usize,
    end: usize,
}

impl Context<'_> {
    /// The first token after the match that is not a space within the line.
    fn next(&self) -> Option<usize> {
        (self.end..self.tokens.len()).find(|&index| !self.tokens[index].is(Kind::Space))
    }

    /// The last token before the match that is not a space within the line.
    fn previous(&self) -> Option<usize> {
        (0..self.start).rev().find(|&index| !self.tokens[index].is(Kind::Space))
    }

    /// Whether the token at `index` (if any) is a word or mark of `list`.
    fn one_of(&self, index: Option<usize>, list: &[&str]) -> bool {
        index.is_some_and(|index| !self.tokens[index].is(Kind::Break) && list.contains(&self.norm[index].as_str()))
    }

    fn word_at(&self, index: usize) -> Option<&Token<'_>> {
        self.tokens.get(index).filter(|token| token.is(Kind::Word))
    }

    fn holds(&self, guard: &Guard, key: &Key) -> bool {
        let tokens = self.tokens;
        match *guard {
            Guard::SentenceStart => self.places[self.start].start,
            Guard::NotSentenceStart => !self.places[self.start].start,
            Guard::NotInQuestion => !self.places[self.start].question,
            Guard::SentenceEnd => {
                self.next().is_none_or(|index| tokens[index].is(Kind::Break) || tokens[index].is_terminal())
            }
            Guard::WholeSentence => {
                self.places[self.start].start
                    && tokens.get(self.end).is_none_or(|token| token.is(Kind::Space) || token.is(Kind::Break))
            }
            Guard::BeforeWord => {
                tokens.get(self.end).is_some_and(|token| token.is(Kind::Space)) && self.word_at(self.end + 1).is_some()
            }
            Guard::BeforeAny(list) => self.one_of(self.next(), list),
            Guard::NotBefore(list) => !self.one_of(self.next(), list),
            Guard::AfterWord => {
                self.start >= 2 && tokens[self.start - 1].is(Kind::Space) && tokens[self.start - 2].is(Kind::Word)
            }
            Guard::AfterAny(list) => self.one_of(self.previous(), list),
            Guard::NotAfter(list) => !self.one_of(self.previous(), list),
            Guard::BeforeNoun(except) => {
                let noun = self.end + 1;
                tokens.get(self.end).is_some_and(|token| token.is(Kind::Space))
                    && self.word_at(noun).is_some_and(|word| word.text.chars().next().is_some_and(char::is_uppercase))
                    && !except.contains(&self.norm[noun].as_str())
                    && !(noun + 1..tokens.len())
                        .find(|&index| !tokens[index].is(Kind::Space))
                        .is_some_and(|index| tokens[index].is_punct(','))
            }
            Guard::NotAfterClauseMark => !self
                .previous()
                .is_some_and(|index| [',', ';', ':', '(', '–', '—'].iter().any(|&mark| tokens[index].is_punct(mark))),
            Guard::BeforeCommaOrLineEnd => {
                self.next().is_none_or(|index| tokens[index].is(Kind::Break) || tokens[index].is_punct(','))
            }
            Guard::ExactCase => key.atoms.iter().enumerate().all(|(offset, (kind, written, _))| {
                let text = tokens[self.start + offset].text;
                *kind != Kind::Word || text == *written || (offset == 0 && text == capitalise(written))
            }),
        }
    }
}

/// `text` with every rule of `rules` applied once, left to right.
fn apply_phrases(
    text: &str,
    rules: &'static [Rule],
    grammar: &Grammar,
    apostrophe: char,
    trace: &mut Vec<&'static Rule>,
) -> String {
    let tokens = tokenize(text);
    let norm: Vec<String> = tokens.iter().map(|token| normalise(token.text)).collect();
    let places = places(&tokens, grammar);
    let keys: Vec<Key> = rules.iter().map(Key::new).collect();

    let mut out = String::with_capacity(text.len());
    let mut capitalise_next = false;
    let mut index = 0;
    while index < tokens.len() {
        let mut found: Option<(&Key, usize)> = None;
        for key in &keys {
            let Some(end) = key.match_at(&tokens, &norm, index) else { continue };
            let context = Context { tokens: &tokens, norm: &norm, places: &places, start: index, end };
            if found.is_none_or(|(_, longest)| end > longest)
                && key.rule.when.iter().all(|guard| context.holds(guard, key))
            {
                found = Some((key, end));
            }
        }
        let Some((key, end)) = found else {
            let token = tokens[index];
            if capitalise_next && token.is(Kind::Word) && is_lower_word(token.text) {
                out.push_str(&capitalise(token.text));
            } else {
                out.push_str(token.text);
            }
            if !token.is(Kind::Space) {
                capitalise_next = false;
            }
            index += 1;
            continue;
        };
        trace.push(key.rule);
        let case = if key.rule.exact_case() {
            if places[index].start { Case::Capitalised } else { Case::AsWritten }
        } else {
            case_of(tokens[index..end].iter().filter(|token| token.is(Kind::Word)).map(|token| token.text))
        };
        let replacement = in_case(&key.rule.to.replace('\'', &apostrophe.to_string()), case);
        if replacement.is_empty() {
            capitalise_next |= places[index].start;
            index = if tokens.get(end).is_some_and(|token| token.is(Kind::Space)) { end + 1 } else { end };
        } else {
            out.push_str(&if capitalise_next { capitalise(&replacement) } else { replacement });
            capitalise_next = false;
            index = end;
        }
    }
    out
}

/// Where a sentence is cut: the comma or semicolon, the first token of the second part, and what
/// that part starts with instead of the conjunction.
struct Cut {
    mark: usize,
    resume: usize,
    opener: &'static str,
}

/// `text` with every sentence longer than `splitting.max_words` that ends with `.` or `!` cut in
/// two at the `;` or `, <conjunction> <subject>` nearest its middle, again until no sentence can
/// be cut.
fn split_long_sentences(text: &str, splitting: &Splitting, grammar: &Grammar) -> String {
    let mut text = text.to_owned();
    loop {
        let tokens = tokenize(&text);
        let norm: Vec<String> = tokens.iter().map(|token| normalise(token.text)).collect();
        let cuts: Vec<Cut> = sentences(&tokens, grammar)
            .into_iter()
            .filter_map(|range| {
                let sentence = &tokens[range.clone()];
                if word_count(sentence) <= splitting.max_words
                    || !sentence.last().is_some_and(|t| matches!(t.text, "." | "!"))
                {
                    return None;
                }
                let is_word_of = |index: usize, list: &[&str]| {
                    index < range.end && tokens[index].is(Kind::Word) && list.contains(&norm[index].as_str())
                };
                let space = |index: usize| index < range.end && tokens[index].is(Kind::Space);
                let is_word = |index: usize| index < range.end && tokens[index].is(Kind::Word);
                let mut best: Option<(usize, Cut)> = None;
                for mark in range.clone() {
                    let cut = if tokens[mark].is_punct(';') && space(mark + 1) && is_word(mark + 2) {
                        Cut { mark, resume: mark + 2, opener: "" }
                    } else if tokens[mark].is_punct(',')
                        && space(mark + 1)
                        && space(mark + 3)
                        && is_word_of(mark + 4, splitting.subjects)
                        && let Some(&(_, opener)) =
                            splitting.joins.iter().find(|(conjunction, _)| is_word_of(mark + 2, &[*conjunction]))
                    {
                        Cut { mark, resume: mark + 4, opener }
                    } else {
                        continue;
                    };
                    let before = word_count(&tokens[range.start..mark]);
                    let after = word_count(&tokens[cut.resume..range.end]);
                    if before.min(after) < splitting.min_part_words {
                        continue;
                    }
                    let imbalance = before.abs_diff(after);
                    if best.as_ref().is_none_or(|(least, _)| imbalance < *least) {
                        best = Some((imbalance, cut));
                    }
                }
                best.map(|(_, cut)| cut)
            })
            .collect();
        if cuts.is_empty() {
            return text;
        }
        // One cut per long sentence in this round; each part is looked at again in the next.
        let mut out = String::with_capacity(text.len() + cuts.len() * 8);
        let mut next = 0;
        for cut in cuts {
            out.extend(tokens[next..cut.mark].iter().map(|token| token.text));
            out.push_str(". ");
            let first = tokens[cut.resume].text;
            if cut.opener.is_empty() {
                out.push_str(&if is_lower_word(first) { capitalise(first) } else { first.to_owned() });
            } else {
                out.push_str(&capitalise(cut.opener));
                out.push(' ');
                out.push_str(first);
            }
            next = cut.resume + 1;
        }
        out.extend(tokens[next..].iter().map(|token| token.text));
        text = out;
    }
}

/// `text` with `imperatives.please` before every sentence that is a request of the table's kind.
fn add_please(text: &str, imperatives: &Imperatives, grammar: &Grammar) -> String {
    let tokens = tokenize(text);
    let please = normalise(imperatives.please);
    let requests: Vec<usize> = sentences(&tokens, grammar)
        .into_iter()
        .filter(|range| {
            let sentence = &tokens[range.clone()];
            let [verb, space, next, ..] = sentence else { return false };
            let next_matches = if imperatives.followed_by_exact_case {
                imperatives.followed_by.contains(&next.text)
            } else {
                imperatives.followed_by.contains(&normalise(next.text).as_str())
            };
            verb.is(Kind::Word)
                && imperatives.verbs.contains(&normalise(verb.text).as_str())
                && space.is(Kind::Space)
                && next.is(Kind::Word)
                && next_matches
                && sentence.last().is_some_and(|token| matches!(token.text, "." | "!"))
                && !(imperatives.without_comma && sentence.iter().any(|token| token.is_punct(',')))
                && !sentence.iter().any(|token| token.is(Kind::Word) && normalise(token.text) == please)
        })
        .map(|range| range.start)
        .collect();
    let mut out = String::with_capacity(text.len() + requests.len() * 8);
    for (index, token) in tokens.iter().enumerate() {
        if requests.contains(&index) {
            if is_upper_word(token.text) {
                out.push_str(&imperatives.please.to_uppercase());
                out.push(' ');
                out.push_str(token.text);
            } else {
                out.push_str(imperatives.please);
                out.push(' ');
                out.push_str(&decapitalise(token.text));
            }
        } else {
            out.push_str(token.text);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Guard::*;

    const GRAMMAR: Grammar = Grammar { abbreviations: &["e.g"], ordinal_dot: false };

    fn run(rules: &'static [Rule], text: &str) -> String {
        let mut trace = Vec::new();
        apply_phrases(text, rules, &GRAMMAR, apostrophe_of(text), &mut trace)
    }

    static BASIC: &[Rule] = &[
        Rule::new("do not", "don't"),
        Rule::new("do not know", "dunno"),
        Rule::when("maybe", "", &[SentenceStart, BeforeWord]),
        Rule::when("it is", "it's", &[BeforeWord]),
        Rule::when("asap", "as soon as possible", &[ExactCase]),
        Rule::when("ASAP", "as soon as possible", &[ExactCase]),
        Rule::when("thanks.", "thanks!", &[WholeSentence]),
    ];

    #[test]
    fn phrases_match_whole_words_in_any_case_and_keep_it() {
        assert_eq!(run(BASIC, "I do not care."), "I don't care.");
        assert_eq!(run(BASIC, "Do not go."), "Don't go.");
        assert_eq!(run(BASIC, "DO NOT GO."), "DON'T GO.");
        assert_eq!(run(BASIC, "Do  not go."), "Don't go.", "any run of spaces within a line");
        assert_eq!(run(BASIC, "undo nothing"), "undo nothing", "never inside another word");
        assert_eq!(run(BASIC, "do\nnot"), "do\nnot", "never across a line break");
        assert_eq!(run(BASIC, "<b>do</b> not"), "<b>do</b> not", "never across markup");
        assert_eq!(run(BASIC, "do {x} not"), "do {x} not", "never across a placeholder");
    }

    #[test]
    fn the_longest_match_wins() {
        assert_eq!(run(BASIC, "I do not know."), "I dunno.");
    }

    #[test]
    fn the_replacement_takes_the_texts_apostrophe() {
        assert_eq!(run(BASIC, "I do not say it’s so."), "I don’t say it’s so.");
        assert_eq!(run(BASIC, "I do not say it's so."), "I don't say it's so.");
    }

    #[test]
    fn a_deleted_sentence_opener_hands_its_capital_on() {
        assert_eq!(run(BASIC, "Maybe we go. Maybe iPhones sell."), "We go. iPhones sell.");
        assert_eq!(run(BASIC, "So maybe we go."), "So maybe we go.", "not at the start of a sentence");
        assert_eq!(run(BASIC, "Maybe."), "Maybe.", "not before a mark");
    }

    #[test]
    fn exact_case_rules_write_the_replacement_as_the_table_does() {
        assert_eq!(run(BASIC, "Reply ASAP please."), "Reply as soon as possible please.");
        assert_eq!(run(BASIC, "ASAP, please."), "As soon as possible, please.");
        assert_eq!(run(BASIC, "Asap, please."), "As soon as possible, please.", "a capital first letter");
        assert_eq!(run(BASIC, "Reply AsAp."), "Reply AsAp.", "a case the table does not list");
    }

    #[test]
    fn whole_sentence_rules_need_the_sentence_to_end_there() {
        assert_eq!(run(BASIC, "Thanks. Bye."), "Thanks! Bye.");
        assert_eq!(run(BASIC, "Thanks.."), "Thanks..");
        assert_eq!(run(BASIC, "Many thanks."), "Many thanks.");
    }

    #[test]
    fn before_word_needs_a_word_next() {
        assert_eq!(run(BASIC, "It is fine."), "It's fine.");
        assert_eq!(run(BASIC, "Here it is."), "Here it is.");
        assert_eq!(run(BASIC, "That is, it is."), "That is, it is.");
    }

    static GERMAN: &[Rule] = &[Rule::when("zu dem", "zum", &[NotAfterClauseMark, BeforeNoun(&["zeitpunkt"])])];

    #[test]
    fn before_noun_wants_a_capitalised_word_not_listed_and_not_before_a_comma() {
        assert_eq!(run(GERMAN, "Er kam zu dem Schluss."), "Er kam zum Schluss.");
        assert_eq!(run(GERMAN, "Er kam zu dem großen Schluss."), "Er kam zu dem großen Schluss.");
        assert_eq!(run(GERMAN, "Zu dem Zeitpunkt schlief er."), "Zu dem Zeitpunkt schlief er.");
        assert_eq!(run(GERMAN, "Er ging zu dem Haus, das dort steht."), "Er ging zu dem Haus, das dort steht.");
        assert_eq!(run(GERMAN, "Das Haus, zu dem Peter ging."), "Das Haus, zu dem Peter ging.");
    }

    static SPLITTING: Splitting = Splitting {
        max_words: 10,
        min_part_words: 3,
        joins: &[("and", ""), ("but", "however,")],
        subjects: &["we", "it"],
    };

    #[test]
    fn long_sentences_are_cut_at_the_conjunction_nearest_the_middle() {
        let text = "We went to the shop in town, and we bought apples, and we went home again.";
        assert_eq!(
            split_long_sentences(text, &SPLITTING, &GRAMMAR),
            "We went to the shop in town. We bought apples, and we went home again."
        );
        let but = "We went to the big shop in town, but it was closed for the day.";
        assert_eq!(
            split_long_sentences(but, &SPLITTING, &GRAMMAR),
            "We went to the big shop in town. However, it was closed for the day."
        );
        let semicolon = "The shop in the town was closed; the other shop was open all day.";
        assert_eq!(
            split_long_sentences(semicolon, &SPLITTING, &GRAMMAR),
            "The shop in the town was closed. The other shop was open all day."
        );
    }

    #[test]
    fn sentences_are_not_cut_where_they_should_not_be() {
        for text in [
            // Short enough.
            "We went home, and we slept.",
            // A question.
            "Did we go to the shop in the town, and did we buy the apples there?",
            // No subject after the conjunction: a list.
            "We bought apples, pears, plums, grapes, lemons, and oranges at the market today.",
            // A part would be too short.
            "We went, and we bought apples and pears and plums and grapes and lemons.",
        ] {
            assert_eq!(split_long_sentences(text, &SPLITTING, &GRAMMAR), text);
        }
    }

    static IMPERATIVES: Imperatives = Imperatives {
        verbs: &["send", "call"],
        followed_by: &["me", "the"],
        followed_by_exact_case: false,
        without_comma: false,
        please: "Please",
    };

    #[test]
    fn please_goes_before_requests_only() {
        assert_eq!(add_please("Send me the file.", &IMPERATIVES, &GRAMMAR), "Please send me the file.");
        assert_eq!(add_please("Hi. Call me!", &IMPERATIVES, &GRAMMAR), "Hi. Please call me!");
        assert_eq!(add_please("SEND ME THE FILE.", &IMPERATIVES, &GRAMMAR), "PLEASE SEND ME THE FILE.");
        for text in ["Send me the file?", "Call ended.", "Send me the file, please.", "Sending the file."] {
            assert_eq!(add_please(text, &IMPERATIVES, &GRAMMAR), text);
        }
    }
}
