//! German: the phrase tables and what each style and tone does with them.
//!
//! German needs more care than English: the finite verb comes second in a main clause, so a
//! sentence-initial word is never dropped unless it is a whole clause of its own ("Ich denke, …"),
//! and prepositions merge with the article only where the article is one (not a relative or
//! demonstrative pronoun: "das Haus, in das wir ziehen"; "zu der Zeit" is not "zurzeit").

use super::rules::Guard::*;
use super::rules::{Guard, Imperatives, Recipe, Recipes, Rule, Splitting, Step};
use super::text::Grammar;

pub(crate) const GRAMMAR: Grammar = Grammar {
    abbreviations: &[
        "z.b", "bzw", "usw", "ca", "d.h", "u.a", "nr", "dr", "hr", "fr", "evtl", "ggf", "vgl", "sog", "inkl", "zzgl",
        "bspw", "etc", "prof", "str", "tel", "u.ä", "o.ä", "abs", "jh", "mio", "mrd",
    ],
    ordinal_dot: true,
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
    description: "preposition and article merged before a noun (zu dem → zum, in das → ins, von dem → vom; not after a \
                  comma, not before a time: zu der Zeit stays); gibt es → gibt's, geht es → geht's, hat es → hat's; \
                  herein/hinein → rein, herunter → runter; , nicht wahr? → , oder?",
    steps: &[Step::Phrases(CONTRACTIONS)],
};

static BUSINESS: Recipe = Recipe {
    description: "colloquial forms spelled out (gibt's → gibt es, hab → habe, 'ne → eine, so'n → so ein), kriegen → \
                  bekommen, , ne? → , nicht wahr?",
    steps: &[Step::Phrases(COLLOQUIAL)],
};

static ACADEMIC: Recipe = Recipe {
    description: "colloquial forms spelled out as in business; informal words replaced (ein bisschen → etwas, Infos → \
                  Informationen, Uni → Universität, Handy → Mobiltelefon)",
    steps: &[Step::Phrases(COLLOQUIAL), Step::Phrases(ACADEMIC_WORDS)],
};

static SIMPLE: Recipe = Recipe {
    description: "wordy phrases shortened (aufgrund der Tatsache, dass → weil; zum gegenwärtigen Zeitpunkt → jetzt; im \
                  Falle, dass → falls; darüber hinaus → außerdem) and sentences over 25 words split at a semicolon or \
                  at \", und\"/\", aber\" before a new main clause",
    steps: &[Step::Phrases(WORDY), Step::Split(&SPLITTING)],
};

static CONFIDENT: Recipe = Recipe {
    description: "Ich denke, / Ich glaube, / Ich finde, dropped before a main clause; vielleicht, eventuell, \
                  wahrscheinlich, vermutlich, möglicherweise, sozusagen dropped inside a sentence (never first, where \
                  the verb-second order would break)",
    steps: &[Step::Phrases(HEDGES)],
};

static DIPLOMATIC: Recipe = Recipe {
    description: "Bitte before a formal request (Schicken Sie mir … → Bitte schicken Sie mir …); Sie irren sich. → Ich \
                  sehe das anders.; Das ist falsch. → Das sehe ich anders.",
    steps: &[Step::Phrases(SOFTENERS), Step::Please(&IMPERATIVES)],
};

static ENTHUSIASTIC: Recipe = Recipe {
    description: "short positive sentences end with ! (Vielen Dank! Bis bald!); freue mich → freue mich sehr; gute \
                  Nachricht → großartige Nachricht",
    steps: &[Step::Phrases(EXCLAMATIONS)],
};

static FRIENDLY: Recipe = Recipe {
    description: "warm greetings and closings (Sehr geehrte Damen und Herren → Hallo zusammen, Sehr geehrter Herr → \
                  Lieber Herr, Mit freundlichen Grüßen → Viele Grüße); Bitte before a formal request",
    steps: &[Step::Phrases(GREETINGS), Step::Please(&IMPERATIVES)],
};

