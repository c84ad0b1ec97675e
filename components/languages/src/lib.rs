//! Component `languages`: which languages and features the service offers.
//!
//! * `GET /v3/languages?resource=…[&include=beta|external]` and `GET /v3/languages/resources`
//! * `GET /v2/languages?type=source|target` and `GET /v2/glossary-language-pairs`, deprecated
//!   in favour of `/v3/languages` on 2026-05-18: their answers carry `Deprecation`
//!   (`catalogue::v2_deprecation`) and a `Link` to the successor.
//!
//! What they list is the language catalogue limited to what this deployment can do: translation
//! to what the configured engine translates; write to the languages the language-tools service
//! corrects (asked at its `/health`), and not at all without one configured; voice, where it is
//! set up, to the spoken languages the inference service's speech models recognise (asked at
//! `/v1/speech/models`) and the targets the engine reaches from them. Translated speech, a closed
//! beta, is offered (`translated_speech`) only to a caller whose subscription's admins switched it
//! on (`accounts::translated_speech`). `POST` works like `GET` on each (old clients use either).
//! A developer key is needed.

use accounts::Access;
use accounts::Principal;
use api::{ApiError, ApiResponse, Request};
use catalogue::{Coverage, Include, ListKind, Resource, SERVED, Served};
use engines::Engine;
use engines::language_tools::{LanguageTools, ToolsSettings};
use platform_spin::{Host, Services, serve};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    let endpoint = match request.path.trim_end_matches('/') {
        "/v2/languages" => Endpoint::V2Languages,
        "/v2/glossary-language-pairs" => Endpoint::GlossaryPairs,
        "/v3/languages" => Endpoint::V3Languages,
        "/v3/languages/resources" => Endpoint::V3Resources,
        _ => return Err(ApiError::not_found("Not found.")),
    };
    if !matches!(request.method.as_str(), "GET" | "POST") {
        return Err(ApiError::method_not_allowed(&["GET", "POST"]));
    }
    let host = Host::for_request(request)?;
    let services = host.services_with_outbound();
    let (caller, params) = accounts::authenticate_request(&services, request, Access::Developer)?;

    match endpoint {
        Endpoint::V2Languages => {
            let kind = ListKind::from_params(&params)?;
            let listing = catalogue::v2_languages(kind, &coverage(&services)?);
            Ok(deprecated(ApiResponse::json(200, &listing), "/v3/languages?resource=translate_text"))
        }
        Endpoint::GlossaryPairs => {
            let listing = catalogue::glossary_language_pairs(&coverage(&services)?);
            Ok(deprecated(ApiResponse::json(200, &listing), "/v3/languages?resource=glossary"))
        }
        Endpoint::V3Languages => {
            let tools = language_tools(&services);
            let resources = served(tools.is_some(), voice_set_up(&services));
            let resource = Resource::from_params(&params, &resources)?;
            let include = Include::list_from_params(&params)?;
            let coverage = match (resource, tools) {
                (Resource::TranslateText | Resource::TranslateDocument | Resource::Glossary, _) => coverage(&services)?,
                (Resource::Write, Some(tools)) => corrected(&tools)?,
                (Resource::Voice, _) => spoken(&services)?,
                // The other resources do not go through the translation engine.
                _ => Coverage::All,
            };
            let served = for_caller(&services, &caller, &resources)?;
            Ok(ApiResponse::json(200, &catalogue::languages_served(resource, &include, &coverage, served)))
        }
        Endpoint::V3Resources => {
            let resources = served(language_tools(&services).is_some(), voice_set_up(&services));
            Ok(ApiResponse::json(200, &catalogue::resources_served(for_caller(&services, &caller, &resources)?)))
        }
    }
}

enum Endpoint {
    V2Languages,
    GlossaryPairs,
    V3Languages,
    V3Resources,
}

