//! The store as a translation's [`MemorySource`]: the caller's memories, looked up only as far
//! as its segments need them (a few index lookups per segment, see `store::lookup`).

use std::cell::RefCell;

use catalogue::Language;
use memory_match::{Memory, MemoryMatch, MemorySource, SourceError};
use platform::{Database, Id};

use crate::store::{self, LiveMemory};

/// The translation memories of one subscription, in the store.
pub struct Memories<'a> {
    db: &'a dyn Database,
    subscription_id: &'a str,
    /// The memory last read, kept for the request's lookups (a translation checks its memory,
    /// then looks its segments up: one read of the memory serves both).
    read: RefCell<Option<(Id, Option<LiveMemory>)>>,
}

impl<'a> Memories<'a> {
    /// The memories of the subscription `subscription_id` (a translate request's caller's): any
    /// other subscription's memory is, to it, a memory that does not exist.
    pub fn new(db: &'a dyn Database, subscription_id: &'a str) -> Memories<'a> {
        Memories { db, subscription_id, read: RefCell::new(None) }
    }

    /// The memory `id`, read once per id.
    fn live(&self, id: &Id) -> Result<Option<LiveMemory>, SourceError> {
        if let Some((read, live)) = self.read.borrow().as_ref()
            && read == id
        {
            return Ok(live.clone());
        }
        let live = store::live(self.db, self.subscription_id, id)?;
        *self.read.borrow_mut() = Some((*id, live.clone()));
        Ok(live)
    }
}

impl MemorySource for Memories<'_> {
    fn memory(&self, id: &Id) -> Result<Option<Memory>, SourceError> {
        Ok(self.live(id)?.map(|live| Memory { targets: live.targets }))
    }

    fn lookup(
        &self,
        id: &Id,
        target: &'static Language,
        segments: &[String],
        threshold: u8,
        fuzzy: bool,
    ) -> Result<Vec<Option<MemoryMatch>>, SourceError> {
        match self.live(id)? {
            Some(live) => Ok(store::lookup(self.db, &live, target, segments, threshold, fuzzy)?),
            None => Ok(segments.iter().map(|_| None).collect()),
        }
    }
}