/// Nouns of time (and "Wetter"), before which the article is usually a demonstrative: "zu der
/// Zeit" (then) is not "zur Zeit" (now), "bei dem Wetter" (in such weather) not "beim Wetter".
const TIMES: &[&str] = &[
    "zeit",
    "zeitpunkt",
    "moment",
    "augenblick",
    "tag",
    "jahr",
    "monat",
    "woche",
    "abend",
    "morgen",
    "mittag",
    "nachmittag",
    "vormittag",
    "nacht",
    "stunde",
    "minute",
    "sekunde",
    "zeitraum",
    "wetter",
];

const ARTICLE: &[Guard] = &[NotAfterClauseMark, BeforeNoun(TIMES)];

/// casual.
static CONTRACTIONS: &[Rule] = &[
    Rule::when("auf das", "aufs", ARTICLE),
    Rule::when("in das", "ins", ARTICLE),
    Rule::when("an das", "ans", ARTICLE),
    Rule::when("zu dem", "zum", ARTICLE),
    Rule::when("zu der", "zur", ARTICLE),
    Rule::when("von dem", "vom", ARTICLE),
    Rule::when("bei dem", "beim", ARTICLE),
    Rule::new("gibt es", "gibt's"),
    Rule::new("geht es", "geht's"),
    Rule::new("hat es", "hat's"),
    Rule::new("herein", "rein"),
    Rule::new("hinein", "rein"),
    Rule::new("herunter", "runter"),
    Rule::new("hinunter", "runter"),
    Rule::new("herauf", "rauf"),
    Rule::new("hinauf", "rauf"),
    Rule::new("herüber", "rüber"),
    Rule::new("hinüber", "rüber"),
    Rule::when(", nicht wahr", ", oder", &[BeforeAny(&["?"])]),
];

/// business, academic.
static COLLOQUIAL: &[Rule] = &[
    Rule::new("gibt's", "gibt es"),
    Rule::new("geht's", "geht es"),
    Rule::new("hat's", "hat es"),
    Rule::new("ist's", "ist es"),
    Rule::new("war's", "war es"),
    Rule::new("wird's", "wird es"),
    Rule::new("klappt's", "klappt es"),
    Rule::new("steht's", "steht es"),
    Rule::new("macht's", "macht es"),
    Rule::new("hab's", "habe es"),
    // "Hab und Gut" is a noun.
    Rule::when("hab", "habe", &[NotBefore(&["und"])]),
    Rule::new("so'n", "so ein"),
    Rule::new("'ne", "eine"),
    Rule::new("'nen", "einen"),
    Rule::when("'n", "ein", &[NotBefore(&["'"])]),
    Rule::new("kriegen", "bekommen"),
    Rule::new("kriege", "bekomme"),
    Rule::new("kriegst", "bekommst"),
    Rule::new("kriegt", "bekommt"),
    Rule::new("gekriegt", "bekommen"),
    Rule::when(", ne", ", nicht wahr", &[BeforeAny(&["?"])]),
];

/// academic.
static ACADEMIC_WORDS: &[Rule] = &[
    Rule::new("ein bisschen", "etwas"),
    Rule::new("ein bißchen", "etwas"),
    Rule::when("Infos", "Informationen", &[ExactCase]),
    Rule::when("Info", "Information", &[ExactCase]),
    Rule::when("Uni", "Universität", &[ExactCase]),
    Rule::when("Unis", "Universitäten", &[ExactCase]),
    Rule::when("Handy", "Mobiltelefon", &[ExactCase]),
];

