//! English: the phrase tables and what each style and tone does with them.
//!
//! Every entry is safe wherever its guards let it apply; an entry that would be wrong in some
//! context is guarded against it or left out (`let us` is not contracted: "let us know" is not
//! "let's know"; `I'd` is spelled out only before a verb that shows it means "I would").

use super::rules::Guard::*;
use super::rules::{Guard, Imperatives, Recipe, Recipes, Rule, Splitting, Step};
use super::text::Grammar;

pub(crate) const GRAMMAR: Grammar = Grammar {
    abbreviations: &[
        "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "etc", "e.g", "i.e", "cf", "approx", "no", "fig",
        "inc", "ltd", "co", "dept", "est", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
        "nov", "dec",
    ],
    ordinal_dot: false,
};

pub(crate) static RECIPES: Recipes = Recipes {
    casual: &CASUAL,
    business: &BUSINESS,
    academic: &ACADEMIC,
    simple: &SIMPLE,
    confident: &CONFIDENT,
    diplomatic: &DIPLOMATIC,
    enthusiastic: &ENTHUSIASTIC,
    friendly: &FRIENDLY,
};

static CASUAL: Recipe = Recipe {
    description: "contractions (do not → don't, it is → it's, we will → we'll; never at the end of a clause)",
    steps: &[Step::Phrases(CONTRACTIONS)],
};

static BUSINESS: Recipe = Recipe {
    description: "contractions spelled out (don't → do not, can't → cannot, let's → let us), slang replaced (gonna → \
                  going to, ASAP → as soon as possible), thanks → thank you, Hi/Hey → Hello at the start of a sentence",
    steps: &[Step::Phrases(EXPANSIONS), Step::Phrases(SLANG), Step::Phrases(BUSINESS_WORDS)],
};

static ACADEMIC: Recipe = Recipe {
    description: "contractions spelled out and slang replaced as in business; informal words replaced (kids → \
                  children, totally → completely, maybe → perhaps, figure out → determine, talk about → discuss); \
                  sentence openers (But → However, Also, → Furthermore,)",
    steps: &[Step::Phrases(EXPANSIONS), Step::Phrases(SLANG), Step::Phrases(ACADEMIC_WORDS)],
};

static SIMPLE: Recipe = Recipe {
    description: "wordy phrases shortened (in order to → to, due to the fact that → because, utilize → use) and \
                  sentences over 25 words split at a semicolon or at \", and\"/\", but\" before a new clause",
    steps: &[Step::Phrases(WORDY), Step::Split(&SPLITTING)],
};

static CONFIDENT: Recipe = Recipe {
    description: "hedges dropped (I think, I believe that, maybe, perhaps, probably, sort of, kind of, somewhat) where \
                  the sentence stays complete (not at the start of a question)",
    steps: &[Step::Phrases(HEDGES)],
};

static DIPLOMATIC: Recipe = Recipe {
    description: "Please before a direct request (Send me … → Please send me …); You should → You might want to, You \
                  must → You will need to; You are wrong. → I see it differently.; Obviously/Clearly dropped",
    steps: &[Step::Phrases(SOFTENERS), Step::Please(&IMPERATIVES)],
};

static ENTHUSIASTIC: Recipe = Recipe {
    description: "short positive sentences end with ! (Thank you! See you soon!); happy/glad to → delighted to; good \
                  news → great news",
    steps: &[Step::Phrases(EXCLAMATIONS)],
};

static FRIENDLY: Recipe = Recipe {
    description: "contractions as in casual; Please before a direct request; warm greetings and closings (Dear Sir or \
                  Madam → Hello, Yours sincerely → Best wishes)",
    steps: &[Step::Phrases(CONTRACTIONS), Step::Phrases(GREETINGS), Step::Please(&IMPERATIVES)],
};

/// Subject pronouns (also contracted): what follows a dropped "I think" must be a clause.
const SUBJECTS: &[&str] = &[
    "i", "we", "you", "they", "he", "she", "it", "this", "that", "there", "these", "those", "i'm", "we're", "you're",
    "they're", "he's", "she's", "it's", "that's", "there's", "i'll", "we'll", "you'll", "they'll", "he'll", "she'll",
    "it'll", "i've", "we've", "you've", "they've", "i'd", "we'd", "you'd", "they'd",
];

/// [`SUBJECTS`] without "that", after "that" (in "I think that that" the second is the subject,
/// but "I think that is wrong" must keep its "that"), and determiners: "that" before "the plan"
/// or "our team" introduces a clause, it is no demonstrative.
const SUBJECTS_AFTER_THAT: &[&str] = &[
    "i", "we", "you", "they", "he", "she", "it", "this", "there", "these", "those", "i'm", "we're", "you're",
    "they're", "he's", "she's", "it's", "there's", "i'll", "we'll", "you'll", "they'll", "i've", "we've", "you've",
    "they've", "the", "a", "an", "our", "my", "your", "his", "her", "their", "its", "some", "most", "every", "no",
];

/// Words a noun phrase starts with: "the talk about", "a kind of" are nouns, not verbs or hedges.
const DETERMINERS: &[&str] = &[
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "my",
    "your",
    "his",
    "her",
    "its",
    "our",
    "their",
    "some",
    "any",
    "no",
    "every",
    "each",
    "what",
    "which",
    "whose",
    "one",
    "another",
    "other",
    "same",
    "different",
    "all",
    "whatever",
];

/// Words that show the clause ended before them: "who you are and what you do" keeps "you are".
const CLAUSE_END: &[&str] = &[
    "and", "or", "but", "nor", "because", "if", "when", "while", "although", "though", "since", "unless", "until",
    "so", "as", "than", "is", "was", "are", "were", "to", "too", "either",
];

