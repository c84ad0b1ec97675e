//! The parameters of a write request, validated.
//!
//! `edge.rs` reads a request's parameters as they were sent ([`RawWriteRequest`]: each of the
//! right JSON or form type, nothing checked yet); [`WriteRequest::parse`] checks every one
//! against the catalogue and the API's rules (reference §6) and names the one at fault.
//!
//! * `target_lang` is optional and must be a language of `/v2/write` (the catalogue's
//!   [`Language::supports_write`]). `EN` answers as `en-US` and `PT` as `pt-PT`, as the
//!   reference's mock does; without it each text is improved in its own (detected) language,
//!   named the same way.
//! * `writing_style` and `tone` (any case): at most one that is not `default`/`prefer_default`.
//!   A target without writing styles or tones ([`Language::supports_writing_style`],
//!   [`Language::supports_tone`]) refuses a plain one and takes a `prefer_…` one as the default.
//!   `/v2/write/correct` has neither parameter: one that is sent is refused, never ignored.
//! * An empty `target_lang`, `writing_style` or `tone` is taken as not sent (it asks for
//!   nothing), as translation does with `target_lang`.

use std::fmt;

use catalogue::Language;

/// Which endpoint a request came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `/v2/write/rephrase`: corrected, then rewritten in a style or tone.
    Rephrase,
    /// `/v2/write/correct`: spelling and grammar only.
    Correct,
}

/// A `writing_style` other than the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    Academic,
    Business,
    Casual,
    Simple,
}

impl Style {
    pub const ALL: [Style; 4] = [Style::Academic, Style::Business, Style::Casual, Style::Simple];

    /// The parameter's value: `academic`, `business`, `casual`, `simple`.
    pub fn as_str(self) -> &'static str {
        match self {
            Style::Academic => "academic",
            Style::Business => "business",
            Style::Casual => "casual",
            Style::Simple => "simple",
        }
    }
}

/// A `tone` other than the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tone {
    Confident,
    Diplomatic,
    Enthusiastic,
    Friendly,
}

impl Tone {
    pub const ALL: [Tone; 4] = [Tone::Confident, Tone::Diplomatic, Tone::Enthusiastic, Tone::Friendly];

    /// The parameter's value: `confident`, `diplomatic`, `enthusiastic`, `friendly`.
    pub fn as_str(self) -> &'static str {
        match self {
            Tone::Confident => "confident",
            Tone::Diplomatic => "diplomatic",
            Tone::Enthusiastic => "enthusiastic",
            Tone::Friendly => "friendly",
        }
    }
}

/// What a rephrase changes beyond correcting: one writing style or one tone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Change {
    Style(Style),
    Tone(Tone),
}

impl Change {
    /// Every style, then every tone.
    pub const ALL: [Change; 8] = [
        Change::Style(Style::Academic),
        Change::Style(Style::Business),
        Change::Style(Style::Casual),
        Change::Style(Style::Simple),
        Change::Tone(Tone::Confident),
        Change::Tone(Tone::Diplomatic),
        Change::Tone(Tone::Enthusiastic),
        Change::Tone(Tone::Friendly),
    ];

    /// The parameter that asks for it: `writing_style` or `tone`.
    pub fn parameter(self) -> &'static str {
        match self {
            Change::Style(_) => "writing_style",
            Change::Tone(_) => "tone",
        }
    }

    /// The parameter's value, without `prefer_`.
    pub fn value(self) -> &'static str {
        match self {
            Change::Style(style) => style.as_str(),
            Change::Tone(tone) => tone.as_str(),
        }
    }

    /// Whether `language`, as a target, has this kind of change (the catalogue's answer).
    pub fn supported_by(self, language: &Language) -> bool {
        match self {
            Change::Style(_) => language.supports_writing_style(),
            Change::Tone(_) => language.supports_tone(),
        }
    }
}

/// `writing_style 'business'`, `tone 'friendly'`.
impl fmt::Display for Change {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{} '{}'", self.parameter(), self.value())
    }
}

/// The style or tone a rephrase request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Requested {
    pub change: Change,
    /// Sent as `prefer_…`: on a language without it, the default instead of a 400.
    pub prefer: bool,
}

/// What a request's style or tone comes to for one target language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resolved {
    /// Neither a style nor a tone (or only their defaults).
    Default,
    /// The target has it: apply it.
    Apply(Change),
    /// `prefer_…` for a target without it: the default, as the API documents.
    Unavailable(Change),
}