/// simple.
static WORDY: &[Rule] = &[
    Rule::new("aufgrund der tatsache, dass", "weil"),
    Rule::new("auf grund der tatsache, dass", "weil"),
    Rule::new("trotz der tatsache, dass", "obwohl"),
    Rule::new("ungeachtet der tatsache, dass", "obwohl"),
    Rule::new("angesichts der tatsache, dass", "da"),
    Rule::new("in anbetracht der tatsache, dass", "da"),
    Rule::new("vor dem hintergrund, dass", "da"),
    Rule::new("unter der voraussetzung, dass", "wenn"),
    Rule::new("im falle, dass", "falls"),
    Rule::new("im fall, dass", "falls"),
    Rule::new("für den fall, dass", "falls"),
    Rule::new("zu dem zeitpunkt, als", "als"),
    Rule::new("zum gegenwärtigen zeitpunkt", "jetzt"),
    Rule::new("zum jetzigen zeitpunkt", "jetzt"),
    Rule::new("zum derzeitigen zeitpunkt", "jetzt"),
    Rule::new("zum heutigen zeitpunkt", "heute"),
    Rule::new("in naher zukunft", "bald"),
    Rule::new("zu jeder zeit", "immer"),
    Rule::new("mit ausnahme von", "außer"),
    Rule::new("in der regel", "meist"),
    Rule::new("aus diesem grund", "deshalb"),
    // Only first: inside a sentence it may mean "beyond that" ("Er ging darüber hinaus").
    Rule::when("darüber hinaus", "außerdem", &[SentenceStart]),
    Rule::new("des weiteren", "außerdem"),
    Rule::new("nichtsdestotrotz", "trotzdem"),
    Rule::new("im großen und ganzen", "insgesamt"),
];

static SPLITTING: Splitting = Splitting {
    max_words: 25,
    min_part_words: 6,
    joins: &[("und", ""), ("aber", "aber"), ("doch", "doch")],
    subjects: &["ich", "du", "er", "sie", "es", "wir", "ihr", "man", "das", "dies", "dann", "deshalb", "daher"],
};

/// Words that start a subordinate or infinitive clause: after them "Ich denke," cannot go.
const SUBORDINATORS: &[&str] = &[
    "dass", "ob", "wenn", "weil", "da", "als", "wie", "was", "wer", "wo", "wann", "warum", "weshalb", "wieso",
    "welche", "welcher", "welches", "welchen", "obwohl", "damit", "sodass", "falls", "bevor", "nachdem", "während",
    "seit", "seitdem", "sobald", "solange", "indem", "ohne", "um", "statt", "anstatt", "zu", "je", "wohin", "woher",
    "worüber", "wofür", "womit", "woran", "worauf",
];

const OPENER: &[Guard] = &[SentenceStart, NotInQuestion, BeforeWord, NotBefore(SUBORDINATORS)];
/// A hedge inside a sentence, between two words, not bound to the word before it.
const INNER: &[Guard] = &[
    NotSentenceStart,
    AfterWord,
    BeforeWord,
    NotAfter(&["sehr", "höchst", "eher", "nicht", "ziemlich", "recht", "durchaus", "so", "ganz", "nur", "wie", "als"]),
];

/// confident.
static HEDGES: &[Rule] = &[
    Rule::when("ich denke,", "", OPENER),
    Rule::when("ich glaube,", "", OPENER),
    Rule::when("ich finde,", "", OPENER),
    Rule::when("ich meine,", "", OPENER),
    Rule::when("ich vermute,", "", OPENER),
    Rule::when("vielleicht", "", INNER),
    Rule::when("eventuell", "", INNER),
    Rule::when("möglicherweise", "", INNER),
    Rule::when("wahrscheinlich", "", INNER),
    Rule::when("vermutlich", "", INNER),
    Rule::when("sozusagen", "", INNER),
    Rule::when("gewissermaßen", "", INNER),
];

const WHOLE_CLAUSE: &[Guard] = &[SentenceStart, SentenceEnd];

/// diplomatic.
static SOFTENERS: &[Rule] = &[
    Rule::when("sie irren sich", "ich sehe das anders", WHOLE_CLAUSE),
    Rule::when("du irrst dich", "ich sehe das anders", WHOLE_CLAUSE),
    Rule::when("das ist falsch", "das sehe ich anders", WHOLE_CLAUSE),
    Rule::when("das stimmt nicht", "das sehe ich anders", WHOLE_CLAUSE),
];

