//! The store as a translation's [`MemorySource`]: the caller's memories, looked up only as far
//! as its segments need them (a few index lookups per segment, see `store::lookup`).

use catalogue::Language;
use memory_match::{Memory, MemoryMatch, MemorySource, SourceError};
use platform::{Database, Id};

use crate::store;

/// The translation memories of one subscription, in the store.
pub struct Memories<'a> {
    db: &'a dyn Database,
    subscription_id: &'a str,
}

impl<'a> Memories<'a> {
    /// The memories of the subscription `subscription_id` (a translate request's caller's): any
    /// other subscription's memory is, to it, a memory that does not exist.
    pub fn new(db: &'a dyn Database, subscription_id: &'a str) -> Memories<'a> {
        Memories { db, subscription_id }
    }
}

impl MemorySource for Memories<'_> {
    fn memory(&self, id: &Id) -> Result<Option<Memory>, SourceError> {
        let found = store::find(self.db, self.subscription_id, id)?;
        Ok(found.map(|memory| Memory { targets: memory.targets }))
    }

    fn lookup(
        &self,
        id: &Id,
        target: &'static Language,
        segments: &[String],
        threshold: u8,
        fuzzy: bool,
    ) -> Result<Vec<Option<MemoryMatch>>, SourceError> {
        Ok(store::lookup(self.db, self.subscription_id, id, target, segments, threshold, fuzzy)?)
    }
}