/// Words after "have" that make "I have" an auxiliary ("I've been"), not possession ("I have a car").
const PARTICIPLES: &[&str] = &[
    "been",
    "done",
    "seen",
    "made",
    "had",
    "got",
    "gotten",
    "heard",
    "tried",
    "finished",
    "sent",
    "received",
    "written",
    "noticed",
    "decided",
    "found",
    "never",
    "already",
    "just",
    "always",
    "ever",
    "lost",
    "forgotten",
    "known",
    "told",
    "asked",
    "given",
    "taken",
    "worked",
    "started",
    "completed",
    "changed",
    "updated",
    "reviewed",
];

/// Verbs after "'d" that show it means "would" ("I'd like"), not "had" ("I'd gone").
const WOULD_VERBS: &[&str] = &[
    "like",
    "love",
    "prefer",
    "rather",
    "be",
    "have",
    "say",
    "suggest",
    "recommend",
    "appreciate",
    "think",
    "expect",
    "imagine",
    "agree",
    "argue",
    "assume",
    "hope",
    "want",
    "need",
];

/// What follows a negative contraction in a question ("Don't you …?", "isn't it?"), where
/// spelling it out would be wrong ("Do not you …?").
const INVERTED: &[&str] = &[
    "i", "you", "we", "they", "he", "she", "it", "there", "that", "this", "these", "those", "the", "a", "an", "my",
    "your", "our", "his", "her", "their", "its", "anyone", "everyone", "someone",
];

const BE: &[Guard] = &[BeforeWord, NotBefore(CLAUSE_END)];
const BE_NOT_IT: &[Guard] = &[BeforeWord, NotBefore(CLAUSE_END), NotBefore(&["it"])];
const WILL: &[Guard] = &[BeforeWord, NotBefore(CLAUSE_END), NotBefore(&["not"])];
const HAVE: &[Guard] = &[BeforeAny(PARTICIPLES)];
const HAS_BEEN: &[Guard] = &[BeforeAny(&["been"])];
const NEG: &[Guard] = &[NotBefore(INVERTED)];
const WOULD: &[Guard] = &[BeforeAny(WOULD_VERBS)];

/// casual, friendly.
static CONTRACTIONS: &[Rule] = &[
    Rule::new("do not", "don't"),
    Rule::new("does not", "doesn't"),
    Rule::new("did not", "didn't"),
    Rule::new("is not", "isn't"),
    Rule::new("are not", "aren't"),
    Rule::new("was not", "wasn't"),
    Rule::new("were not", "weren't"),
    Rule::new("have not", "haven't"),
    Rule::new("has not", "hasn't"),
    Rule::new("had not", "hadn't"),
    Rule::new("will not", "won't"),
    Rule::new("would not", "wouldn't"),
    Rule::new("should not", "shouldn't"),
    Rule::new("could not", "couldn't"),
    Rule::new("must not", "mustn't"),
    Rule::new("cannot", "can't"),
    // "You can not only … but also …" keeps its meaning only uncontracted.
    Rule::when("can not", "can't", &[NotBefore(&["only"])]),
    Rule::when("i am", "I'm", BE),
    Rule::when("you are", "you're", BE),
    Rule::when("we are", "we're", BE),
    Rule::when("they are", "they're", BE),
    Rule::when("he is", "he's", BE),
    Rule::when("she is", "she's", BE),
    Rule::when("it is", "it's", BE),
    Rule::when("that is", "that's", BE),
    Rule::when("there is", "there's", BE),
    Rule::when("here is", "here's", BE),
    // "What is it?" does not become "What's it?".
    Rule::when("what is", "what's", BE_NOT_IT),
    Rule::when("who is", "who's", BE_NOT_IT),
    Rule::when("where is", "where's", BE_NOT_IT),
    // "I will not" becomes "I won't" through "will not", not "I'll not".
    Rule::when("i will", "I'll", WILL),
    Rule::when("you will", "you'll", WILL),
    Rule::when("we will", "we'll", WILL),
    Rule::when("they will", "they'll", WILL),
    Rule::when("he will", "he'll", WILL),
    Rule::when("she will", "she'll", WILL),
    Rule::when("it will", "it'll", WILL),
    Rule::when("that will", "that'll", WILL),
    Rule::when("i would", "I'd", WILL),
    Rule::when("you would", "you'd", WILL),
    Rule::when("we would", "we'd", WILL),
    Rule::when("they would", "they'd", WILL),
    Rule::when("he would", "he'd", WILL),
    Rule::when("she would", "she'd", WILL),
    Rule::when("i have", "I've", HAVE),
    Rule::when("you have", "you've", HAVE),
    Rule::when("we have", "we've", HAVE),
    Rule::when("they have", "they've", HAVE),
    Rule::when("he has", "he's", HAS_BEEN),
    Rule::when("she has", "she's", HAS_BEEN),
    Rule::when("it has", "it's", HAS_BEEN),
    Rule::when("that has", "that's", HAS_BEEN),
    Rule::when("there has", "there's", HAS_BEEN),
];

