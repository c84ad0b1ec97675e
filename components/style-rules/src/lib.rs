//! Component `style-rules`: style rule lists, for developer keys.
//!
//! * `GET /v3/style_rules` (`page`, `page_size` 1–25, `detailed`), `POST /v3/style_rules`
//!   (`name`, `language`, `configured_rules`, `custom_instructions`) → 201
//! * `GET`, `PATCH` (`name`), `DELETE /v3/style_rules/{style_id}` → 204
//! * `PUT /v3/style_rules/{style_id}/configured_rules`: the body is the rules, whole
//! * `POST /v3/style_rules/{style_id}/custom_instructions` (`label`, `prompt`,
//!   `source_language`) → 201; `GET`, `PUT`, `DELETE …/custom_instructions/{instruction_id}`
//!
//! A non-UUID id is a 400; another subscription's list answers 404, like an unknown one.
//! Translations apply a list through `style_id` (the `translate` component).

use accounts::{Access, Principal};
use api::{ApiError, ApiResponse, Request};
use platform_spin::{Host, serve_admitted};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;
use styles::{InstructionObject, ListObject, Listing, store};

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve_admitted(request, out, admit, route);
}

/// Before a body larger than an unauthenticated request may send is read (a list with 200
/// instructions can be): the key in the `Authorization` header must be a developer key.
fn admit(head: &Request) -> Result<Principal, ApiError> {
    let host = Host::for_request(head)?;
    accounts::authenticate_header(&host.services(), head, Access::Developer)
}

/// What a path of this component names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Endpoint<'a> {
    /// `/v3/style_rules`
    Collection,
    /// `/v3/style_rules/{style_id}`
    List(&'a str),
    /// `/v3/style_rules/{style_id}/configured_rules`
    Rules(&'a str),
    /// `/v3/style_rules/{style_id}/custom_instructions`
    Instructions(&'a str),
    /// `/v3/style_rules/{style_id}/custom_instructions/{instruction_id}`
    Instruction(&'a str, &'a str),
}

impl<'a> Endpoint<'a> {
    fn of(path: &'a str) -> Option<Endpoint<'a>> {
        let parts = api::path_segments(path, "/v3/style_rules")?;
        match parts.as_slice() {
            [] => Some(Endpoint::Collection),
            [id] if !id.is_empty() => Some(Endpoint::List(id)),
            [id, "configured_rules"] if !id.is_empty() => Some(Endpoint::Rules(id)),
            [id, "custom_instructions"] if !id.is_empty() => Some(Endpoint::Instructions(id)),
            [id, "custom_instructions", instruction] if !id.is_empty() && !instruction.is_empty() => {
                Some(Endpoint::Instruction(id, instruction))
            }
            _ => None,
        }
    }

    fn methods(self) -> &'static [&'static str] {
        match self {
            Endpoint::Collection => &["GET", "POST"],
            Endpoint::List(_) => &["GET", "PATCH", "DELETE"],
            Endpoint::Rules(_) => &["PUT"],
            Endpoint::Instructions(_) => &["POST"],
            Endpoint::Instruction(..) => &["GET", "PUT", "DELETE"],
        }
    }
}

/// `admitted`: the principal [`admit`] authenticated, if the body was large enough for it to run.
fn route(request: &Request, admitted: Option<Principal>) -> Result<ApiResponse, ApiError> {
    let endpoint = Endpoint::of(request.path.trim_end_matches('/')).ok_or_else(|| ApiError::not_found("Not found."))?;
    let method = request.method.as_str();
    if !endpoint.methods().contains(&method) {
        return Err(ApiError::method_not_allowed(endpoint.methods()));
    }
    let host = Host::for_request(request)?;
    let services = host.services();
    // `PUT …/configured_rules` sends the rules as the whole body, not as parameters.
    let params = if matches!(endpoint, Endpoint::Rules(_)) {
        request.query_params()
    } else {
        request.params_within(api::limits::body_limit(&request.path))?
    };
    let principal = accounts::admitted_principal(&services, request, &params, admitted, Access::Developer)?;
    let subscription = principal.subscription.id.as_str();
    let db = services.db;

    match (endpoint, method) {
        (Endpoint::Collection, "POST") => {
            let created = store::create(&services, subscription, &styles::new_list(&params)?)?;
            Ok(ApiResponse::json(201, &ListObject::from(&created)))
        }
        (Endpoint::Collection, _) => {
            let lists = store::list(db, subscription, &styles::listing(&params)?)?;
            Ok(ApiResponse::json(200, &Listing::of(&lists)))
        }
        (Endpoint::List(id), "PATCH") => {
            let id = styles::style_id(id)?;
            let renamed = store::rename(&services, subscription, &id, &styles::name(&params)?)?;
            Ok(ApiResponse::json(200, &ListObject::from(&renamed)))
        }
        (Endpoint::List(id), "DELETE") => {
            store::delete(db, subscription, &styles::style_id(id)?)?;
            Ok(no_content())
        }
        (Endpoint::List(id), _) => {
            let list = store::get(db, subscription, &styles::style_id(id)?)?;
            Ok(ApiResponse::json(200, &ListObject::from(&list)))
        }
        (Endpoint::Rules(id), _) => {
            let id = styles::style_id(id)?;
            let updated = store::replace_rules(&services, subscription, &id, &styles::configured_rules(request)?)?;
            Ok(ApiResponse::json(200, &ListObject::from(&updated)))
        }
        (Endpoint::Instructions(id), _) => {
            let id = styles::style_id(id)?;
            let added = store::add_instruction(&services, subscription, &id, &styles::instruction(&params)?)?;
            Ok(ApiResponse::json(201, &InstructionObject::from(&added)))
        }
        (Endpoint::Instruction(list, id), method) => {
            let (list, id) = (styles::style_id(list)?, styles::instruction_id(id)?);
            match method {
                "PUT" => {
                    let instruction = styles::instruction(&params)?;
                    let replaced = store::replace_instruction(&services, subscription, &list, &id, &instruction)?;
                    Ok(ApiResponse::json(200, &InstructionObject::from(&replaced)))
                }
                "DELETE" => {
                    store::delete_instruction(&services, subscription, &list, &id)?;
                    Ok(no_content())
                }
                _ => {
                    let instruction = store::get_instruction(db, subscription, &list, &id)?;
                    Ok(ApiResponse::json(200, &InstructionObject::from(&instruction)))
                }
            }
        }
    }
}

fn no_content() -> ApiResponse {
    ApiResponse { status: 204, headers: Vec::new(), body: Vec::new() }
}
