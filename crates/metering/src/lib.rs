//! Metering: what every request of every product costs, charged once and within every limit,
//! and every report read from what was charged.
//!
//! * [`charge`] (`charge.rs`): a billable request is charged once, after its work succeeded, in
//!   one SQL statement that appends to the usage journal only if no limit would be passed. Every
//!   product charges through it: text translation today; text improvement, documents and speech
//!   as they arrive. Work that finishes after its request reserves its units first ([`reserve`],
//!   then [`settle`] or [`release`]).
//! * [`usage_report`] (`usage.rs`): `/v2/usage`, the billing period's counts and limits.
//! * [`ReportingTag`] (`tags.rs`): the `X-Service-Reporting-Tag` a request is attributed to.
//! * [`DateRange`] (`dates.rs`): the days a report covers.
//! * `reports/`: [`key_report`] (usage per key), [`custom_tag_report`] (usage per tag) and
//!   [`audit_log`] (the changes `accounts` recorded), with their cursors and paging.
//!
//! A charge appends to `usage_journal` (`sql/0008_usage_journal.sql`), whose trigger keeps the
//! period totals the next charge checks. Folding (`journal.rs`) moves the journal in batches into
//! `usage_daily` (per subscription × key × day × tag × product) and the rollups the reports read
//! (`sql/0003_usage_reports.sql`). Every query is scoped by the subscription.
//! `edge.rs` is the only file that knows HTTP: it reads report queries from request parameters
//! and answers each failure.

mod charge;
mod dates;
mod edge;
mod error;
mod journal;
mod reports;
mod tags;
mod usage;

pub use charge::{Charge, Product, charge, release, reserve, settle};
pub use dates::{DateRange, MAX_RANGE_DAYS, day_of};
pub use edge::page;
pub use error::{ChargeError, QueryError, ReportError};
pub use reports::audit::{AUDIT_PAGE_SIZE, AuditEntry, AuditPage, AuditReport, audit_log};
pub use reports::custom_tags::{
    Aggregation, CUSTOM_TAG_PAGE_SIZE, CustomTagQuery, CustomTagReport, CustomTagUsageReport, TagBreakdown, TagUsage,
    custom_tag_report,
};
pub use reports::keys::{
    GroupBy, KeyDayUsage, KeyReport, KeyReportQuery, KeyUsage, KeyUsageReport, UsageBreakdown, key_report,
    masked_key_id,
};
pub use reports::paging::parse_page;
pub use tags::{ReportingTag, TagError};
pub use usage::{ProUsage, ProductUsage, UNLIMITED, UsageReport, speech_remaining, usage_report};

#[cfg(test)]
mod test_support;