/// A write request's parameters as sent: each present one of the right type, none checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawWriteRequest {
    /// Every `text`: a JSON array or string, or the form's repeated key.
    pub text: Option<Vec<String>>,
    pub target_lang: Option<String>,
    pub writing_style: Option<String>,
    pub tone: Option<String>,
}

/// A validated write request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteRequest {
    pub kind: Kind,
    pub texts: Vec<String>,
    /// The target as the answers name it (`EN` → `en-US`, `PT` → `pt-PT`); `None`: each text in
    /// its own detected language.
    pub target: Option<&'static Language>,
    /// The style or tone asked for (`None`: the defaults; always `None` for a correction).
    pub requested: Option<Requested>,
}

/// Why a write request is refused: each a 400 in the API's words, naming the parameter at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("Parameter '{0}' not specified")]
    Missing(&'static str),
    #[error(
        "Value for 'target_lang' not supported: {} is not a language of text improvement (one of {}).",
        quoted(.0),
        write_language_codes()
    )]
    TargetLanguage(String),
    #[error("Value for '{parameter}' not supported: {} is not one of {allowed}.", quoted(.value))]
    Value { parameter: &'static str, value: String, allowed: &'static str },
    #[error(
        "Bad request. Reason: Both writing_style and tone defined. Currently only style OR tone can be chosen for a single request."
    )]
    StyleAndTone,
    /// The language's English name, as the API says it (`Language Spanish does not …`).
    #[error("Language {0} does not support setting a writing style.")]
    NoWritingStyle(&'static str),
    #[error("Language {0} does not support setting a tone.")]
    NoTone(&'static str),
    #[error(
        "Parameter '{0}' is not supported by /v2/write/correct, which only corrects; use /v2/write/rephrase to change \
         the writing style or tone."
    )]
    NotForCorrect(&'static str),
    /// A text (1-based) whose language cannot be detected, without a `target_lang`.
    #[error("The language of text {0} could not be detected; set 'target_lang' to name it.")]
    Undetected(usize),
    /// A text (1-based) in a language text improvement does not serve, without a `target_lang`.
    #[error(
        "Text {index} is in {language}, which text improvement does not support; set 'target_lang' to one of {} to \
         have it translated first.",
        write_language_codes()
    )]
    NotAWriteLanguage { index: usize, language: &'static str },
    /// A `target_lang` of text improvement that this deployment's corrector does not cover;
    /// `offered` lists the write languages it does.
    #[error(
        "Value for 'target_lang' not supported: text improvement in {language} is not available on this deployment \
         (it improves {offered})."
    )]
    NotImprovable { language: &'static str, offered: String },
    /// A text (1-based), without a `target_lang`, in a write language this deployment's corrector
    /// does not cover.
    #[error(
        "Text {index} is in {language}, which this deployment cannot improve; set 'target_lang' to one of {offered} to \
         have it translated first."
    )]
    NotImprovableText { index: usize, language: &'static str, offered: String },
}

const STYLES: &str = "'academic', 'business', 'casual', 'default', 'simple', 'prefer_academic', 'prefer_business', \
                      'prefer_casual', 'prefer_simple', 'prefer_default'";
const TONES: &str = "'confident', 'default', 'diplomatic', 'enthusiastic', 'friendly', 'prefer_confident', \
                     'prefer_diplomatic', 'prefer_enthusiastic', 'prefer_friendly', 'prefer_default'";

/// A value as a message quotes it: in quotes, cut after 40 characters.
fn quoted(value: &str) -> String {
    const LONGEST: usize = 40;
    if value.chars().count() > LONGEST {
        format!("'{}…'", value.chars().take(LONGEST).collect::<String>())
    } else {
        format!("'{value}'")
    }
}

/// The languages of `/v2/write`, as the catalogue has them: `de, en, en-GB, …`.
pub fn write_language_codes() -> String {
    improvable_codes(|_| true)
}

