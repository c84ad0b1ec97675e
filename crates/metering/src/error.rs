//! Why metering refused a request, or could not answer it.

use platform::DbError;

/// A report query's parameter that cannot be served: each a 400 naming it, in the API's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("Parameter '{0}' not specified")]
    Missing(&'static str),
    #[error("Value for '{0}' not supported: expected a date (YYYY-MM-DD) or a date-time (YYYY-MM-DDTHH:MM:SS), UTC.")]
    NotADate(&'static str),
    #[error("Value for 'end_date' not supported: it must not be before 'start_date'.")]
    EndBeforeStart,
    #[error("Bad request. Reason: Date range cannot exceed 366 days")]
    RangeTooLong,
    #[error("Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'.")]
    GroupBy,
    #[error("Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'.")]
    AggregateBy,
    #[error("Value for 'page' not supported: it must be a non-negative integer (a next_page of the previous page).")]
    Page,
}

/// Why a report (or a page of one) cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// 403: only Pro subscriptions read their audit log.
    #[error("Audit logs are a Pro feature.")]
    ProOnly,
    /// 400: `page` is no `next_page` this report gave (another range, aggregation or
    /// subscription, or made up).
    #[error("Value for 'page' not supported: it is not a next_page of this report.")]
    UnknownPage,
    /// 400: nothing follows the entry `page` names.
    #[error("Value for 'page' not supported: no entries follow it (the previous page was the last).")]
    PastTheEnd,
    #[error("usage store: {0}")]
    Store(#[from] DbError),
}

/// Why a charge was refused.
#[derive(Debug, thiserror::Error)]
pub enum ChargeError {
    /// 456: the key's or the subscription's limit for this period would be passed.
    #[error("Quota for this billing period has been exceeded.")]
    QuotaExceeded,
    /// 403: the key was deactivated while the request ran.
    #[error("Authorization failure: the key has been deactivated.")]
    Deactivated,
    /// A holder asked for a second reservation (a fault of the caller, never of the client).
    #[error("usage reservations: this holder holds a reservation already")]
    Reserved,
    #[error("usage store: {0}")]
    Store(#[from] DbError),
}
