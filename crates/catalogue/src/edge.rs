//! What the HTTP edge needs from the catalogue: the language endpoints' queries read from request
//! parameters, and the answer for each refused code or query.

use api::{ApiError, Params};

use crate::error::{LanguageError, QueryError};
use crate::v2::ListKind;
use crate::v3::{Include, Resource};

impl ListKind {
    /// `/v2/languages`'s `type`.
    pub fn from_params(params: &Params) -> Result<ListKind, ApiError> {
        Ok(ListKind::parse(params.string("type")?.as_deref())?)
    }
}

impl Resource {
    /// `/v3/languages`'s required `resource` (or the old `product`, refused with a pointer), one of
    /// `served`.
    pub fn from_params(params: &Params, served: &[Resource]) -> Result<Resource, ApiError> {
        Ok(Resource::from_query(params.string("resource")?.as_deref(), params.first_text("product"), served)?)
    }
}

impl Include {
    /// `/v3/languages`'s repeatable `include`, every value checked.
    pub fn list_from_params(params: &Params) -> Result<Vec<Include>, ApiError> {
        let values = params.list("include")?.unwrap_or_default();
        Ok(values.iter().map(|value| Include::parse(value)).collect::<Result<_, _>>()?)
    }
}

impl From<QueryError> for ApiError {
    fn from(error: QueryError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

impl From<LanguageError> for ApiError {
    fn from(error: LanguageError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(query: &str) -> Params {
        Params::from_form(query.as_bytes())
    }

    #[test]
    fn the_queries_are_read_and_refused_with_the_api_messages() {
        assert_eq!(ListKind::from_params(&params("type=target")).unwrap(), ListKind::Target);
        assert_eq!(ListKind::from_params(&params("type=both")).unwrap_err().message, "Value for 'type' not supported.");
        assert_eq!(Resource::from_params(&params("resource=glossary"), crate::SERVED).unwrap(), Resource::Glossary);
        let renamed = Resource::from_params(&params("product=translate_text"), crate::SERVED).unwrap_err();
        assert_eq!((renamed.status, renamed.message.contains("renamed to 'resource'")), (400, true));
        assert_eq!(
            Include::list_from_params(&params("include=beta,external")).unwrap(),
            [Include::Beta, Include::External]
        );
        assert_eq!(
            Include::list_from_params(&params("include=all")).unwrap_err().message,
            "Value for 'include' not supported."
        );
    }
}