/// business, academic.
static EXPANSIONS: &[Rule] = &[
    Rule::when("don't", "do not", NEG),
    Rule::when("doesn't", "does not", NEG),
    Rule::when("didn't", "did not", NEG),
    Rule::when("isn't", "is not", NEG),
    Rule::when("aren't", "are not", NEG),
    Rule::when("wasn't", "was not", NEG),
    Rule::when("weren't", "were not", NEG),
    Rule::when("haven't", "have not", NEG),
    Rule::when("hasn't", "has not", NEG),
    Rule::when("hadn't", "had not", NEG),
    Rule::when("won't", "will not", NEG),
    Rule::when("wouldn't", "would not", NEG),
    Rule::when("shouldn't", "should not", NEG),
    Rule::when("couldn't", "could not", NEG),
    Rule::when("can't", "cannot", NEG),
    Rule::when("mustn't", "must not", NEG),
    Rule::when("needn't", "need not", NEG),
    Rule::when("shan't", "shall not", NEG),
    Rule::new("i'm", "I am"),
    Rule::new("you're", "you are"),
    Rule::new("we're", "we are"),
    Rule::new("they're", "they are"),
    Rule::new("he's been", "he has been"),
    Rule::new("he's got", "he has got"),
    Rule::new("he's", "he is"),
    Rule::new("she's been", "she has been"),
    Rule::new("she's got", "she has got"),
    Rule::new("she's", "she is"),
    Rule::new("it's been", "it has been"),
    Rule::new("it's got", "it has got"),
    Rule::new("it's", "it is"),
    Rule::new("that's been", "that has been"),
    Rule::new("that's", "that is"),
    Rule::new("there's been", "there has been"),
    Rule::new("there's", "there is"),
    Rule::new("here's", "here is"),
    Rule::new("what's", "what is"),
    Rule::new("who's", "who is"),
    Rule::new("where's", "where is"),
    Rule::new("i've", "I have"),
    Rule::new("you've", "you have"),
    Rule::new("we've", "we have"),
    Rule::new("they've", "they have"),
    Rule::new("could've", "could have"),
    Rule::new("should've", "should have"),
    Rule::new("would've", "would have"),
    Rule::new("might've", "might have"),
    Rule::new("must've", "must have"),
    Rule::new("i'll", "I will"),
    Rule::new("you'll", "you will"),
    Rule::new("he'll", "he will"),
    Rule::new("she'll", "she will"),
    Rule::new("it'll", "it will"),
    Rule::new("we'll", "we will"),
    Rule::new("they'll", "they will"),
    Rule::new("that'll", "that will"),
    Rule::when("i'd", "I would", WOULD),
    Rule::when("you'd", "you would", WOULD),
    Rule::when("he'd", "he would", WOULD),
    Rule::when("she'd", "she would", WOULD),
    Rule::when("we'd", "we would", WOULD),
    Rule::when("they'd", "they would", WOULD),
    Rule::new("let's", "let us"),
];

/// business, academic.
static SLANG: &[Rule] = &[
    Rule::new("gonna", "going to"),
    Rule::new("wanna", "want to"),
    Rule::new("gimme", "give me"),
    Rule::new("lemme", "let me"),
    Rule::new("dunno", "do not know"),
    Rule::new("cuz", "because"),
    Rule::when("'cause", "because", &[NotBefore(&["'"])]),
    Rule::new("thru", "through"),
    // "the till" is a cash register.
    Rule::when("till", "until", &[NotAfter(DETERMINERS)]),
    Rule::new("anyways", "anyway"),
    Rule::new("yeah", "yes"),
    Rule::new("yep", "yes"),
    Rule::new("yup", "yes"),
    Rule::new("nope", "no"),
    Rule::new("awesome", "excellent"),
    Rule::when("ASAP", "as soon as possible", &[ExactCase]),
    Rule::when("asap", "as soon as possible", &[ExactCase]),
    Rule::when("FYI", "for your information", &[ExactCase]),
    Rule::when("BTW", "by the way", &[ExactCase]),
    Rule::when("btw", "by the way", &[ExactCase]),
];

/// business.
static BUSINESS_WORDS: &[Rule] = &[
    Rule::new("thanks for", "thank you for"),
    Rule::new("thanks so much", "thank you so much"),
    Rule::new("thanks a lot", "thank you very much"),
    Rule::when("thanks", "thank you", &[SentenceStart, SentenceEnd]),
    Rule::when("hi", "hello", &[SentenceStart]),
    Rule::when("hey", "hello", &[SentenceStart]),
];

/// academic.
static ACADEMIC_WORDS: &[Rule] = &[
    // "He kids" is the verb.
    Rule::when("kids", "children", &[NotAfter(&["he", "she", "it", "who", "which", "that"])]),
    Rule::new("totally", "completely"),
    Rule::when("maybe", "perhaps", &[NotAfter(DETERMINERS)]),
    Rule::when("figure out", "determine", &[NotAfter(DETERMINERS)]),
    Rule::when("figures out", "determines", &[NotAfter(DETERMINERS), NotBefore(&["of"])]),
    Rule::new("figured out", "determined"),
    Rule::new("figuring out", "determining"),
    Rule::when("point out", "indicate", &[NotAfter(DETERMINERS), NotBefore(&["of"])]),
    Rule::when("points out", "indicates", &[NotAfter(DETERMINERS), NotBefore(&["of"])]),
    Rule::new("pointed out", "indicated"),
    Rule::new("pointing out", "indicating"),
    Rule::when("talk about", "discuss", &[NotAfter(DETERMINERS)]),
    Rule::new("talked about", "discussed"),
    Rule::new("talking about", "discussing"),
    Rule::when("also,", "furthermore,", &[SentenceStart]),
    Rule::when("plus,", "in addition,", &[SentenceStart]),
    Rule::when("besides,", "moreover,", &[SentenceStart]),
    Rule::when("but", "however,", &[SentenceStart, BeforeWord, NotBefore(&["for", "also", "then", "not"])]),
];

