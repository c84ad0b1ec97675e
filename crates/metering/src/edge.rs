//! What the HTTP edge needs from metering: report queries read from request parameters, and the
//! answer for each failure.

use api::{ApiError, Params};

use crate::dates::DateRange;
use crate::error::{ChargeError, QueryError, ReportError};
use crate::reports::custom_tags::{Aggregation, CustomTagQuery};
use crate::reports::keys::{GroupBy, KeyReportQuery};
use crate::reports::paging::parse_page;
use crate::tags::TagError;

impl DateRange {
    /// The required `start_date` and `end_date`.
    pub fn from_params(params: &Params) -> Result<DateRange, ApiError> {
        let (start, end) = (params.string("start_date")?, params.string("end_date")?);
        Ok(DateRange::parse(start.as_deref(), end.as_deref())?)
    }
}

impl KeyReportQuery {
    /// `GET /v2/admin/analytics`'s parameters: the dates, then `group_by`.
    pub fn from_params(params: &Params) -> Result<KeyReportQuery, ApiError> {
        let range = DateRange::from_params(params)?;
        Ok(KeyReportQuery { range, group_by: GroupBy::parse(params.string("group_by")?.as_deref())? })
    }
}

impl CustomTagQuery {
    /// `GET /v2/admin/analytics/custom-tags`'s parameters: the dates, `aggregate_by`, `page`.
    pub fn from_params(params: &Params) -> Result<CustomTagQuery, ApiError> {
        let range = DateRange::from_params(params)?;
        let aggregate_by = Aggregation::parse(params.string("aggregate_by")?.as_deref())?;
        Ok(CustomTagQuery { range, aggregate_by, page: page(params)? })
    }
}

/// The optional `page` of a paged report ([`parse_page`]).
pub fn page(params: &Params) -> Result<i64, ApiError> {
    Ok(parse_page(params.string("page")?.as_deref())?)
}

impl From<QueryError> for ApiError {
    fn from(error: QueryError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

impl From<TagError> for ApiError {
    fn from(error: TagError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

impl From<ReportError> for ApiError {
    fn from(error: ReportError) -> ApiError {
        match error {
            ReportError::Store(cause) => ApiError::internal(&cause),
            pro @ ReportError::ProOnly => ApiError::new(403, pro.to_string()),
            page => ApiError::bad_request(page.to_string()),
        }
    }
}

impl From<ChargeError> for ApiError {
    fn from(error: ChargeError) -> ApiError {
        match error {
            quota @ ChargeError::QuotaExceeded => ApiError::new(456, quota.to_string()),
            deactivated @ ChargeError::Deactivated => ApiError::new(403, deactivated.to_string()),
            reserved @ ChargeError::Reserved => ApiError::internal(&reserved),
            ChargeError::Store(cause) => ApiError::internal(&cause),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(query: &str) -> Params {
        Params::from_form(query.as_bytes())
    }

    #[test]
    fn the_queries_check_the_dates_first() {
        let error = CustomTagQuery::from_params(&params("end_date=2026-05-01&aggregate_by=day")).unwrap_err();
        assert_eq!(error.message, "Parameter 'start_date' not specified");
        let error =
            KeyReportQuery::from_params(&params("start_date=2026-05-01&end_date=2026-05-02&group_by=x")).unwrap_err();
        assert_eq!((error.status, error.message.contains("'group_by'")), (400, true));
        let query = CustomTagQuery::from_params(&params("start_date=2026-05-01&end_date=2026-05-02&page=%2B3"));
        assert!(query.unwrap_err().message.starts_with("Value for 'page' not supported"));
    }

    #[test]
    fn a_parameter_of_the_wrong_type_is_named() {
        let json = Params::from_json(br#"{"start_date": ["2026-05-01"], "end_date": "2026-05-02"}"#).unwrap();
        assert_eq!(DateRange::from_params(&json).unwrap_err().message, "Value for 'start_date' not supported.");
        let json = Params::from_json(br#"{"page": -2}"#).unwrap();
        assert!(page(&json).is_err());
    }

    #[test]
    fn each_failure_has_its_status() {
        let status = |error: ApiError| error.status;
        assert_eq!(status(ReportError::PastTheEnd.into()), 400);
        assert_eq!(status(ReportError::UnknownPage.into()), 400);
        assert_eq!(status(ReportError::ProOnly.into()), 403);
        assert_eq!(status(ReportError::Store(platform::DbError::Other("disk".into())).into()), 500);
        assert_eq!(status(ChargeError::QuotaExceeded.into()), 456);
        assert_eq!(status(ChargeError::Deactivated.into()), 403);
        assert_eq!(status(TagError::Repeated.into()), 400);
        assert_eq!(status(QueryError::RangeTooLong.into()), 400);
    }
}
