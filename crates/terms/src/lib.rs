//! Glossary terms in texts: where a glossary's source terms occur, which keys a store looks its
//! entries up by, and whether a translation kept the target terms.
//!
//! The crate is pure Rust (its one dependency is `aho-corasick`), used by the engines, the
//! glossary store and the translation pipeline, natively and inside the Wasm components. It knows nothing of engines or
//! storage: a glossary is a slice of (source term, target term) pairs.
//!
//! # Placeholders
//!
//! A placeholder is exactly `<gN>`, `</gN>` or `<xN/>` with decimal `N` (the tags the caller
//! numbered, see [`placeholder_len`]); anything else that looks like markup is ordinary text.
//! Placeholders are opaque: terms are never searched inside them, and a term never spans one.
//!
//! # Matching
//!
//! [`GlossaryMatcher::segments`] cuts a text into plain runs, placeholders and term occurrences,
//! scanning it once with one automaton of the whole glossary, so its cost grows with the text,
//! not with the glossary or the number of terms found:
//!
//! * A term may start where a word may start ([`starts_word`]) and must end where a word may end
//!   ([`ends_word`]): whole words in spaced scripts, anywhere inside a run of an unspaced script
//!   (Chinese, Japanese, Thai, …, see [`is_unspaced`]).
//! * A source term matches with exactly its spelling or case-insensitively: character by
//!   character, each compared through its simple lower-case mapping.
//! * The longest match (in bytes of the text) wins; among equally long ones an exact-case match
//!   beats a case-insensitive one, then the glossary's order decides.
//! * The target term comes out exactly as the glossary defines it, except at the start of a
//!   sentence: when the occurrence starts upper-case and the target term lower-case, the target
//!   term's first character is upper-cased (see [`Segment::Term`]).
//!
//! A source term that is empty or starts with whitespace never matches.
//!
//! # Lookup keys
//!
//! A large glossary lives in a store, and a request needs only the entries that may occur in its
//! texts. [`first_key`] is the key an entry is stored under; [`text_keys`] are the keys of every
//! place in a text where a term may start. An entry the matcher finds in a text always has its
//! key among the text's keys, so a glossary filtered by keys gives the same matches as the whole
//! glossary.
//!
//! # Term sources
//!
//! A translation reads a stored glossary through a [`TermSource`], asking only for the entries
//! of its texts' keys; the glossary store implements it, and the translation pipeline knows no
//! store.
//!
//! # Checking translations
//!
//! [`GlossaryMatcher::expected_terms`] lists the target terms a translation of a text must hold,
//! and [`contains_terms`] checks that an engine's output holds them, in one pass over the output
//! however many distinct terms there are.
//!
//! # Cost
//!
//! Matching and checking take time linear in the text (times at most the longest term's length)
//! and in the terms found; building a matcher takes time linear in the glossary's size (see
//! `automaton.rs`; `cargo bench -p terms` prints the figures).
//!
//! ```
//! use terms::{GlossaryMatcher, contains_terms, first_key, text_keys};
//!
//! let glossary = vec![("house".to_owned(), "casa".to_owned()), ("red house".to_owned(), "casa roja".to_owned())];
//! let matcher = GlossaryMatcher::new(&glossary);
//! let expected = matcher.expected_terms("House rules. A red house.");
//! assert_eq!(expected, ["Casa", "casa roja"]);
//! assert!(contains_terms("Reglas de la casa. Una casa roja.", &expected));
//! assert!(text_keys("A Red house").contains(&first_key("red house")));
//! ```

mod automaton;
mod keys;
mod matcher;
mod placeholder;
mod source;
#[cfg(test)]
mod test_support;
mod verify;
mod words;

pub use keys::{first_key, text_keys};
pub use matcher::GlossaryMatcher;
pub use placeholder::{Segment, placeholder_len, split_placeholders};
pub use source::{NoGlossary, SourceError, Term, TermSource};
pub use verify::contains_terms;
pub use words::{capitalise, ends_word, is_unspaced, is_word_char, starts_word};