/// simple.
static WORDY: &[Rule] = &[
    Rule::new("in order to", "to"),
    Rule::new("due to the fact that", "because"),
    Rule::new("owing to the fact that", "because"),
    Rule::new("in light of the fact that", "because"),
    Rule::new("on the grounds that", "because"),
    Rule::new("for the reason that", "because"),
    Rule::new("despite the fact that", "although"),
    Rule::new("in spite of the fact that", "although"),
    Rule::new("in spite of", "despite"),
    Rule::new("at this point in time", "now"),
    Rule::new("at the present time", "now"),
    Rule::new("in the near future", "soon"),
    Rule::new("at all times", "always"),
    Rule::new("a large number of", "many"),
    Rule::new("a great number of", "many"),
    Rule::new("a small number of", "a few"),
    Rule::new("a number of", "several"),
    Rule::new("a sufficient number of", "enough"),
    Rule::new("a sufficient amount of", "enough"),
    Rule::new("in the event that", "if"),
    Rule::new("prior to", "before"),
    Rule::new("subsequent to", "after"),
    Rule::new("until such time as", "until"),
    Rule::new("with regard to", "about"),
    Rule::new("with regards to", "about"),
    Rule::new("in regard to", "about"),
    Rule::new("in regards to", "about"),
    Rule::new("for the purpose of", "for"),
    Rule::new("in close proximity to", "near"),
    Rule::new("in excess of", "more than"),
    Rule::new("with the exception of", "except"),
    Rule::new("in the absence of", "without"),
    Rule::new("by means of", "by"),
    Rule::new("each and every", "every"),
    Rule::new("first and foremost", "first"),
    Rule::new("is able to", "can"),
    Rule::new("are able to", "can"),
    Rule::new("am able to", "can"),
    Rule::new("is not able to", "cannot"),
    Rule::new("are not able to", "cannot"),
    Rule::new("am not able to", "cannot"),
    Rule::new("has the ability to", "can"),
    Rule::new("have the ability to", "can"),
    Rule::new("make a decision", "decide"),
    Rule::new("makes a decision", "decides"),
    Rule::new("made a decision", "decided"),
    Rule::new("making a decision", "deciding"),
    Rule::new("give consideration to", "consider"),
    Rule::new("on a daily basis", "daily"),
    Rule::new("on a weekly basis", "weekly"),
    Rule::new("on a monthly basis", "monthly"),
    Rule::new("on a yearly basis", "yearly"),
    Rule::new("on a regular basis", "regularly"),
    Rule::when("it is important to note that", "", &[SentenceStart, BeforeWord]),
    Rule::when("it should be noted that", "", &[SentenceStart, BeforeWord]),
    Rule::when("it is worth noting that", "", &[SentenceStart, BeforeWord]),
    Rule::new("utilize", "use"),
    Rule::new("utilizes", "uses"),
    Rule::new("utilized", "used"),
    Rule::new("utilizing", "using"),
    Rule::new("utilise", "use"),
    Rule::new("utilises", "uses"),
    Rule::new("utilised", "used"),
    Rule::new("utilising", "using"),
    Rule::new("utilization", "use"),
    Rule::new("utilisation", "use"),
    Rule::new("commence", "start"),
    Rule::new("commences", "starts"),
    Rule::new("commenced", "started"),
    Rule::new("commencing", "starting"),
    Rule::new("approximately", "about"),
    Rule::new("numerous", "many"),
    // "a sufficient reason" would become "a enough reason".
    Rule::when(
        "sufficient",
        "enough",
        &[NotAfter(&["a", "an", "the", "very", "more", "most", "less", "quite", "fully"])],
    ),
    Rule::new("assistance", "help"),
    Rule::new("demonstrate", "show"),
    Rule::new("demonstrates", "shows"),
    Rule::new("demonstrating", "showing"),
];

/// Subjects after which a conjunction starts a clause of its own.
const SPLIT_SUBJECTS: &[&str] = &[
    "i", "we", "you", "they", "he", "she", "it", "this", "there", "these", "those", "i'm", "we're", "you're",
    "they're", "it's",
];

static SPLITTING: Splitting = Splitting {
    max_words: 25,
    min_part_words: 6,
    joins: &[("and", ""), ("but", "however,")],
    subjects: SPLIT_SUBJECTS,
};

const OPENER: &[Guard] = &[SentenceStart, NotInQuestion, BeforeAny(SUBJECTS)];
const OPENER_THAT: &[Guard] = &[SentenceStart, NotInQuestion, BeforeAny(SUBJECTS_AFTER_THAT)];
/// A hedge inside a sentence, between two words that are not part of a phrase with it.
const INNER: &[Guard] = &[
    NotSentenceStart,
    AfterWord,
    BeforeWord,
    NotAfter(&["a", "an", "the", "most", "very", "quite", "more", "less", "not"]),
    NotBefore(&["not", "so", "never", "more", "less"]),
];
/// "sort of"/"kind of" as hedges: after a subject or a linking verb, not before an object
/// pronoun ("kind of you").
const SORT_OF: &[Guard] = &[
    BeforeWord,
    AfterAny(&[
        "is", "was", "are", "were", "be", "been", "i", "we", "you", "they", "he", "she", "it", "it's", "that's", "i'm",
    ]),
    NotBefore(&["you", "him", "her", "them", "me", "us", "it"]),
];

/// confident.
static HEDGES: &[Rule] = &[
    Rule::when("i think that", "", OPENER_THAT),
    Rule::when("i think", "", OPENER),
    Rule::when("i believe that", "", OPENER_THAT),
    Rule::when("i believe", "", OPENER),
    Rule::when("i feel that", "", OPENER_THAT),
    Rule::when("i feel like", "", OPENER),
    Rule::when("i guess", "", OPENER),
    Rule::when("i suppose", "", OPENER),
    Rule::when("it seems that", "", OPENER_THAT),
    Rule::when("in my opinion,", "", OPENER),
    Rule::when("hopefully,", "", OPENER),
    Rule::when("maybe", "", OPENER),
    Rule::when("maybe,", "", OPENER),
    Rule::when("perhaps", "", OPENER),
    Rule::when("perhaps,", "", OPENER),
    Rule::when("maybe", "", INNER),
    Rule::when("perhaps", "", INNER),
    Rule::when("probably", "", INNER),
    Rule::when("most probably", "", INNER),
    Rule::when("possibly", "", INNER),
    Rule::when("somewhat", "", INNER),
    Rule::when("sort of", "", SORT_OF),
    Rule::when("kind of", "", SORT_OF),
    Rule::new("just wanted to", "wanted to"),
    Rule::new("just want to", "want to"),
];