fn deprecated(response: ApiResponse, successor: &str) -> ApiResponse {
    response
        .with_header("deprecation", catalogue::v2_deprecation())
        .with_header("link", format!("<{successor}>; rel=\"successor-version\""))
}

/// What the configured engine translates.
fn coverage(services: &Services<'_>) -> Result<Coverage, ApiError> {
    Ok(engines::configured(services)?.coverage()?)
}

/// The resources this deployment serves: every built one ([`SERVED`]), but write only with a
/// language-tools service, without which it can improve nothing, and voice only where it is set up.
fn served(with_language_tools: bool, with_voice: bool) -> Vec<Resource> {
    SERVED
        .iter()
        .copied()
        .filter(|&resource| resource != Resource::Write || with_language_tools)
        .filter(|&resource| resource != Resource::Voice || with_voice)
        .collect()
}

/// What the deployment serving `resources` serves the caller: translated speech too where voice is
/// served and the caller's subscription has it switched on.
fn for_caller<'a>(
    services: &Services<'_>,
    caller: &Principal,
    resources: &'a [Resource],
) -> Result<Served<'a>, ApiError> {
    let translated_speech = resources.contains(&Resource::Voice)
        && accounts::translated_speech(services.db, &caller.subscription.id)
            .map_err(|cause| ApiError::internal(&cause))?;
    Ok(Served::resources(resources).with_translated_speech(translated_speech))
}

/// Whether real-time voice is set up: its token secret, and an inference service to recognise speech.
fn voice_set_up(services: &Services<'_>) -> bool {
    let set = |name: &str| services.vars.get(name).ok().flatten().is_some_and(|value| !value.trim().is_empty());
    set("voice_token_secret") && set(engines::ctranslate2::SECRET_VARIABLE)
}

/// The voice pairs: each spoken language the speech models recognise, into each voice target the
/// engine translates it into. A service that cannot say is a 503 (logged), as for write.
fn spoken(services: &Services<'_>) -> Result<Coverage, ApiError> {
    let unavailable = |error: &dyn std::fmt::Display| {
        eprintln!("languages: cannot list the voice languages: {error}");
        ApiError::unavailable("The speech recognition service is unavailable right now; try again later.")
    };
    let recognition = engines::speech::recognition(services.vars, services.http)
        .map_err(|error| unavailable(&error))?
        .unwrap_or_default();
    let translated = coverage(services)?;
    let voice: Vec<&catalogue::Language> =
        catalogue::all().iter().filter(|language| language.supports_voice()).collect();
    let mut pairs = Vec::new();
    for source in voice.iter().filter(|language| !language.is_variant()) {
        if !recognition.languages.contains(source.base_code()) {
            continue;
        }
        for target in &voice {
            if translated.supports_pair(source, target) {
                pairs.push((source.base_code(), target.base_code()));
            }
        }
    }
    Ok(Coverage::pairs(pairs))
}

/// The language-tools service the variables configure; settings that cannot work are logged and
/// count as none (write answers 503 for them).
fn language_tools<'a>(services: &Services<'a>) -> Option<LanguageTools<'a>> {
    match ToolsSettings::from_variables(services.vars) {
        Ok(settings) => settings.map(|settings| LanguageTools::new(settings, services.http)),
        Err(error) => {
            eprintln!("languages: the language-tools settings cannot work, so write is not listed: {error}");
            None
        }
    }
}

/// The write languages: each base language the service corrects, as a pair with itself. A service
/// that cannot say is a 503 (logged): listing nothing would read as "no languages, ever".
fn corrected(tools: &LanguageTools<'_>) -> Result<Coverage, ApiError> {
    let corrected = tools.corrected().map_err(|error| {
        eprintln!("languages: cannot list the write languages: {error}");
        ApiError::unavailable("The language-tools service is unavailable right now; try again later.")
    })?;
    Ok(Coverage::pairs(corrected.iter().map(|language| (language.base_code(), language.base_code()))))
}