/// A formal request: the verb first, then "Sie".
static IMPERATIVES: Imperatives = Imperatives {
    verbs: &[
        "schicken",
        "senden",
        "geben",
        "sagen",
        "rufen",
        "prüfen",
        "überprüfen",
        "melden",
        "lassen",
        "teilen",
        "beachten",
        "kontaktieren",
        "informieren",
        "antworten",
        "schreiben",
        "bestätigen",
        "füllen",
        "beantworten",
        "ergänzen",
        "korrigieren",
        "ändern",
        "sehen",
        "schauen",
        "nehmen",
    ],
    followed_by: &["Sie"],
    followed_by_exact_case: true,
    without_comma: true,
    please: "Bitte",
};

const CLOSING: &[Guard] = &[SentenceStart, BeforeCommaOrLineEnd];

/// friendly.
static GREETINGS: &[Rule] = &[
    Rule::when("sehr geehrte damen und herren", "hallo zusammen", &[SentenceStart]),
    Rule::when("sehr geehrter herr", "lieber Herr", &[SentenceStart]),
    Rule::when("sehr geehrte frau", "liebe Frau", &[SentenceStart]),
    Rule::when("mit freundlichen grüßen", "viele Grüße", CLOSING),
    Rule::when("mit freundlichem gruß", "viele Grüße", CLOSING),
    Rule::when("freundliche grüße", "viele Grüße", CLOSING),
    Rule::when("hochachtungsvoll", "viele Grüße", CLOSING),
];

const ALONE: &[Guard] = &[WholeSentence];
/// "freue mich" becomes "freue mich sehr" unless it is intensified or negated already.
const NOT_INTENSIFIED: &[Guard] = &[NotBefore(&[
    "sehr",
    "riesig",
    "so",
    "wirklich",
    "total",
    "nicht",
    "besonders",
    "außerordentlich",
    "ganz",
    "schon",
    "unheimlich",
    "wahnsinnig",
    "kein",
    "keine",
])];