/// diplomatic.
static SOFTENERS: &[Rule] = &[
    Rule::when("you should", "you might want to", &[SentenceStart, BeforeWord, NotBefore(&["not", "never", "have"])]),
    Rule::when(
        "you must",
        "you will need to",
        &[SentenceStart, BeforeWord, NotBefore(&["not", "never", "have", "be"])],
    ),
    Rule::when("you need to", "you may need to", &[SentenceStart, BeforeWord]),
    Rule::when("you are wrong", "I see it differently", &[SentenceStart, SentenceEnd]),
    Rule::when("you're wrong", "I see it differently", &[SentenceStart, SentenceEnd]),
    Rule::when("i disagree", "I see it differently", &[SentenceStart, SentenceEnd]),
    Rule::when("i disagree with you", "I see it differently", &[SentenceStart, SentenceEnd]),
    Rule::when("obviously,", "", &[SentenceStart, BeforeWord]),
    Rule::when("clearly,", "", &[SentenceStart, BeforeWord]),
    Rule::when("obviously", "", INNER),
];

/// A request: one of these verbs first, then an object.
static IMPERATIVES: Imperatives = Imperatives {
    verbs: &[
        "send", "give", "tell", "call", "fix", "check", "let", "email", "forward", "share", "review", "update",
        "confirm", "provide", "add", "remove", "change",
    ],
    followed_by: &[
        "me", "us", "him", "her", "them", "it", "the", "a", "an", "this", "that", "these", "those", "my", "our",
        "your", "his", "their",
    ],
    followed_by_exact_case: false,
    without_comma: false,
    please: "Please",
};

const CLOSING: &[Guard] = &[SentenceStart, BeforeCommaOrLineEnd];

/// friendly.
static GREETINGS: &[Rule] = &[
    Rule::when("dear sir or madam", "hello", &[SentenceStart]),
    Rule::when("dear sir/madam", "hello", &[SentenceStart]),
    Rule::when("dear sirs", "hello", &[SentenceStart]),
    Rule::when("to whom it may concern", "hello", &[SentenceStart]),
    Rule::when("yours faithfully", "best wishes", CLOSING),
    Rule::when("yours sincerely", "best wishes", CLOSING),
    Rule::when("yours truly", "best wishes", CLOSING),
    Rule::when("sincerely", "best wishes", CLOSING),
    Rule::when("regards", "best wishes", CLOSING),
];

const ALONE: &[Guard] = &[WholeSentence];

