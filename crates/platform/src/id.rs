//! Ids of the records the API names by UUID: glossaries, style rule lists, translation memories.

use std::fmt;

use crate::{Random, Value};

/// A UUID, parsed once where it enters (a path, a parameter) and passed on as itself. It is
/// written the one way it is stored and answered: lower-case and hyphenated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Id(uuid::Uuid);

impl Id {
    /// An id as a client writes it, in any case, with or without hyphens or braces; `None` for
    /// anything that is not a UUID.
    pub fn parse(text: &str) -> Option<Id> {
        uuid::Uuid::parse_str(text.trim()).ok().map(Id)
    }

    /// A new random (version 4) id from the platform's randomness.
    pub fn random(random: &dyn Random) -> Id {
        let mut bytes = [0u8; 16];
        random.fill(&mut bytes);
        Id(uuid::Builder::from_random_bytes(bytes).into_uuid())
    }

    /// An id derived from 16 bytes (a digest of what it names), as a version 8 UUID: the same
    /// bytes always give the same id.
    pub fn derived(bytes: [u8; 16]) -> Id {
        Id(uuid::Builder::from_custom_bytes(bytes).into_uuid())
    }
}

impl fmt::Display for Id {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.hyphenated(), formatter)
    }
}

impl From<&Id> for Value {
    fn from(id: &Id) -> Value {
        Value::Text(id.to_string())
    }
}

impl From<Id> for Value {
    fn from(id: Id) -> Value {
        Value::from(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OsRandom;

    #[test]
    fn every_spelling_of_a_uuid_is_the_same_id_written_one_way() {
        let canonical = "def3a26b-3e84-45b3-84ae-0c0aaf3525f7";
        for spelling in [canonical, "DEF3A26B-3E84-45B3-84AE-0C0AAF3525F7", " def3a26b3e8445b384ae0c0aaf3525f7 "] {
            assert_eq!(Id::parse(spelling).map(|id| id.to_string()).as_deref(), Some(canonical), "{spelling}");
        }
        for wrong in ["", "nope", "def3a26b-3e84-45b3-84ae-0c0aaf3525f", "def3a26b-3e84-45b3-84ae-0c0aaf3525f7:x"] {
            assert_eq!(Id::parse(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn random_ids_are_version_4_and_differ() {
        let (first, second) = (Id::random(&OsRandom), Id::random(&OsRandom));
        assert_ne!(first, second);
        assert_eq!(first.to_string().chars().nth(14), Some('4'));
        assert_eq!(Value::from(first), Value::Text(first.to_string()));
    }
}
