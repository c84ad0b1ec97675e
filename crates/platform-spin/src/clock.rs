//! The clock a request sees: the host's, or the one an end-to-end test names.

use std::time::SystemTime;

use platform::{Clock, Variables};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The variable that lets a request name the time it is handled at: `on` honours
/// [`TEST_TIME_HEADER`]; anything else (the default, `off`) ignores it. For test deployments
/// only: it lets callers record usage on any day.
pub const TEST_CLOCK_VARIABLE: &str = "test_clock";
/// The header naming the time a request is handled at (RFC 3339), when [`TEST_CLOCK_VARIABLE`]
/// allows it.
pub const TEST_TIME_HEADER: &str = "x-service-test-time";

/// The time a request sees: the host's wall clock, or the time a test named.
#[derive(Debug, Default, Clone, Copy)]
pub struct RequestClock(Option<SystemTime>);

impl RequestClock {
    /// The clock for `request`. The variable is read only when the header is present, so
    /// ordinary requests pay nothing for the feature.
    pub fn for_request(request: &api::Request, vars: &dyn Variables) -> Result<RequestClock, api::ApiError> {
        let Some(value) = request.header(TEST_TIME_HEADER) else { return Ok(RequestClock(None)) };
        let enabled = vars.get(TEST_CLOCK_VARIABLE).ok().flatten().is_some_and(|value| value.trim() == "on");
        if !enabled {
            return Ok(RequestClock(None));
        }
        let parsed = OffsetDateTime::parse(value.trim(), &Rfc3339).map_err(|_| {
            api::ApiError::bad_request(format!(
                "Value for header '{TEST_TIME_HEADER}' not supported: it must be an RFC 3339 date-time."
            ))
        })?;
        Ok(RequestClock(Some(parsed.into())))
    }
}

impl Clock for RequestClock {
    fn now(&self) -> SystemTime {
        self.0.unwrap_or_else(SystemTime::now)
    }
}