/// enthusiastic.
static EXCLAMATIONS: &[Rule] = &[
    Rule::when("thank you.", "thank you!", ALONE),
    Rule::when("thanks.", "thanks!", ALONE),
    Rule::when("thank you very much.", "thank you very much!", ALONE),
    Rule::when("thank you so much.", "thank you so much!", ALONE),
    Rule::when("thanks a lot.", "thanks a lot!", ALONE),
    Rule::when("many thanks.", "many thanks!", ALONE),
    Rule::when("congratulations.", "congratulations!", ALONE),
    Rule::when("well done.", "well done!", ALONE),
    Rule::when("great job.", "great job!", ALONE),
    Rule::when("good job.", "good job!", ALONE),
    Rule::when("good luck.", "good luck!", ALONE),
    Rule::when("see you soon.", "see you soon!", ALONE),
    Rule::when("see you tomorrow.", "see you tomorrow!", ALONE),
    Rule::when("see you then.", "see you then!", ALONE),
    Rule::when("have a nice day.", "have a nice day!", ALONE),
    Rule::when("have a great day.", "have a great day!", ALONE),
    Rule::when("have a good day.", "have a good day!", ALONE),
    Rule::when("have a nice weekend.", "have a nice weekend!", ALONE),
    Rule::when("have a great weekend.", "have a great weekend!", ALONE),
    Rule::when("happy birthday.", "happy birthday!", ALONE),
    Rule::when("welcome.", "welcome!", ALONE),
    Rule::when("looking forward to it.", "looking forward to it!", ALONE),
    Rule::when("i look forward to it.", "I look forward to it!", ALONE),
    Rule::when("we look forward to it.", "we look forward to it!", ALONE),
    Rule::when("sounds good.", "sounds good!", ALONE),
    Rule::when("sounds great.", "sounds great!", ALONE),
    Rule::when("great.", "great!", ALONE),
    Rule::when("excellent.", "excellent!", ALONE),
    Rule::when("perfect.", "perfect!", ALONE),
    Rule::when("happy to", "delighted to", &[NotAfter(&["not"])]),
    Rule::when("glad to", "delighted to", &[NotAfter(&["not"])]),
    Rule::new("good news", "great news"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rephrase::test_support::*;

    #[rustfmt::skip]
    const EXAMPLES: &[Example] = &[
        // casual: every contraction.
        (CASUAL_, "I do not know. She does not care. We did not go.", "I don't know. She doesn't care. We didn't go."),
        (CASUAL_, "It is not here and they are not there.", "It's not here and they're not there."),
        (CASUAL_, "Is not that odd? Are not they?", "Isn't that odd? Aren't they?"),
        (CASUAL_, "He was not in. They were not out.", "He wasn't in. They weren't out."),
        (CASUAL_, "I have not seen it. He has not called. We had not eaten.", "I haven't seen it. He hasn't called. We hadn't eaten."),
        (CASUAL_, "I will not go. You would not mind. We should not wait. They could not come.", "I won't go. You wouldn't mind. We shouldn't wait. They couldn't come."),
        (CASUAL_, "You must not touch it. I cannot help. We can not stay.", "You mustn't touch it. I can't help. We can't stay."),
        (CASUAL_, "I am sure you are right, and we are ready, but they are late.", "I'm sure you're right, and we're ready, but they're late."),
        (CASUAL_, "He is here. She is there. It is late. That is fine. There is time. Here is the file.", "He's here. She's there. It's late. That's fine. There's time. Here's the file."),
        (CASUAL_, "What is that? Who is coming? Where is the key?", "What's that? Who's coming? Where's the key?"),
        (CASUAL_, "I will call. You will see. We will win. They will come. He will try. She will know. It will work. That will do.", "I'll call. You'll see. We'll win. They'll come. He'll try. She'll know. It'll work. That'll do."),
        (CASUAL_, "I would say so. You would like it. We would go. They would know. He would help. She would agree.", "I'd say so. You'd like it. We'd go. They'd know. He'd help. She'd agree."),
        (CASUAL_, "I have been there. You have done it. We have seen it. They have never met.", "I've been there. You've done it. We've seen it. They've never met."),
        (CASUAL_, "He has been ill. She has been away. It has been long. That has been said. There has been news.", "He's been ill. She's been away. It's been long. That's been said. There's been news."),
        (CASUAL_, "DO NOT ENTER. Do Not Disturb.", "DON'T ENTER. Don't Disturb."),
        (CASUAL_, "It’s true: I do not know.", "It’s true: I don’t know."),
        // casual: where contracting would be wrong.
        (CASUAL_, "I know who you are and what you do.", "I know who you are and what you do."),
        (CASUAL_, "We are here, and they are too. You are not either.", "We're here, and they are too. You're not either."),
        (CASUAL_, "Yes, it is. Here you are. That is, it works.", "Yes, it is. Here you are. That is, it works."),
        (CASUAL_, "What is it? Who is it?", "What is it? Who is it?"),
        (CASUAL_, "I have a car. We have two.", "I have a car. We have two."),
        (CASUAL_, "You can not only read but also write.", "You can not only read but also write."),
        (CASUAL_, "Please let us know.", "Please let us know."),
        (CASUAL_, "Run `do not` or see <b>do</b> not.", "Run `do not` or see <b>do</b> not."),
        // business: every expansion.
        (BUSINESS_, "We don't know. It doesn't work. They didn't call.", "We do not know. It does not work. They did not call."),
        (BUSINESS_, "It isn't ready and they aren't here.", "It is not ready and they are not here."),
        (BUSINESS_, "He wasn't in. They weren't out.", "He was not in. They were not out."),
        (BUSINESS_, "I haven't seen it. He hasn't called. We hadn't eaten.", "I have not seen it. He has not called. We had not eaten."),
        (BUSINESS_, "I won't go. We wouldn't mind. You shouldn't wait. They couldn't come.", "I will not go. We would not mind. You should not wait. They could not come."),
        (BUSINESS_, "We can't help. You mustn't touch it. You needn't worry. We shan't stay.", "We cannot help. You must not touch it. You need not worry. We shall not stay."),
        (BUSINESS_, "I'm sure you're right; we're ready and they're late.", "I am sure you are right; we are ready and they are late."),
        (BUSINESS_, "He's been ill. He's got it. He's here.", "He has been ill. He has got it. He is here."),
        (BUSINESS_, "She's been away. She's got it. She's here.", "She has been away. She has got it. She is here."),
        (BUSINESS_, "It's been long. It's got a bug. It's late.", "It has been long. It has got a bug. It is late."),
        (BUSINESS_, "That's been said. That's fine. There's been news. There's time.", "That has been said. That is fine. There has been news. There is time."),
        (BUSINESS_, "Here's the file. What's new? Who's there? Where's the key?", "Here is the file. What is new? Who is there? Where is the key?"),
        (BUSINESS_, "I've seen it. You've done it. We've won. They've left.", "I have seen it. You have done it. We have won. They have left."),
        (BUSINESS_, "We could've won. You should've asked. I would've come. It might've worked. It must've broken.", "We could have won. You should have asked. I would have come. It might have worked. It must have broken."),
        (BUSINESS_, "I'll call. You'll see. He'll try. She'll know. It'll work. We'll win. They'll come. That'll do.", "I will call. You will see. He will try. She will know. It will work. We will win. They will come. That will do."),
        (BUSINESS_, "I'd like that. You'd be right. He'd say so. She'd agree. We'd prefer it. They'd rather wait.", "I would like that. You would be right. He would say so. She would agree. We would prefer it. They would rather wait."),
        (BUSINESS_, "Let's start.", "Let us start."),
        // business: where spelling out would be wrong.
        (BUSINESS_, "Don't you agree? It works, isn't it? I'd gone home.", "Don't you agree? It works, isn't it? I'd gone home."),
        (BUSINESS_, "The dog is John's.", "The dog is John's."),
        // business: slang and the rest.
        (BUSINESS_, "We're gonna ship and wanna know. Gimme a sec, lemme check.", "We are going to ship and want to know. Give me a sec, let me check."),
        (BUSINESS_, "I dunno, cuz it broke 'cause of the update.", "I do not know, because it broke because of the update."),
        (BUSINESS_, "Go thru it till Friday, anyways.", "Go through it until Friday, anyway."),
        (BUSINESS_, "Yeah. Yep. Yup. Nope. Awesome work.", "Yes. Yes. Yes. No. Excellent work."),
        (BUSINESS_, "Reply ASAP. Reply asap. FYI, BTW and btw it works.", "Reply as soon as possible. Reply as soon as possible. For your information, by the way and by the way it works."),
        (BUSINESS_, "Put it in the till. Say 'cause' aloud.", "Put it in the till. Say 'cause' aloud."),
        (BUSINESS_, "Thanks for the file. Thanks so much. Thanks a lot. Thanks!", "Thank you for the file. Thank you so much. Thank you very much. Thank you!"),
        (BUSINESS_, "Hi John, hey is a word. Hey team,", "Hello John, hey is a word. Hello team,"),
        (BUSINESS_, "Thanks to you, it works. Many thanks.", "Thanks to you, it works. Many thanks."),
        // academic.
        (ACADEMIC_, "The kids don't learn totally alone; maybe they can't.", "The children do not learn completely alone; perhaps they cannot."),
        (ACADEMIC_, "We figure out what he figures out and what they figured out by figuring out more.", "We determine what he determines and what they determined by determining more."),
        (ACADEMIC_, "We point out what she points out, as they pointed out when pointing out errors.", "We indicate what she indicates, as they indicated when indicating errors."),
        (ACADEMIC_, "We talk about it, as they talked about it while talking about it.", "We discuss it, as they discussed it while discussing it."),
        (ACADEMIC_, "Also, it fails. Plus, it is slow. Besides, it costs. But it works.", "Furthermore, it fails. In addition, it is slow. Moreover, it costs. However, it works."),
        (ACADEMIC_, "He kids. It is a maybe. A figure out of line. The points out of ten. A talk about it. But for him, no.", "He kids. It is a maybe. A figure out of line. The points out of ten. A talk about it. But for him, no."),
        // simple.
        (SIMPLE_, "In order to win, due to the fact that we lost, owing to the fact that we can.", "To win, because we lost, because we can."),
        (SIMPLE_, "In light of the fact that it rained, on the grounds that it was late, for the reason that it is cold.", "Because it rained, because it was late, because it is cold."),
        (SIMPLE_, "Despite the fact that it works, in spite of the fact that it is slow, in spite of the cost.", "Although it works, although it is slow, despite the cost."),
        (SIMPLE_, "At this point in time, at the present time and in the near future, at all times.", "Now, now and soon, always."),
        (SIMPLE_, "A large number of cats, a great number of dogs, a small number of birds and a number of fish.", "Many cats, many dogs, a few birds and several fish."),
        (SIMPLE_, "A sufficient number of seats and a sufficient amount of time.", "Enough seats and enough time."),
        (SIMPLE_, "In the event that it fails, prior to noon, subsequent to lunch, until such time as it works.", "If it fails, before noon, after lunch, until it works."),
        (SIMPLE_, "With regard to A, with regards to B, in regard to C, in regards to D.", "About A, about B, about C, about D."),
        (SIMPLE_, "For the purpose of tests, in close proximity to the sea, in excess of ten.", "For tests, near the sea, more than ten."),
        (SIMPLE_, "All with the exception of one, in the absence of rain, by means of a rope.", "All except one, without rain, by a rope."),
        (SIMPLE_, "Each and every time, first and foremost.", "Every time, first."),
        (SIMPLE_, "He is able to swim, they are able to run and I am able to fly.", "He can swim, they can run and I can fly."),
        (SIMPLE_, "He is not able to swim, they are not able to run and I am not able to fly.", "He cannot swim, they cannot run and I cannot fly."),
        (SIMPLE_, "It has the ability to fly and we have the ability to swim.", "It can fly and we can swim."),
        (SIMPLE_, "We make a decision, she makes a decision, they made a decision after making a decision.", "We decide, she decides, they decided after deciding."),
        (SIMPLE_, "Give consideration to it.", "Consider it."),
        (SIMPLE_, "On a daily basis, on a weekly basis, on a monthly basis, on a yearly basis and on a regular basis.", "Daily, weekly, monthly, yearly and regularly."),
        (SIMPLE_, "It is important to note that it works. It should be noted that it fails. It is worth noting that it is free.", "It works. It fails. It is free."),
        (SIMPLE_, "Utilize it; he utilizes it, utilized it and is utilizing it.", "Use it; he uses it, used it and is using it."),
        (SIMPLE_, "Utilise it; he utilises it, utilised it and is utilising it for utilization and utilisation.", "Use it; he uses it, used it and is using it for use and use."),
        (SIMPLE_, "Commence now; it commences, commenced and is commencing.", "Start now; it starts, started and is starting."),
        (SIMPLE_, "Approximately numerous people had sufficient assistance.", "About many people had enough help."),
        (SIMPLE_, "Demonstrate it; she demonstrates it by demonstrating it.", "Show it; she shows it by showing it."),
        (SIMPLE_, "It is a sufficient reason.", "It is a sufficient reason."),
        (SIMPLE_,
         "We reviewed every report that the team had sent during the last quarter of the year, and we found that most of them were complete and well written.",
         "We reviewed every report that the team had sent during the last quarter of the year. We found that most of them were complete and well written."),
        (SIMPLE_,
         "The new version of the application loads much faster than the old one on most devices, but it still uses too much memory on older phones and tablets.",
         "The new version of the application loads much faster than the old one on most devices. However, it still uses too much memory on older phones and tablets."),
        (SIMPLE_,
         "The committee met on Monday to discuss the budget for the coming year in great detail; the members agreed on most points but postponed the final vote.",
         "The committee met on Monday to discuss the budget for the coming year in great detail. The members agreed on most points but postponed the final vote."),
        (SIMPLE_,
         "We bought apples, pears, plums, grapes, lemons, oranges, cherries, peaches, apricots, melons, kiwis, mangos, figs, dates, nuts, beans, peas, and limes at the big market in town.",
         "We bought apples, pears, plums, grapes, lemons, oranges, cherries, peaches, apricots, melons, kiwis, mangos, figs, dates, nuts, beans, peas, and limes at the big market in town."),
        // confident.
        (CONFIDENT_, "I think that we should go. I think this works. I believe that it is true. I believe you are right.", "We should go. This works. It is true. You are right."),
        (CONFIDENT_, "I feel that it fails. I feel like we won. I guess it works. I suppose they know. It seems that he left.", "It fails. We won. It works. They know. He left."),
        (CONFIDENT_, "In my opinion, it is good. Hopefully, we win.", "It is good. We win."),
        (CONFIDENT_, "Maybe we should go. Maybe, we should stay. Perhaps it works. Perhaps, it fails.", "We should go. We should stay. It works. It fails."),
        (CONFIDENT_, "We could maybe try, and it will perhaps work, as it is probably fine and most probably cheap.", "We could try, and it will work, as it is fine and cheap."),
        (CONFIDENT_, "It is possibly true and somewhat hard.", "It is true and hard."),
        (CONFIDENT_, "It is sort of odd and I kind of agree.", "It is odd and I agree."),
        (CONFIDENT_, "I just wanted to ask. We just want to help.", "I wanted to ask. We want to help."),
        (CONFIDENT_, "I think maybe we should go.", "We should go."),
        (CONFIDENT_, "I think that is wrong.", "That is wrong."),
        (CONFIDENT_, "I think that the plan is good. I believe that our team can do it.", "The plan is good. Our team can do it."),
        (CONFIDENT_, "Perhaps we could meet? Maybe we should ask? Could we maybe meet?", "Perhaps we could meet? Maybe we should ask? Could we meet?"),
        // confident: where dropping would break the sentence.
        (CONFIDENT_, "I think so. I think about it. Maybe. Maybe not. It is kind of you. What kind of car is it? It is a maybe.", "I think so. I think about it. Maybe. Maybe not. It is kind of you. What kind of car is it? It is a maybe."),
        // diplomatic.
        (DIPLOMATIC_, "You should check the logs. You must submit it today. You need to update.", "You might want to check the logs. You will need to submit it today. You may need to update."),
        (DIPLOMATIC_, "You are wrong. You're wrong! I disagree. I disagree with you.", "I see it differently. I see it differently! I see it differently. I see it differently."),
        (DIPLOMATIC_, "Obviously, it fails. Clearly, we lost. You obviously forgot.", "It fails. We lost. You forgot."),
        (DIPLOMATIC_, "Send me the file. Give us a call. Tell him now. Call the doctor. Fix the bug. Check this.", "Please send me the file. Please give us a call. Please tell him now. Please call the doctor. Please fix the bug. Please check this."),
        (DIPLOMATIC_, "Let me know. Email them. Forward it. Share your notes. Review the text. Update the page.", "Please let me know. Please email them. Please forward it. Please share your notes. Please review the text. Please update the page."),
        (DIPLOMATIC_, "Confirm the date. Provide an answer. Add a line. Remove those. Change my name.", "Please confirm the date. Please provide an answer. Please add a line. Please remove those. Please change my name."),
        (DIPLOMATIC_, "You should not go. You must be tired. Send me the file? Call ended. Send me it, please. You are wrong about this.", "You should not go. You must be tired. Send me the file? Call ended. Send me it, please. You are wrong about this."),
        // enthusiastic.
        (ENTHUSIASTIC_, "Thank you. Thanks. Thank you very much. Thank you so much. Thanks a lot. Many thanks.", "Thank you! Thanks! Thank you very much! Thank you so much! Thanks a lot! Many thanks!"),
        (ENTHUSIASTIC_, "Congratulations. Well done. Great job. Good job. Good luck.", "Congratulations! Well done! Great job! Good job! Good luck!"),
        (ENTHUSIASTIC_, "See you soon. See you tomorrow. See you then.", "See you soon! See you tomorrow! See you then!"),
        (ENTHUSIASTIC_, "Have a nice day. Have a great day. Have a good day. Have a nice weekend. Have a great weekend.", "Have a nice day! Have a great day! Have a good day! Have a nice weekend! Have a great weekend!"),
        (ENTHUSIASTIC_, "Happy birthday. Welcome. Looking forward to it. I look forward to it. We look forward to it.", "Happy birthday! Welcome! Looking forward to it! I look forward to it! We look forward to it!"),
        (ENTHUSIASTIC_, "Sounds good. Sounds great. Great. Excellent. Perfect.", "Sounds good! Sounds great! Great! Excellent! Perfect!"),
        (ENTHUSIASTIC_, "I am happy to help and glad to report good news.", "I am delighted to help and delighted to report great news."),
        (ENTHUSIASTIC_, "Thank you for the file. I am not happy to say it. Thanks...", "Thank you for the file. I am not happy to say it. Thanks..."),
        // friendly.
        (FRIENDLY_, "Dear Sir or Madam,\nI do not have the file. Send me the form.\nYours faithfully,\nAnna", "Hello,\nI don't have the file. Please send me the form.\nBest wishes,\nAnna"),
        (FRIENDLY_, "Dear Sir/Madam,\nDear Sirs,\nTo whom it may concern,\nYours sincerely,\nYours truly\nSincerely,\nRegards", "Hello,\nHello,\nHello,\nBest wishes,\nBest wishes\nBest wishes,\nBest wishes"),
        (FRIENDLY_, "Regards to your family.", "Regards to your family."),
    ];

    #[test]
    fn every_english_rule_does_what_its_examples_say() {
        check(
            "en-US",
            EXAMPLES,
            &[&CASUAL, &BUSINESS, &ACADEMIC, &SIMPLE, &CONFIDENT, &DIPLOMATIC, &ENTHUSIASTIC, &FRIENDLY],
        );
    }

    #[test]
    fn british_english_uses_the_same_rules() {
        let british = catalogue::find("en-GB").unwrap();
        let rephrased = crate::rephrase::rephrase_with_rules(british, "We will not stop.", CASUAL_);
        assert_eq!(rephrased.text, "We won't stop.");
    }
}