/// The write languages whose base language `corrected` accepts, as a message lists them.
pub fn improvable_codes(corrected: impl Fn(&'static Language) -> bool) -> String {
    catalogue::all()
        .iter()
        .filter(|language| language.supports_write() && corrected(language.base()))
        .map(Language::lang)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The language a write answer names as its target: `EN` is answered as `en-US` and `PT` as
/// `pt-PT` (reference §6.1, the mock's mapping); every other write language as itself.
pub fn answered_target(language: &'static Language) -> &'static Language {
    let variant = match language.code() {
        "EN" => "EN-US",
        "PT" => "PT-PT",
        _ => return language,
    };
    catalogue::find(variant).expect("the catalogue has en-US and pt-PT")
}

impl WriteRequest {
    /// Validates the parameters of a request to `kind`'s endpoint.
    pub fn parse(raw: RawWriteRequest, kind: Kind) -> Result<WriteRequest, RequestError> {
        let texts = raw.text.filter(|texts| !texts.is_empty()).ok_or(RequestError::Missing("text"))?;
        let target = match given(raw.target_lang) {
            Some(code) => Some(answered_target(
                catalogue::find(&code)
                    .filter(|language| language.supports_write())
                    .ok_or(RequestError::TargetLanguage(code))?,
            )),
            None => None,
        };
        let (style, tone) = (given(raw.writing_style), given(raw.tone));
        let requested = match kind {
            Kind::Correct => {
                if style.is_some() {
                    return Err(RequestError::NotForCorrect("writing_style"));
                }
                if tone.is_some() {
                    return Err(RequestError::NotForCorrect("tone"));
                }
                None
            }
            Kind::Rephrase => {
                // Each is checked against the target before both are refused together, in the
                // mock's order.
                let style = style.map(|value| parse_style(&value)).transpose()?.flatten();
                resolve(style, target)?;
                let tone = tone.map(|value| parse_tone(&value)).transpose()?.flatten();
                resolve(tone, target)?;
                match (style, tone) {
                    (Some(_), Some(_)) => return Err(RequestError::StyleAndTone),
                    (style, tone) => style.or(tone),
                }
            }
        };
        Ok(WriteRequest { kind, texts, target, requested })
    }

    /// What the style or tone asked for comes to with `target` (the request's, or a text's own
    /// language when the request names none): a plain style or tone the target lacks is refused.
    pub fn resolve(&self, target: &'static Language) -> Result<Resolved, RequestError> {
        resolve(self.requested, Some(target))
    }
}

/// [`WriteRequest::resolve`] for one style or tone; without a target, nothing can be checked yet.
fn resolve(requested: Option<Requested>, target: Option<&'static Language>) -> Result<Resolved, RequestError> {
    let (Some(Requested { change, prefer }), Some(target)) = (requested, target) else { return Ok(Resolved::Default) };
    if change.supported_by(target) {
        Ok(Resolved::Apply(change))
    } else if prefer {
        Ok(Resolved::Unavailable(change))
    } else {
        Err(match change {
            Change::Style(_) => RequestError::NoWritingStyle(target.name()),
            Change::Tone(_) => RequestError::NoTone(target.name()),
        })
    }
}

/// A parameter's value, trimmed; `None` when absent or empty.
fn given(value: Option<String>) -> Option<String> {
    value.map(|value| value.trim().to_owned()).filter(|value| !value.is_empty())
}

/// A `writing_style` (any case): `None` for `default` and `prefer_default`.
fn parse_style(value: &str) -> Result<Option<Requested>, RequestError> {
    let lower = value.to_ascii_lowercase();
    let (name, prefer) = lower.strip_prefix("prefer_").map_or((lower.as_str(), false), |name| (name, true));
    if name == "default" {
        return Ok(None);
    }
    match Style::ALL.into_iter().find(|style| style.as_str() == name) {
        Some(style) => Ok(Some(Requested { change: Change::Style(style), prefer })),
        None => Err(RequestError::Value { parameter: "writing_style", value: value.to_owned(), allowed: STYLES }),
    }
}

/// A `tone` (any case): `None` for `default` and `prefer_default`.
fn parse_tone(value: &str) -> Result<Option<Requested>, RequestError> {
    let lower = value.to_ascii_lowercase();
    let (name, prefer) = lower.strip_prefix("prefer_").map_or((lower.as_str(), false), |name| (name, true));
    if name == "default" {
        return Ok(None);
    }
    match Tone::ALL.into_iter().find(|tone| tone.as_str() == name) {
        Some(tone) => Ok(Some(Requested { change: Change::Tone(tone), prefer })),
        None => Err(RequestError::Value { parameter: "tone", value: value.to_owned(), allowed: TONES }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &[&str], target: Option<&str>, style: Option<&str>, tone: Option<&str>) -> RawWriteRequest {
        RawWriteRequest {
            text: Some(text.iter().map(|text| text.to_string()).collect()),
            target_lang: target.map(str::to_owned),
            writing_style: style.map(str::to_owned),
            tone: tone.map(str::to_owned),
        }
    }

    fn rephrase(target: Option<&str>, style: Option<&str>, tone: Option<&str>) -> Result<WriteRequest, RequestError> {
        WriteRequest::parse(raw(&["Hello"], target, style, tone), Kind::Rephrase)
    }

    fn message(result: Result<WriteRequest, RequestError>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn text_is_required_and_kept_in_order() {
        let missing = RawWriteRequest::default();
        assert_eq!(message(WriteRequest::parse(missing, Kind::Rephrase)), "Parameter 'text' not specified");
        let empty = RawWriteRequest { text: Some(Vec::new()), ..RawWriteRequest::default() };
        assert_eq!(message(WriteRequest::parse(empty, Kind::Correct)), "Parameter 'text' not specified");
        let request = WriteRequest::parse(raw(&["b", "", "a"], None, None, None), Kind::Correct).unwrap();
        assert_eq!(request.texts, ["b", "", "a"]);
        assert_eq!((request.target, request.requested), (None, None));
    }

    #[test]
    fn every_write_language_is_a_target_in_any_case() {
        let codes =
            ["de", "en", "en-GB", "en-US", "es", "fr", "it", "ja", "ko", "pt", "pt-BR", "pt-PT", "zh", "zh-Hans"];
        assert_eq!(write_language_codes(), codes.join(", "), "the catalogue agrees with the reference (§6.1)");
        for code in codes.iter().copied().chain(["DE", "EN-gb", "ZH-HANS", " fr "]) {
            assert!(rephrase(Some(code), None, None).is_ok(), "{code}");
        }
    }

    #[test]
    fn english_and_portuguese_answer_as_their_default_variants() {
        let target = |code: &str| rephrase(Some(code), None, None).unwrap().target.unwrap().lang();
        assert_eq!(target("EN"), "en-US");
        assert_eq!(target("en"), "en-US");
        assert_eq!(target("PT"), "pt-PT");
        assert_eq!(target("en-GB"), "en-GB");
        assert_eq!(target("pt-br"), "pt-BR");
        assert_eq!(target("ZH"), "zh");
        assert_eq!(target("de"), "de");
    }

    #[test]
    fn an_unknown_or_non_write_target_is_named_with_its_value() {
        for code in ["nl", "xx", "zh-Hant", "de-CH", "EN-AU"] {
            let text = message(rephrase(Some(code), None, None));
            assert!(text.starts_with("Value for 'target_lang' not supported: "), "{text}");
            assert!(text.contains(&format!("'{code}'")), "{text}");
            assert!(text.contains("de, en, en-GB"), "{text}");
        }
        let long = "x".repeat(100);
        assert!(message(rephrase(Some(&long), None, None)).contains(&format!("'{}…'", "x".repeat(40))));
        assert_eq!(rephrase(Some(""), None, None).unwrap().target, None, "an empty target is no target");
    }

    #[test]
    fn styles_and_tones_are_read_in_any_case_with_or_without_prefer() {
        let requested = |style: Option<&str>, tone: Option<&str>| rephrase(Some("de"), style, tone).unwrap().requested;
        assert_eq!(
            requested(Some("Business"), None),
            Some(Requested { change: Change::Style(Style::Business), prefer: false })
        );
        assert_eq!(
            requested(None, Some("prefer_friendly")),
            Some(Requested { change: Change::Tone(Tone::Friendly), prefer: true })
        );
        for default in ["default", "prefer_default", "DEFAULT", ""] {
            assert_eq!(requested(Some(default), None), None, "{default}");
            assert_eq!(requested(None, Some(default)), None, "{default}");
        }
        for style in Style::ALL {
            assert!(rephrase(Some("en"), Some(style.as_str()), None).is_ok());
            assert!(rephrase(Some("en"), Some(&format!("prefer_{}", style.as_str())), None).is_ok());
        }
        for tone in Tone::ALL {
            assert!(rephrase(Some("en"), None, Some(tone.as_str())).is_ok());
            assert!(rephrase(Some("en"), None, Some(&format!("prefer_{}", tone.as_str()))).is_ok());
        }
    }

    #[test]
    fn unknown_styles_and_tones_are_named_with_their_value() {
        let style = message(rephrase(None, Some("formal"), None));
        assert!(
            style.starts_with("Value for 'writing_style' not supported: 'formal' is not one of 'academic',"),
            "{style}"
        );
        let tone = message(rephrase(None, None, Some("prefer_angry")));
        assert!(
            tone.starts_with("Value for 'tone' not supported: 'prefer_angry' is not one of 'confident',"),
            "{tone}"
        );
    }

    #[test]
    fn a_style_and_a_tone_together_are_refused_unless_one_is_the_default() {
        assert_eq!(
            message(rephrase(Some("en"), Some("business"), Some("confident"))),
            "Bad request. Reason: Both writing_style and tone defined. Currently only style OR tone can be chosen for a single request."
        );
        assert_eq!(rephrase(None, Some("prefer_casual"), Some("prefer_friendly")), Err(RequestError::StyleAndTone));
        assert!(rephrase(Some("en"), Some("default"), Some("confident")).is_ok());
        // A target without styles is named first, as the mock does.
        assert_eq!(
            rephrase(Some("es"), Some("business"), Some("confident")),
            Err(RequestError::NoWritingStyle("Spanish"))
        );
        assert_eq!(
            rephrase(Some("es"), Some("prefer_business"), Some("confident")),
            Err(RequestError::NoTone("Spanish"))
        );
        assert_eq!(
            rephrase(Some("es"), Some("prefer_business"), Some("prefer_confident")),
            Err(RequestError::StyleAndTone)
        );
        assert!(rephrase(Some("en"), Some("business"), Some("prefer_default")).is_ok());
    }

    #[test]
    fn a_plain_style_or_tone_needs_a_target_that_has_it_and_prefer_falls_back() {
        assert_eq!(
            message(rephrase(Some("es"), Some("business"), None)),
            "Language Spanish does not support setting a writing style."
        );
        assert_eq!(
            message(rephrase(Some("es"), None, Some("confident"))),
            "Language Spanish does not support setting a tone."
        );
        assert_eq!(
            message(rephrase(Some("pt"), Some("casual"), None)),
            "Language Portuguese (European) does not support setting a writing style."
        );
        let prefer = rephrase(Some("es"), Some("prefer_business"), None).unwrap();
        assert_eq!(prefer.resolve(prefer.target.unwrap()), Ok(Resolved::Unavailable(Change::Style(Style::Business))));
        for code in ["de", "en", "en-GB", "en-US"] {
            let request = rephrase(Some(code), None, Some("diplomatic")).unwrap();
            assert_eq!(request.resolve(request.target.unwrap()), Ok(Resolved::Apply(Change::Tone(Tone::Diplomatic))));
        }
        // Without a target, the text's language decides later.
        let later = rephrase(None, Some("simple"), None).unwrap();
        let spanish = catalogue::find("es").unwrap();
        assert_eq!(later.resolve(spanish), Err(RequestError::NoWritingStyle("Spanish")));
    }

    #[test]
    fn a_correction_refuses_style_and_tone_if_sent_at_all() {
        let correct = |style: Option<&str>, tone: Option<&str>| {
            WriteRequest::parse(raw(&["a"], Some("en"), style, tone), Kind::Correct)
        };
        assert_eq!(correct(Some("default"), None), Err(RequestError::NotForCorrect("writing_style")));
        assert_eq!(correct(None, Some("prefer_friendly")), Err(RequestError::NotForCorrect("tone")));
        assert!(
            message(correct(None, Some("x"))).starts_with("Parameter 'tone' is not supported by /v2/write/correct")
        );
        assert_eq!(correct(None, None).unwrap().requested, None);
    }

    #[test]
    fn changes_name_their_parameter_and_value() {
        assert_eq!(Change::Style(Style::Casual).to_string(), "writing_style 'casual'");
        assert_eq!(Change::Tone(Tone::Enthusiastic).to_string(), "tone 'enthusiastic'");
        assert_eq!(Change::ALL.len(), Style::ALL.len() + Tone::ALL.len());
    }
}