/// enthusiastic.
static EXCLAMATIONS: &[Rule] = &[
    Rule::when("danke.", "danke!", ALONE),
    Rule::when("vielen dank.", "vielen Dank!", ALONE),
    Rule::when("danke schön.", "danke schön!", ALONE),
    Rule::when("dankeschön.", "dankeschön!", ALONE),
    Rule::when("danke sehr.", "danke sehr!", ALONE),
    Rule::when("herzlichen dank.", "herzlichen Dank!", ALONE),
    Rule::when("besten dank.", "besten Dank!", ALONE),
    Rule::when("bis bald.", "bis bald!", ALONE),
    Rule::when("bis morgen.", "bis morgen!", ALONE),
    Rule::when("bis dann.", "bis dann!", ALONE),
    Rule::when("schönen tag noch.", "schönen Tag noch!", ALONE),
    Rule::when("einen schönen tag noch.", "einen schönen Tag noch!", ALONE),
    Rule::when("schönes wochenende.", "schönes Wochenende!", ALONE),
    Rule::when("ein schönes wochenende.", "ein schönes Wochenende!", ALONE),
    Rule::when("herzlichen glückwunsch.", "herzlichen Glückwunsch!", ALONE),
    Rule::when("gut gemacht.", "gut gemacht!", ALONE),
    Rule::when("viel erfolg.", "viel Erfolg!", ALONE),
    Rule::when("viel glück.", "viel Glück!", ALONE),
    Rule::when("alles gute.", "alles Gute!", ALONE),
    Rule::when("gerne.", "gerne!", ALONE),
    Rule::when("gern geschehen.", "gern geschehen!", ALONE),
    Rule::when("super.", "super!", ALONE),
    Rule::when("toll.", "toll!", ALONE),
    Rule::when("prima.", "prima!", ALONE),
    Rule::when("perfekt.", "perfekt!", ALONE),
    Rule::when("willkommen.", "willkommen!", ALONE),
    Rule::when("freue mich", "freue mich sehr", NOT_INTENSIFIED),
    Rule::when("freuen uns", "freuen uns sehr", NOT_INTENSIFIED),
    Rule::when("freut mich", "freut mich sehr", NOT_INTENSIFIED),
    Rule::when("freut uns", "freut uns sehr", NOT_INTENSIFIED),
    Rule::new("gute nachricht", "großartige Nachricht"),
    Rule::new("gute nachrichten", "großartige Nachrichten"),
    Rule::new("guten nachrichten", "großartigen Nachrichten"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rephrase::test_support::*;

    #[rustfmt::skip]
    const EXAMPLES: &[Example] = &[
        // casual.
        (CASUAL_, "Ich freue mich auf das Wochenende und gehe in das Kino.", "Ich freue mich aufs Wochenende und gehe ins Kino."),
        (CASUAL_, "Ich denke an das Treffen. Er kam zu dem Schluss.", "Ich denke ans Treffen. Er kam zum Schluss."),
        (CASUAL_, "Zu der Schule geht sie von dem Bahnhof aus und bei dem Bäcker vorbei.", "Zur Schule geht sie vom Bahnhof aus und beim Bäcker vorbei."),
        (CASUAL_, "Gibt es noch Kaffee? Wie geht es dir? Hat es geschmeckt?", "Gibt's noch Kaffee? Wie geht's dir? Hat's geschmeckt?"),
        (CASUAL_, "Komm herein! Geh hinein, dann herunter, hinunter, herauf, hinauf, herüber und hinüber.", "Komm rein! Geh rein, dann runter, runter, rauf, rauf, rüber und rüber."),
        (CASUAL_, "Das ist gut, nicht wahr?", "Das ist gut, oder?"),
        // casual: where the article is not one, or a time follows.
        (CASUAL_, "Das Haus, in das wir ziehen, ist alt. Das Buch, von dem Peter sprach.", "Das Haus, in das wir ziehen, ist alt. Das Buch, von dem Peter sprach."),
        (CASUAL_, "Zu der Zeit war er jung. Bei dem Wetter bleibe ich. Zu dem Zeitpunkt schlief er.", "Zu der Zeit war er jung. Bei dem Wetter bleibe ich. Zu dem Zeitpunkt schlief er."),
        (CASUAL_, "Er ging zu dem Haus, das dort steht. Er ging zu dem großen Haus.", "Er ging zu dem Haus, das dort steht. Er ging zu dem großen Haus."),
        (CASUAL_, "Nicht wahr.", "Nicht wahr."),
        // business.
        (BUSINESS_, "Gibt's Neues? Wie geht's? Hat's geklappt? Wie ist's? Das war's.", "Gibt es Neues? Wie geht es? Hat es geklappt? Wie ist es? Das war es."),
        (BUSINESS_, "Wird's gehen? Klappt's? Wie steht's? Macht's Spaß?", "Wird es gehen? Klappt es? Wie steht es? Macht es Spaß?"),
        (BUSINESS_, "Ich hab's gesehen. Ich hab so'n Problem.", "Ich habe es gesehen. Ich habe so ein Problem."),
        (BUSINESS_, "Ich hab 'ne Frage und 'nen Wunsch und 'n Problem.", "Ich habe eine Frage und einen Wunsch und ein Problem."),
        (BUSINESS_, "Wir kriegen es. Ich kriege es. Du kriegst es. Er kriegt es. Wir haben es gekriegt.", "Wir bekommen es. Ich bekomme es. Du bekommst es. Er bekommt es. Wir haben es bekommen."),
        (BUSINESS_, "Das ist gut, ne?", "Das ist gut, nicht wahr?"),
        (BUSINESS_, "Sie verlor Hab und Gut.", "Sie verlor Hab und Gut."),
        // academic.
        (ACADEMIC_, "Das ist ein bisschen schwierig, ein bißchen teuer und gibt's selten.", "Das ist etwas schwierig, etwas teuer und gibt es selten."),
        (ACADEMIC_, "Infos zur Info gibt die Uni; alle Unis haben ein Handy.", "Informationen zur Information gibt die Universität; alle Universitäten haben ein Mobiltelefon."),
        (ACADEMIC_, "Die info ist klein.", "Die info ist klein."),
        // simple.
        (SIMPLE_, "Aufgrund der Tatsache, dass es regnet, und auf Grund der Tatsache, dass es kalt ist, bleiben wir.", "Weil es regnet, und weil es kalt ist, bleiben wir."),
        (SIMPLE_, "Trotz der Tatsache, dass es regnet, und ungeachtet der Tatsache, dass es kalt ist, gehen wir.", "Obwohl es regnet, und obwohl es kalt ist, gehen wir."),
        (SIMPLE_, "Angesichts der Tatsache, dass es spät ist, in Anbetracht der Tatsache, dass wir müde sind, und vor dem Hintergrund, dass es regnet, gehen wir.", "Da es spät ist, da wir müde sind, und da es regnet, gehen wir."),
        (SIMPLE_, "Unter der Voraussetzung, dass es passt, kommen wir.", "Wenn es passt, kommen wir."),
        (SIMPLE_, "Im Falle, dass es regnet, im Fall, dass es schneit, und für den Fall, dass es stürmt, bleiben wir.", "Falls es regnet, falls es schneit, und falls es stürmt, bleiben wir."),
        (SIMPLE_, "Zu dem Zeitpunkt, als er kam, schliefen wir.", "Als er kam, schliefen wir."),
        (SIMPLE_, "Zum gegenwärtigen Zeitpunkt, zum jetzigen Zeitpunkt und zum derzeitigen Zeitpunkt geht es, zum heutigen Zeitpunkt auch.", "Jetzt, jetzt und jetzt geht es, heute auch."),
        (SIMPLE_, "In naher Zukunft ist es zu jeder Zeit offen, mit Ausnahme von Montag.", "Bald ist es immer offen, außer Montag."),
        (SIMPLE_, "In der Regel geht es. Aus diesem Grund bleiben wir.", "Meist geht es. Deshalb bleiben wir."),
        (SIMPLE_, "Darüber hinaus ist es teuer. Des Weiteren ist es langsam. Nichtsdestotrotz kaufen wir es.", "Außerdem ist es teuer. Außerdem ist es langsam. Trotzdem kaufen wir es."),
        (SIMPLE_, "Im Großen und Ganzen passt es.", "Insgesamt passt es."),
        (SIMPLE_, "Er ging darüber hinaus.", "Er ging darüber hinaus."),
        (SIMPLE_,
         "Wir haben im letzten Quartal alle Berichte des ganzen Teams sorgfältig geprüft und verglichen, und wir haben festgestellt, dass die meisten vollständig und gut geschrieben waren.",
         "Wir haben im letzten Quartal alle Berichte des ganzen Teams sorgfältig geprüft und verglichen. Wir haben festgestellt, dass die meisten vollständig und gut geschrieben waren."),
        (SIMPLE_,
         "Die neue Version der Anwendung lädt auf den meisten Geräten deutlich schneller als die alte Version, aber sie braucht auf älteren Telefonen noch immer zu viel Speicher.",
         "Die neue Version der Anwendung lädt auf den meisten Geräten deutlich schneller als die alte Version. Aber sie braucht auf älteren Telefonen noch immer zu viel Speicher."),
        // confident.
        (CONFIDENT_, "Ich denke, wir sollten gehen. Ich glaube, das stimmt. Ich finde, es passt. Ich meine, es geht. Ich vermute, er kommt.", "Wir sollten gehen. Das stimmt. Es passt. Es geht. Er kommt."),
        (CONFIDENT_, "Wir sollten vielleicht gehen, es klappt eventuell und er kommt möglicherweise heute.", "Wir sollten gehen, es klappt und er kommt heute."),
        (CONFIDENT_, "Er ist wahrscheinlich krank und kommt vermutlich nicht. Das ist sozusagen fertig und gewissermaßen gut.", "Er ist krank und kommt nicht. Das ist fertig und gut."),
        // confident: where dropping would break the sentence.
        (CONFIDENT_, "Ich glaube, wir sind spät?", "Ich glaube, wir sind spät?"),
        (CONFIDENT_, "Ich denke, dass wir gehen sollten. Vielleicht sollten wir gehen. Das ist sehr wahrscheinlich richtig. Es ist wahrscheinlich.", "Ich denke, dass wir gehen sollten. Vielleicht sollten wir gehen. Das ist sehr wahrscheinlich richtig. Es ist wahrscheinlich."),
        // diplomatic.
        (DIPLOMATIC_, "Sie irren sich. Du irrst dich! Das ist falsch. Das stimmt nicht.", "Ich sehe das anders. Ich sehe das anders! Das sehe ich anders. Das sehe ich anders."),
        (DIPLOMATIC_, "Schicken Sie mir die Datei. Rufen Sie mich an! Prüfen Sie das.", "Bitte schicken Sie mir die Datei. Bitte rufen Sie mich an! Bitte prüfen Sie das."),
        (DIPLOMATIC_, "Schicken Sie mir das? Haben Sie Fragen, melden Sie sich. Schicken sie es? Bitte senden Sie es. Das ist falsch, sagt er.", "Schicken Sie mir das? Haben Sie Fragen, melden Sie sich. Schicken sie es? Bitte senden Sie es. Das ist falsch, sagt er."),
        // enthusiastic.
        (ENTHUSIASTIC_, "Danke. Vielen Dank. Danke schön. Dankeschön. Danke sehr. Herzlichen Dank. Besten Dank.", "Danke! Vielen Dank! Danke schön! Dankeschön! Danke sehr! Herzlichen Dank! Besten Dank!"),
        (ENTHUSIASTIC_, "Bis bald. Bis morgen. Bis dann. Schönen Tag noch. Einen schönen Tag noch.", "Bis bald! Bis morgen! Bis dann! Schönen Tag noch! Einen schönen Tag noch!"),
        (ENTHUSIASTIC_, "Schönes Wochenende. Ein schönes Wochenende. Herzlichen Glückwunsch. Gut gemacht.", "Schönes Wochenende! Ein schönes Wochenende! Herzlichen Glückwunsch! Gut gemacht!"),
        (ENTHUSIASTIC_, "Viel Erfolg. Viel Glück. Alles Gute. Gerne. Gern geschehen.", "Viel Erfolg! Viel Glück! Alles Gute! Gerne! Gern geschehen!"),
        (ENTHUSIASTIC_, "Super. Toll. Prima. Perfekt. Willkommen.", "Super! Toll! Prima! Perfekt! Willkommen!"),
        (ENTHUSIASTIC_, "Ich freue mich darauf. Wir freuen uns über die gute Nachricht. Das freut mich. Das freut uns.", "Ich freue mich sehr darauf. Wir freuen uns sehr über die großartige Nachricht. Das freut mich sehr. Das freut uns sehr."),
        (ENTHUSIASTIC_, "Gute Nachrichten! Mit guten Nachrichten kommt er.", "Großartige Nachrichten! Mit großartigen Nachrichten kommt er."),
        (ENTHUSIASTIC_, "Ich freue mich sehr. Das freut mich nicht. Danke für alles.", "Ich freue mich sehr. Das freut mich nicht. Danke für alles."),
        // friendly.
        (FRIENDLY_, "Sehr geehrte Damen und Herren,\nschicken Sie mir bitte die Datei. Senden Sie uns das Formular.\nMit freundlichen Grüßen\nAnna", "Hallo zusammen,\nschicken Sie mir bitte die Datei. Bitte senden Sie uns das Formular.\nViele Grüße\nAnna"),
        (FRIENDLY_, "Sehr geehrter Herr Müller,\nSehr geehrte Frau Dr. Weber,\nMit freundlichem Gruß\nFreundliche Grüße,\nHochachtungsvoll", "Lieber Herr Müller,\nLiebe Frau Dr. Weber,\nViele Grüße\nViele Grüße,\nViele Grüße"),
    ];

    #[test]
    fn every_german_rule_does_what_its_examples_say() {
        check(
            "de",
            EXAMPLES,
            &[&CASUAL, &BUSINESS, &ACADEMIC, &SIMPLE, &CONFIDENT, &DIPLOMATIC, &ENTHUSIASTIC, &FRIENDLY],
        );
    }
}
