//! What glossary matching costs, printed (not asserted): `cargo bench -p terms`.
//!
//! * Building a matcher (its Aho-Corasick automaton) for 1,000, 10,000 and 100,000 entries, and
//!   for 100,000 numbered ones. A translation builds one for the entries its texts may hold
//!   (those its texts' keys select), and the deterministic engine another.
//! * The glossary work of translating one text with 1,500, 5,000 and 15,000 distinct terms of a
//!   20,000-entry glossary, as the translation pipeline does it with the deterministic engine:
//!   the text's keys, the entries they select, the engine's matcher and its pass over the text,
//!   the pipeline's matcher, the expected target terms and the check of the engine's output.
//!   Linear work grows tenfold from 1,500 to 15,000.

use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::{Duration, Instant};

use terms::{GlossaryMatcher, Segment, contains_terms, first_key, text_keys};

/// The median of five timings of `work`.
fn median(mut work: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[2]
}

fn millis(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

/// `count` distinct made-up terms (one word, two words, or hyphenated), with targets.
fn glossary(count: usize) -> Vec<(String, String)> {
    const SYLLABLES: &[&str] = &["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "gra", "stel"];
    (0..count)
        .map(|index| {
            let (mut number, mut word) = (index, String::new());
            loop {
                word.push_str(SYLLABLES[number % SYLLABLES.len()]);
                number /= SYLLABLES.len();
                if number == 0 {
                    break;
                }
            }
            let source = match index % 3 {
                0 => word,
                1 => format!("{word} unit"),
                _ => format!("{word}-net"),
            };
            (source, format!("ziel{index}"))
        })
        .collect()
}

/// What a translation of `text` does with the glossary, with the deterministic engine.
fn translate(entries: &[(String, String)], text: &str) -> usize {
    // The store's answer: the entries whose key occurs in the text.
    let keys: BTreeSet<String> = text_keys(text);
    let selected: Vec<(String, String)> =
        entries.iter().filter(|(source, _)| keys.contains(&first_key(source))).cloned().collect();
    // The engine applies the glossary (upper-casing stands for translating).
    let engine = GlossaryMatcher::new(&selected);
    let output: String = engine
        .segments(text)
        .into_iter()
        .map(|segment| match segment {
            Segment::Plain(plain) | Segment::Placeholder(plain) => plain.to_uppercase(),
            Segment::Term { entry, capitalised } => engine.target(entry, capitalised),
        })
        .collect();
    // The pipeline checks that the output holds every term.
    let pipeline = GlossaryMatcher::new(&selected);
    let expected = pipeline.expected_terms(text);
    assert!(contains_terms(&output, &expected));
    expected.len()
}

fn main() {
    println!("building a matcher (median of 5)");
    for count in [1_000, 10_000, 100_000] {
        let entries = glossary(count);
        let time = median(|| drop(black_box(GlossaryMatcher::new(&entries))));
        println!("  {count:>7} entries                      {:>8.1} ms", millis(time));
    }
    // Every prefix past `term` is a term: the shape `automaton.rs` guards against.
    let numbered: Vec<(String, String)> =
        (0..100_000).map(|index| (format!("term{index}"), format!("ziel{index}"))).collect();
    let time = median(|| drop(black_box(GlossaryMatcher::new(&numbered))));
    println!("  100000 numbered entries (term0 …)      {:>8.1} ms", millis(time));

    println!("a translation's glossary work, 20,000-entry glossary (median of 5)");
    let entries = glossary(20_000);
    for hits in [1_500, 5_000, 15_000] {
        // Distinct terms, a sentence end after every twelfth.
        let mut text = String::new();
        for (index, (source, _)) in entries.iter().take(hits).enumerate() {
            text.push_str(source);
            text.push_str(if index % 12 == 11 { ". " } else { ", " });
        }
        let time = median(|| assert_eq!(translate(&entries, &text), hits));
        println!("  {hits:>6} distinct hits, {:>4} KB text     {:>8.1} ms", text.len() / 1000, millis(time));
    }
}
