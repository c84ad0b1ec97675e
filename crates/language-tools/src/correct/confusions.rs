//! English confusions Harper leaves alone, fixed by rules that are data: a table of word patterns in
//! context ("their going" → "they're going", "we has" → "we have", "too the" → "to the").
//!
//! A rule matches consecutive words separated by spaces only (never across punctuation or a line break),
//! case-insensitively. Each slot of a pattern lists its alternatives (`he|she|it`); the replacement names,
//! per slot, the new word or `=` to keep the matched one. `unless_after` lists the words that, standing
//! right before the match, make it correct English: "did he have", "to their going". The case shape of each
//! replaced word is kept ("Their" → "They're").

use super::text::{Word, match_case, words};

/// One confusion: a word pattern, its replacement, and the preceding words in whose company it is right.
struct Rule {
    pattern: &'static [&'static str],
    replacement: &'static [&'static str],
    unless_after: &'static [&'static str],
}

const fn rule(
    pattern: &'static [&'static str],
    replacement: &'static [&'static str],
    unless_after: &'static [&'static str],
) -> Rule {
    Rule { pattern, replacement, unless_after }
}

/// Auxiliaries and verbs after which a subject takes the bare verb ("does he have", "let it do").
const AUXILIARIES: &[&str] = &[
    "do",
    "does",
    "did",
    "don't",
    "doesn't",
    "didn't",
    "will",
    "would",
    "can",
    "could",
    "should",
    "shall",
    "may",
    "might",
    "must",
    "let",
    "make",
    "makes",
    "made",
    "help",
    "helps",
    "to",
    "not",
    "won't",
    "wouldn't",
    "can't",
    "couldn't",
    "shouldn't",
    "mustn't",
    "why",
];

/// Words after which a possessive before a gerund is right ("about their going", "mind your not calling").
const GERUND_LICENSORS: &[&str] = &[
    "to",
    "of",
    "by",
    "about",
    "for",
    "with",
    "without",
    "on",
    "at",
    "from",
    "despite",
    "after",
    "before",
    "regarding",
    "like",
    "mind",
    "imagine",
    "remember",
    "appreciate",
    "recall",
    "resent",
    "approve",
    "despise",
    "enjoy",
    "hate",
    "love",
    "prevent",
    "stop",
    "understand",
    "upon",
    "into",
    "against",
];

/// Verb forms and adverbs that follow a subject ("they're going") but not a possessive ("their car").
const AFTER_SUBJECT: &str = "going|coming|doing|trying|getting|leaving|gonna|always|never";

/// Adjectives that open "it's … to/that …" ("it's important to ask", "it's clear that …").
const CLAUSE_ADJECTIVES: &str = "important|clear|true|possible|impossible|likely|unlikely|hard|easy|difficult|\
                                 necessary|obvious|okay|ok|fine|nice|good|great|better|best|essential|crucial|useful";

const DETERMINERS: &str = "the|a|an|my|your|his|her|its|our|their|this|these|those";

const COMPARATIVES: &str = "more|less|better|worse|rather|greater|fewer|larger|smaller|higher|lower|bigger|faster|slower|older|younger|longer|shorter";

