//! Glossaries: terminology a translation must use, per language pair.
//!
//! A glossary belongs to one subscription and holds dictionaries, one per language pair (v3);
//! a v2 glossary is a glossary with exactly one dictionary, so both API versions see the same
//! glossaries.
//!
//! * `limits.rs`: every size limit, in one place.
//! * `upload.rs`: request bodies read as they stream (JSON, or forms with indexed
//!   `dictionaries[N].field` keys), refused at the first thing past a limit.
//! * `entries.rs`: uploads (TSV or CSV) parsed and every rule checked, entries read back as TSV.
//! * `request.rs`: languages, pairs, names, dictionaries and patches of a request, validated.
//! * `store.rs`: glossaries in SQLite, every query scoped by the subscription; large writes in
//!   short transactions, invisible until complete.
//! * `source.rs`: the store as a translation's [`terms::TermSource`]: for a translate
//!   request only the entries that can occur in its texts (by the first word of their source
//!   term, see the `terms` crate), so a 100,000-entry glossary costs a translation a few index
//!   lookups.
//! * `views.rs`: glossaries in the v2 and v3 shapes the API answers.
//! * `edge.rs`: the only file that knows HTTP: ids, parameters, `Accept`, and the answer for
//!   each failure (400 naming the parameter, 400 `Invalid glossary entries provided` with a
//!   `detail`, 404, 413, 456).

mod edge;
pub mod entries;
pub mod limits;
mod request;
mod source;
pub mod store;
mod upload;
mod views;

pub use edge::{Body, Operation, TSV, accepts_tsv, dictionaries, dictionary, glossary_id, name, read, requested_pair};
pub use entries::{EntriesError, EntriesFormat, Entry, MAX_TERM_BYTES};
pub use request::{INVALID_ENTRIES, Patch, RawDictionary, RequestError};
pub use source::Terms;
pub use store::{
    DictionaryInfo, Glossary, GlossaryError, LanguagePair, LookupError, MAX_GLOSSARIES, NewDictionary, Selection,
};
pub use upload::UploadError;
pub use views::{DictionaryEntries, DictionaryObject, Listing, Monolingual, Multilingual};

#[cfg(test)]
mod tests;
