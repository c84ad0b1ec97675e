//! Every report read from metered usage (and the audit log), one concern a module:
//!
//! * `keys.rs`: usage per key, and per key and day (`GET /v2/admin/analytics`);
//! * `custom_tags.rs`: usage per custom tag, for the range or per day
//!   (`GET /v2/admin/analytics/custom-tags`);
//! * `cursor.rs`: the custom-tag report's keyset cursor, and the digest the audit log's shares;
//! * `paging.rs`: the `page` parameter of paged reports;
//! * `audit.rs`: the audit log (`GET /v2/admin/audit-log`).
//!
//! Every report is real time (today included), counts whole UTC days with `end_date` included,
//! and reads one subscription only.

pub mod audit;
mod cursor;
pub mod custom_tags;
pub mod keys;
pub mod paging;

#[cfg(test)]
mod tests;

/// `YYYY-MM-DDT00:00:00Z`, as the reports answer a usage day.
fn usage_date(stored: &str) -> String {
    format!("{stored}T00:00:00Z")
}