/// The rules, each a general pattern; each is tested on its own sentences below.
const RULES: &[Rule] = &[
    // Subject–verb agreement: "I" takes "have/am/do", plural subjects take plural verbs, third-person singular
    // subjects take "has/is/does" (unless an auxiliary asks for the bare verb: "does he have").
    rule(&["i", "has"], &["=", "have"], &[]),
    rule(&["i", "is|are"], &["=", "am"], &[]),
    rule(&["i", "does"], &["=", "do"], &[]),
    rule(&["i", "doesn't"], &["=", "don't"], &[]),
    rule(&["we|they", "has"], &["=", "have"], &[]),
    rule(&["we|they", "is"], &["=", "are"], &[]),
    rule(&["we|they", "was"], &["=", "were"], &[]),
    rule(&["we|they", "does"], &["=", "do"], &[]),
    rule(&["we|they", "doesn't"], &["=", "don't"], &[]),
    rule(&["he|she|it", "have"], &["=", "has"], AUXILIARIES),
    rule(&["he|she|it", "are"], &["=", "is"], &[]),
    rule(&["he|she|it", "do"], &["=", "does"], AUXILIARIES),
    rule(&["he|she|it", "don't"], &["=", "doesn't"], AUXILIARIES),
    // "their/there/they're": a possessive cannot be followed by a verb form; "there" is the place.
    rule(&["their", AFTER_SUBJECT], &["they're", "="], GERUND_LICENSORS),
    rule(&["their", "not"], &["they're", "="], GERUND_LICENSORS),
    rule(&["their", "is|are|was|were"], &["there", "="], &[]),
    rule(&["there", "own"], &["their", "="], &[]),
    // "your/you're" and "its/it's" the same way.
    rule(&["your", "going|gonna|not"], &["you're", "="], GERUND_LICENSORS),
    rule(&["its", "a|an|the|not|been|going|getting"], &["it's", "="], &[]),
    // "its important to": an adjective that introduces a clause or an infinitive follows "it's"; a
    // possessive takes a noun after the adjective ("its important role" stays).
    rule(&["its", CLAUSE_ADJECTIVES, "to|that|for|because|when|if"], &["it's", "=", "="], &[]),
    rule(&["whose", "going|coming|gonna"], &["who's", "="], &[]),
    // "too" (excess) before a determiner is the preposition "to".
    rule(&["too", DETERMINERS], &["to", "="], &[]),
    // "could of" for "could've".
    rule(&["could|would|should|must", "of"], &["=", "have"], &["the", "a", "this"]),
    // A comparative takes "than", not "then".
    rule(&[COMPARATIVES, "then"], &["=", "than"], &[]),
];

/// Applies every rule to `text`, left to right; replaced words keep their case shape.
pub fn apply(text: &str) -> String {
    let words = words(text);
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    let mut index = 0;
    while index < words.len() {
        let Some((rule, length)) = RULES.iter().find_map(|rule| matches(rule, text, &words, index).map(|n| (rule, n)))
        else {
            index += 1;
            continue;
        };
        for (slot, word) in words[index..index + length].iter().enumerate() {
            let replacement = rule.replacement[slot];
            if replacement != "=" {
                out.push_str(&text[from..word.start]);
                out.push_str(&match_case(word.text, replacement, "en"));
                from = word.end;
            }
        }
        index += length;
    }
    out.push_str(&text[from..]);
    out
}

