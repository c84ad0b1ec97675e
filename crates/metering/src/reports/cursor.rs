//! The custom-tag report's keyset cursor: `next_page` names the last entry of a page, so the next
//! page starts right after it and never repeats or skips an entry while usage is recorded
//! meanwhile (entries only ever grow).
//!
//! A cursor is opaque and belongs to one subscription's report. It names the entry's tag by its
//! *ordinal*: its place among the subscription's tags in the order they were first used (1 for
//! the first), which never changes, since tags are only ever added, and which counts that
//! subscription's tags only (the store-wide numbers of `usage_tags` would tell how many tags other
//! subscriptions have). A daily entry's day is named by its place in the range. Both are masked,
//! and a check is added, with a digest of the subscription, the report (range and aggregation)
//! and the entry ([`Report`]): a cursor of another subscription or another report, or a made-up
//! number, fails the check and is a 400 ([`ReportError::UnknownPage`]).
//!
//! The 53 bits of a cursor (exact in JSON): [`CHECK_BITS`] of check, then the masked position:
//! [`ORDINAL_BITS`] of ordinal and [`DAY_BITS`] of day (0 for whole-range entries). Finding a tag
//! by its ordinal, or the ordinal of a tag, reads the subscription's entries of the index
//! `(subscription_id, tag)`: the cost grows with the subscription's number of tags (a thousand
//! read in well under a millisecond), not with other subscriptions'.

use platform::{Database, DbError, Value};
use sha2::{Digest, Sha256};
use time::{Date, Duration};

use super::custom_tags::{Aggregation, CustomTagQuery};
use crate::dates::parse_stored_day;
use crate::error::ReportError;

/// Bits of a cursor's check.
pub(super) const CHECK_BITS: u32 = 20;
/// Bits of a tag's ordinal: a subscription may page through up to 2^24 - 1 tags.
pub(super) const ORDINAL_BITS: u32 = 24;
/// Bits of a day's place in the range (0 to 365).
pub(super) const DAY_BITS: u32 = 9;
const POSITION_BITS: u32 = ORDINAL_BITS + DAY_BITS;
const POSITION_MASK: i64 = (1 << POSITION_BITS) - 1;

/// The ordinal of the tag number `?2` among the subscription `?1`'s tags: how many of them were
/// numbered up to it. Walks the subscription's entries of the unique index `(subscription_id,
/// tag)`, whose rows carry the number (`+` keeps SQLite from walking the whole table by number).
pub(super) const SQL_TAG_ORDINAL: &str = "SELECT COUNT(*) FROM usage_tags WHERE subscription_id = ?1 AND +id <= ?2";

/// The subscription `?1`'s tag of ordinal `?2 + 1`: its tags in the order they were numbered,
/// from the same index entries, sorting at most `?2 + 1` of them.
pub(super) const SQL_TAG_AT: &str =
    "SELECT tag FROM usage_tags WHERE subscription_id = ?1 ORDER BY +id LIMIT 1 OFFSET ?2";

/// The leading `bits` bits (1 to 63) of a SHA-256 digest of `parts`, each preceded by its length
/// so that no two lists of parts run together: the masks and checks of the reports' cursors (this
/// report's, and the audit log's, `audit.rs`).
pub(super) fn digest(parts: &[&[u8]], bits: u32) -> i64 {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part);
    }
    let digest = hasher.finalize();
    let leading = u64::from_be_bytes(digest[..8].try_into().expect("a SHA-256 digest has 32 bytes"));
    (leading >> (64 - bits)) as i64
}

/// One subscription's report, as far as its cursors depend on it.
pub(super) struct Report<'a> {
    pub subscription_id: &'a str,
    pub query: &'a CustomTagQuery,
}

impl Report<'_> {
    /// A digest of the report and, for a check, an entry (tag and day), as a number of `bits` bits.
    fn digest(&self, entry: Option<(&str, i64)>, bits: u32) -> i64 {
        let (first, last) = self.query.range.stored_days();
        let mut parts: Vec<&[u8]> = vec![
            b"custom-tag report cursor",
            self.subscription_id.as_bytes(),
            first.as_bytes(),
            last.as_bytes(),
            self.query.aggregate_by.name().as_bytes(),
        ];
        let day_bytes;
        if let Some((tag, day)) = entry {
            day_bytes = day.to_be_bytes();
            parts.extend([tag.as_bytes(), &day_bytes]);
        }
        digest(&parts, bits)
    }

    /// The mask over a cursor's position.
    fn mask(&self) -> i64 {
        self.digest(None, POSITION_BITS)
    }

    /// The check of the entry of `tag` on the day at `day` in the range (0 for whole-range entries).
    fn check(&self, tag: &str, day: i64) -> i64 {
        self.digest(Some((tag, day)), CHECK_BITS)
    }

    /// The day's place in the range (0 for whole-range entries, which have no day).
    fn day_place(&self, day: Option<&str>) -> Result<i64, DbError> {
        Ok(match day {
            Some(day) => (parse_stored_day(day)? - self.query.range.first_day()).whole_days(),
            None => 0,
        })
    }

    /// The `next_page` naming the entry of `tag` (store number `tag_id`) and, for a daily entry,
    /// the stored day `day`.
    pub fn cursor(&self, db: &dyn Database, tag_id: i64, tag: &str, day: Option<&str>) -> Result<i64, DbError> {
        let found = db.execute(SQL_TAG_ORDINAL, &[Value::from(self.subscription_id), Value::Integer(tag_id)])?;
        let ordinal: i64 = found.first().map(|row| row.get(0)).transpose()?.unwrap_or(0);
        if !(1..1 << ORDINAL_BITS).contains(&ordinal) {
            return Err(DbError::Other(format!("tag ordinal {ordinal} does not fit a custom-tag report cursor")));
        }
        let place = self.day_place(day)?;
        let position = (ordinal << DAY_BITS) | place;
        Ok((self.check(tag, place) << POSITION_BITS) | (position ^ self.mask()))
    }
}

/// The entry a cursor names: its tag, and for daily entries its day.
pub(super) struct Position {
    pub tag: String,
    pub day: Option<Date>,
}

impl Position {
    /// The entry `page` names, if it is a cursor of this very report ([`ReportError::UnknownPage`]
    /// otherwise).
    pub fn of(db: &dyn Database, report: &Report<'_>, page: i64) -> Result<Position, ReportError> {
        if !(0..1 << (CHECK_BITS + POSITION_BITS)).contains(&page) {
            return Err(ReportError::UnknownPage);
        }
        let position = (page & POSITION_MASK) ^ report.mask();
        let (ordinal, place) = (position >> DAY_BITS, position & ((1 << DAY_BITS) - 1));
        let range = &report.query.range;
        let day = match report.query.aggregate_by {
            Aggregation::Period if place == 0 => None,
            Aggregation::Day => {
                let day = range.first_day().checked_add(Duration::days(place));
                Some(day.filter(|day| *day <= range.last_day()).ok_or(ReportError::UnknownPage)?)
            }
            Aggregation::Period => return Err(ReportError::UnknownPage),
        };
        if ordinal == 0 {
            return Err(ReportError::UnknownPage);
        }
        let found = db.execute(SQL_TAG_AT, &[Value::from(report.subscription_id), Value::Integer(ordinal - 1)])?;
        let tag: String = found.first().ok_or(ReportError::UnknownPage)?.get(0)?;
        if page >> POSITION_BITS != report.check(&tag, place) {
            return Err(ReportError::UnknownPage);
        }
        Ok(Position { tag, day })
    }
}
