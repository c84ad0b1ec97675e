//! Cutting what a client sends to `/v2/translate` into units an engine translates, and putting
//! the translations back together.
//!
//! This crate is pure Rust without platform code, used natively and inside the Wasm components.
//! It owns the request parameters about text shape: `split_sentences`, `preserve_formatting`,
//! `tag_handling`, `tag_handling_version`, `outline_detection`, `splitting_tags`,
//! `non_splitting_tags` and `ignore_tags`. It knows nothing of engines: a unit is text in, text
//! out.
//!
//! Plain text (no `tag_handling`): [`split_sentences`] cuts it into [`TextPiece::Unit`]s to
//! translate and [`TextPiece::Separator`]s to keep; [`preserve_formatting`] restores the source's
//! whitespace, first-letter case and final punctuation on each translation.
//!
//! With tag handling, [`Markup::parse`] reads the text as XML or HTML and cuts it into
//! [`Unit`]s, whose inline tags are numbered placeholders. The call sequence:
//!
//! ```
//! use markup::{Markup, SplitSentences, TagHandling, TagOptions, UnitResult};
//!
//! let options = TagOptions { handling: TagHandling::Html, ..TagOptions::default() };
//! let text = "<p>Hello <b>world</b>! See <a href=\"/x\">here</a>.</p>";
//! let markup = Markup::parse(text, &options, SplitSentences::NoNewlines)?;
//!
//! let mut results = Vec::new();
//! for unit in markup.units() {
//!     // unit.text() is "Hello <g1>world</g1>!" then "See <g1>here</g1>."
//!     let translation = unit.text().replace("Hello", "Hallo").replace("world", "Welt");
//!     // With `preserve_formatting`, restore the source's case and final punctuation first.
//!     let translation = markup::preserve_formatting(unit.text(), &translation, true);
//!     if unit.accepts(&translation) {
//!         results.push(UnitResult::Translated(translation));
//!     } else {
//!         // The engine lost a placeholder: translate the runs between tags one by one.
//!         results.push(UnitResult::Pieces(unit.pieces().to_vec()));
//!     }
//! }
//! let translated = markup.render(&results)?;
//! assert_eq!(translated, "<p>Hallo <b>Welt</b>! See <a href=\"/x\">here</a>.</p>");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Unit::placeholders`] says which source tag each placeholder stands for, and
//! [`Unit::segments`] (or [`segments`] for a translation) where the text runs are between them.
//!
//! [`MarkupError`] is the client's mistake (malformed XML, a 400); [`RenderError`] the caller's
//! (results that do not fit the units).

mod error;
mod escape;
mod formatting;
mod html;
mod markup;
mod options;
mod placeholder;
mod sentences;
mod text_run;
mod tokens;
mod xml;

pub use error::{MarkupError, RenderError, XmlProblem};
pub use formatting::preserve_formatting;
pub use markup::{Markup, Unit, UnitResult};
pub use options::{TagHandling, TagHandlingVersion, TagOptions, UnknownTagHandling, UnknownTagHandlingVersion};
pub use placeholder::{Placeholder, PlaceholderKind, Segment, segments};
pub use sentences::{SplitSentences, TextPiece, UnknownSplitSentences, split_sentences};