/// Whether `rule` matches the words starting at `index`; the number of words it covers.
fn matches(rule: &Rule, text: &str, words: &[Word<'_>], index: usize) -> Option<usize> {
    let length = rule.pattern.len();
    let candidates = words.get(index..index + length)?;
    for (slot, (alternatives, word)) in rule.pattern.iter().zip(candidates).enumerate() {
        if slot > 0 && !spaces_only(&text[candidates[slot - 1].end..word.start]) {
            return None;
        }
        if !alternatives.split('|').any(|alternative| eq_word(alternative, word.text)) {
            return None;
        }
    }
    let previous = index.checked_sub(1).map(|p| words[p]).filter(|p| spaces_only(&text[p.end..words[index].start]));
    if let Some(previous) = previous
        && rule.unless_after.iter().any(|licensor| eq_word(licensor, previous.text))
    {
        return None;
    }
    Some(length)
}

fn spaces_only(gap: &str) -> bool {
    !gap.is_empty() && gap.chars().all(|c| c == ' ')
}

/// Case-insensitive comparison that treats the typographic apostrophe as `'`.
fn eq_word(pattern: &str, word: &str) -> bool {
    let word = word.replace('’', "'");
    pattern.eq_ignore_ascii_case(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cases: &[(&str, &str)]) {
        for (input, expected) in cases {
            assert_eq!(apply(input), *expected, "{input}");
        }
    }

    #[test]
    fn every_rule_is_well_formed() {
        for rule in RULES {
            assert_eq!(rule.pattern.len(), rule.replacement.len(), "{:?}", rule.pattern);
            assert!(rule.pattern.iter().all(|slot| slot.chars().all(|c| c.is_ascii_lowercase() || "|'".contains(c))));
        }
    }

    #[test]
    fn i_takes_have_am_do() {
        check(&[
            ("I has a dog.", "I have a dog."),
            ("Yesterday I has finished.", "Yesterday I have finished."),
            ("I is tired and I are late.", "I am tired and I am late."),
            ("I does my best, but I doesn't know.", "I do my best, but I don't know."),
            ("I have a dog and I am here.", "I have a dog and I am here."),
        ]);
    }

    #[test]
    fn plural_subjects_take_plural_verbs() {
        check(&[
            ("We has time.", "We have time."),
            ("They is here and we was there.", "They are here and we were there."),
            ("They does not care; they doesn't listen.", "They do not care; they don't listen."),
            ("They have time and we were there.", "They have time and we were there."),
        ]);
    }

    #[test]
    fn third_person_subjects_take_singular_verbs_unless_an_auxiliary_asks() {
        check(&[
            ("She have a car and it are red.", "She has a car and it is red."),
            ("He do the work; it don't matter.", "He does the work; it doesn't matter."),
            ("Does he have a car? Let it have its way.", "Does he have a car? Let it have its way."),
            ("Why did she do that? Make it do something.", "Why did she do that? Make it do something."),
        ]);
    }

    #[test]
    fn their_before_a_verb_form_is_they_are() {
        check(&[
            ("Their going home.", "They're going home."),
            ("I think their coming later and their not happy.", "I think they're coming later and they're not happy."),
            ("Their always late.", "They're always late."),
            // A possessive before a noun or a licensed gerund stays.
            ("Their car is new. I object to their going.", "Their car is new. I object to their going."),
            ("We were surprised by their not coming.", "We were surprised by their not coming."),
        ]);
    }

    #[test]
    fn their_before_be_is_there_and_there_own_is_their_own() {
        check(&[
            ("Their is a problem and their were two.", "There is a problem and there were two."),
            ("They did it on there own.", "They did it on their own."),
            ("There is a problem with their own car.", "There is a problem with their own car."),
        ]);
    }

    #[test]
    fn your_and_its_before_a_verb_form_are_contractions() {
        check(&[
            ("Your going to love it, your not alone.", "You're going to love it, you're not alone."),
            ("Its a nice day and its been sunny.", "It's a nice day and it's been sunny."),
            ("Its important to ask. Its clear that we agree.", "It's important to ask. It's clear that we agree."),
            ("The city kept its important role to the end.", "The city kept its important role to the end."),
            ("Whose going to the party?", "Who's going to the party?"),
            ("Your car lost its wheel. I mind your not calling.", "Your car lost its wheel. I mind your not calling."),
        ]);
    }

    #[test]
    fn too_before_a_determiner_is_to() {
        check(&[
            ("We went too the store.", "We went to the store."),
            ("Give it too my brother and talk too a friend.", "Give it to my brother and talk to a friend."),
            ("It is too big and I came too.", "It is too big and I came too."),
            // Punctuation in between: "too" ends the clause.
            ("Me too, the end.", "Me too, the end."),
        ]);
    }

    #[test]
    fn modal_of_is_modal_have() {
        check(&[
            ("You should of known; it could of been worse.", "You should have known; it could have been worse."),
            ("We would of come, they must of left.", "We would have come, they must have left."),
        ]);
    }

    #[test]
    fn a_comparative_takes_than() {
        check(&[
            ("It is bigger then mine and better then before.", "It is bigger than mine and better than before."),
            ("She earns more then me.", "She earns more than me."),
            ("We ate, then left; more than enough.", "We ate, then left; more than enough."),
        ]);
    }

    #[test]
    fn case_shapes_are_kept_and_line_breaks_are_not_crossed() {
        check(&[
            ("THEIR GOING HOME", "THEY'RE GOING HOME"),
            ("Too the moon!", "To the moon!"),
            ("Their\ngoing", "Their\ngoing"),
            ("Their’s nothing", "Their’s nothing"),
        ]);
    }
}
