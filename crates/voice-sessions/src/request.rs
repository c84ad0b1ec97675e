//! `POST /v3/voice/realtime`: the session's parameters, each checked and named when refused.

use catalogue::Language;
use platform::Id;
use serde::{Deserialize, Serialize};

/// How many languages a session may translate into, speech targets included.
pub const MAX_TARGETS: usize = 5;
/// How many languages a session may speak its translations in.
pub const MAX_SPEECH_TARGETS: usize = 1;

/// The audio formats a client may stream, in their canonical spelling (no spaces, lower case).
pub const SOURCE_MEDIA_TYPES: [&str; 19] = [
    "audio/auto",
    "audio/flac",
    "audio/mpeg",
    "audio/ogg",
    "audio/webm",
    "audio/x-matroska",
    "audio/ogg;codecs=flac",
    "audio/ogg;codecs=opus",
    "audio/pcm;encoding=alaw;rate=8000",
    "audio/pcm;encoding=ulaw;rate=8000",
    "audio/pcm;encoding=s16le;rate=8000",
    "audio/pcm;encoding=s16le;rate=16000",
    "audio/pcm;encoding=s16le;rate=44100",
    "audio/pcm;encoding=s16le;rate=48000",
    "audio/webm;codecs=opus",
    "audio/x-matroska;codecs=aac",
    "audio/x-matroska;codecs=flac",
    "audio/x-matroska;codecs=mp3",
    "audio/x-matroska;codecs=opus",
];

/// The audio formats translated speech may be sent in.
pub const TARGET_MEDIA_TYPES: [&str; 16] = [
    "audio/flac",
    "video/mp2t;codecs=aac",
    "video/mp2t;codecs=opus",
    "audio/ogg",
    "audio/ogg;codecs=flac",
    "audio/ogg;codecs=opus",
    "audio/opus",
    "audio/pcm;encoding=alaw;rate=8000",
    "audio/pcm;encoding=ulaw;rate=8000",
    "audio/pcm;encoding=s16le;rate=16000",
    "audio/pcm;encoding=s16le;rate=24000",
    "audio/webm",
    "audio/webm;codecs=opus",
    "audio/x-matroska;codecs=aac",
    "audio/x-matroska;codecs=flac",
    "audio/x-matroska;codecs=opus",
];

/// The default format of translated speech.
pub const DEFAULT_TARGET_MEDIA_TYPE: &str = "audio/webm;codecs=opus";

/// A session request as sent: every parameter of the right type, none checked.
#[derive(Debug, Default, Clone)]
pub struct RawSessionRequest {
    pub source_media_content_type: Option<String>,
    pub message_format: Option<String>,
    pub source_language: Option<String>,
    pub source_language_mode: Option<String>,
    pub target_languages: Option<Vec<String>>,
    pub target_media_languages: Option<Vec<String>>,
    pub target_media_content_type: Option<String>,
    pub target_media_voice: Option<String>,
    pub spoken_terms_id: Option<String>,
    pub glossary_id: Option<String>,
    pub formality: Option<String>,
}

/// A valid session request: what the session record keeps and the gateway is told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionParameters {
    pub source_media_content_type: String,
    pub message_format: MessageFormat,
    /// The language's v3 code (`en`), or none: recognised from the audio.
    pub source_language: Option<String>,
    pub source_language_mode: SourceLanguageMode,
    /// v3 codes (`de`, `en-GB`), speech targets included, in the order given.
    pub target_languages: Vec<String>,
    pub target_media_languages: Vec<String>,
    pub target_media_content_type: String,
    pub target_media_voice: Option<Voice>,
    /// A spoken terms list's UUID, written as `platform::Id` writes it; whether the caller's
    /// subscription has it is the broker's to check. (Sessions opened before lists existed
    /// have none.)
    #[serde(default)]
    pub spoken_terms_id: Option<String>,
    /// A UUID, written as `platform::Id` writes it.
    pub glossary_id: Option<String>,
    pub formality: String,
}

/// How the WebSocket's messages are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MessageFormat {
    /// TEXT frames, binary data as base64.
    Json,
    /// BINARY frames, raw bytes.
    Msgpack,
}

/// Whether the source language is a hint or binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceLanguageMode {
    Auto,
    Fixed,
}

/// The voice translated speech is spoken in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Voice {
    Male,
    Female,
}

/// A parameter the API refuses, with the API's wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("Parameter '{0}' not specified")]
    Missing(&'static str),
    /// Neither of two parameters, of which one at least is needed.
    #[error("Parameter '{0}' or '{1}' not specified")]
    MissingEither(&'static str, &'static str),
    #[error("Value for '{name}' not supported: {reason}")]
    Unsupported { name: &'static str, reason: String },
}

fn unsupported(name: &'static str, reason: impl Into<String>) -> RequestError {
    RequestError::Unsupported { name, reason: reason.into() }
}

/// A content type in its canonical spelling: lower case, no spaces around `;` and `=`.
pub fn canonical_media_type(text: &str) -> String {
    text.split(';').map(|part| part.trim().replace(' ', "").to_ascii_lowercase()).collect::<Vec<_>>().join(";")
}

/// A content type from `allowed`, in its canonical spelling.
fn media_type(name: &'static str, text: &str, allowed: &[&str]) -> Result<String, RequestError> {
    let canonical = canonical_media_type(text);
    match allowed.iter().find(|known| **known == canonical) {
        Some(known) => Ok((*known).to_owned()),
        None => Err(unsupported(name, format!("'{}' is not a supported audio format.", text.trim()))),
    }
}

/// A language voice sessions accept, found case-insensitively by its code.
fn voice_language(name: &'static str, code: &str, as_source: bool) -> Result<&'static Language, RequestError> {
    let found = catalogue::find(code.trim())
        .filter(|language| language.supports_voice() && (!as_source || !language.is_variant()));
    found.ok_or_else(|| unsupported(name, format!("'{}' is not a language of real-time voice.", code.trim())))
}

/// A language's code as voice spells it: the catalogue's v3 code, but `zh-HANS` and `zh-HANT`.
pub fn voice_code(language: &Language) -> &'static str {
    match language.lang() {
        "zh-Hans" => "zh-HANS",
        "zh-Hant" => "zh-HANT",
        code => code,
    }
}

/// A list of languages, each in `allowed`, none twice, at most `max`.
fn language_list(
    name: &'static str,
    codes: Vec<String>,
    max: usize,
    allowed: impl Fn(&str) -> Result<&'static Language, RequestError>,
) -> Result<Vec<String>, RequestError> {
    if codes.len() > max {
        let plural = if max == 1 { "" } else { "s" };
        return Err(unsupported(name, format!("at most {max} language{plural} may be given.")));
    }
    let mut languages: Vec<String> = Vec::with_capacity(codes.len());
    for code in codes {
        let language = allowed(&code)?;
        let code = voice_code(language);
        if languages.iter().any(|seen| seen == code) {
            return Err(unsupported(name, format!("'{code}' is listed twice.")));
        }
        languages.push(code.to_owned());
    }
    Ok(languages)
}

impl RawSessionRequest {
    /// Checks every parameter, in the order of the reference's table.
    pub fn parse(self) -> Result<SessionParameters, RequestError> {
        let source_media_content_type = match self.source_media_content_type.filter(|text| !text.trim().is_empty()) {
            Some(text) => media_type("source_media_content_type", &text, &SOURCE_MEDIA_TYPES)?,
            None => return Err(RequestError::Missing("source_media_content_type")),
        };
        let message_format = match self.message_format.as_deref().map(str::trim) {
            None | Some("json") => MessageFormat::Json,
            Some("msgpack") => MessageFormat::Msgpack,
            Some(other) => return Err(unsupported("message_format", format!("'{other}'; use json or msgpack."))),
        };
        let source_language = match self.source_language.filter(|code| !code.trim().is_empty()) {
            Some(code) => Some(voice_language("source_language", &code, true)?.lang().to_owned()),
            None => None,
        };
        let source_language_mode = match self.source_language_mode.as_deref().map(str::trim) {
            None | Some("auto") => SourceLanguageMode::Auto,
            Some("fixed") if source_language.is_some() => SourceLanguageMode::Fixed,
            Some("fixed") => {
                return Err(unsupported("source_language_mode", "'fixed' needs a source_language."));
            }
            Some(other) => return Err(unsupported("source_language_mode", format!("'{other}'; use auto or fixed."))),
        };
        let speech_language = |code: &str| {
            let language = voice_language("target_media_languages", code, false)?;
            // The targets the speech synthesiser speaks: the catalogue's one table of them.
            if catalogue::speech_voice(language).is_some() {
                Ok(language)
            } else {
                Err(unsupported("target_media_languages", format!("'{}' cannot be spoken.", voice_code(language))))
            }
        };
        let target_media_languages = language_list(
            "target_media_languages",
            self.target_media_languages.unwrap_or_default(),
            MAX_SPEECH_TARGETS,
            speech_language,
        )?;
        let mut target_languages =
            language_list("target_languages", self.target_languages.unwrap_or_default(), MAX_TARGETS, |code| {
                voice_language("target_languages", code, false)
            })?;
        for spoken in &target_media_languages {
            if !target_languages.contains(spoken) {
                target_languages.push(spoken.clone());
            }
        }
        if target_languages.len() > MAX_TARGETS {
            return Err(unsupported(
                "target_languages",
                format!("at most {MAX_TARGETS} languages, those of target_media_languages included."),
            ));
        }
        let target_media_content_type = match self.target_media_content_type.filter(|text| !text.trim().is_empty()) {
            Some(text) => media_type("target_media_content_type", &text, &TARGET_MEDIA_TYPES)?,
            None => DEFAULT_TARGET_MEDIA_TYPE.to_owned(),
        };
        let target_media_voice = match self.target_media_voice.as_deref().map(str::trim) {
            None | Some("") => None,
            Some("male") => Some(Voice::Male),
            Some("female") => Some(Voice::Female),
            Some(other) => return Err(unsupported("target_media_voice", format!("'{other}'; use male or female."))),
        };
        let glossary_id = match self.glossary_id.filter(|id| !id.trim().is_empty()) {
            Some(id) => {
                Some(Id::parse(id.trim()).ok_or_else(|| unsupported("glossary_id", "not a glossary id."))?.to_string())
            }
            None => None,
        };
        let spoken_terms_id = match self.spoken_terms_id.filter(|id| !id.trim().is_empty()) {
            Some(id) => {
                Some(Id::parse(id.trim()).ok_or_else(|| unsupported("spoken_terms_id", "not a UUID."))?.to_string())
            }
            None => None,
        };
        let formality = match self.formality.as_deref().map(str::trim) {
            None | Some("") => "default".to_owned(),
            Some(value @ ("default" | "formal" | "more" | "informal" | "less")) => value.to_owned(),
            Some(other) => {
                return Err(unsupported(
                    "formality",
                    format!("'{other}'; use default, formal, more, informal or less."),
                ));
            }
        };
        Ok(SessionParameters {
            source_media_content_type,
            message_format,
            source_language,
            source_language_mode,
            target_languages,
            target_media_languages,
            target_media_content_type,
            target_media_voice,
            spoken_terms_id,
            glossary_id,
            formality,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(media: &str) -> RawSessionRequest {
        RawSessionRequest { source_media_content_type: Some(media.into()), ..RawSessionRequest::default() }
    }

    fn refused(request: RawSessionRequest) -> String {
        request.parse().unwrap_err().to_string()
    }

    #[test]
    fn a_content_type_is_enough_and_the_defaults_fill_the_rest() {
        let parameters = raw("audio/pcm; encoding=s16le; rate=16000").parse().unwrap();
        assert_eq!(parameters.source_media_content_type, "audio/pcm;encoding=s16le;rate=16000");
        assert_eq!(parameters.message_format, MessageFormat::Json);
        assert_eq!((parameters.source_language, parameters.source_language_mode), (None, SourceLanguageMode::Auto));
        assert!(parameters.target_languages.is_empty());
        assert_eq!(parameters.target_media_content_type, DEFAULT_TARGET_MEDIA_TYPE);
        assert_eq!(parameters.formality, "default");
    }

    #[test]
    fn every_source_format_of_the_reference_is_accepted_in_any_spacing_and_case() {
        for media in SOURCE_MEDIA_TYPES {
            let spaced = media.replace(';', "; ").to_uppercase();
            assert_eq!(raw(&spaced).parse().unwrap().source_media_content_type, media);
        }
        assert_eq!(refused(RawSessionRequest::default()), "Parameter 'source_media_content_type' not specified");
        assert_eq!(
            refused(raw("audio/pcm;encoding=s16le;rate=22050")),
            "Value for 'source_media_content_type' not supported: 'audio/pcm;encoding=s16le;rate=22050' is not a supported audio format."
        );
        assert!(refused(raw("audio/wav")).contains("'source_media_content_type'"));
    }

    #[test]
    fn languages_are_those_of_voice_in_their_v3_spelling() {
        let request = RawSessionRequest {
            source_language: Some("EN".into()),
            source_language_mode: Some("fixed".into()),
            target_languages: Some(vec!["DE".into(), "en-gb".into(), "zh-hant".into(), "PT-BR".into()]),
            ..raw("audio/ogg")
        };
        let parameters = request.parse().unwrap();
        assert_eq!(parameters.source_language.as_deref(), Some("en"));
        assert_eq!(parameters.source_language_mode, SourceLanguageMode::Fixed);
        assert_eq!(parameters.target_languages, ["de", "en-GB", "zh-HANT", "pt-BR"]);

        let source = |code: &str| RawSessionRequest { source_language: Some(code.into()), ..raw("audio/ogg") };
        assert!(refused(source("en-GB")).starts_with("Value for 'source_language' not supported"));
        assert!(refused(source("eo")).contains("'eo' is not a language of real-time voice"));
        let targets = |codes: &[&str]| RawSessionRequest {
            target_languages: Some(codes.iter().map(|code| code.to_string()).collect()),
            ..raw("audio/ogg")
        };
        assert!(refused(targets(&["de", "fr", "es", "it", "nl", "pl"])).contains("at most 5 languages"));
        assert!(refused(targets(&["de", "DE"])).contains("'de' is listed twice"));
        assert!(refused(targets(&["es-419"])).starts_with("Value for 'target_languages' not supported"));
    }

    #[test]
    fn the_catalogue_holds_exactly_the_reference_voice_languages() {
        let sources = "ar bg bn cs da de el en es et fi fr ga he hr hu id it ja ko lt lv mt nb nl pl pt ro ru sk sl sv th tl tr uk vi zh";
        let targets = format!("{sources} en-GB en-US pt-BR pt-PT zh-HANS zh-HANT");
        let mut expected: Vec<&str> = targets.split(' ').collect();
        expected.sort_unstable();
        let mut voice: Vec<&str> =
            catalogue::all().iter().filter(|language| language.supports_voice()).map(voice_code).collect();
        voice.sort_unstable();
        assert_eq!(voice, expected);
        let mut bases: Vec<&str> = sources.split(' ').collect();
        bases.sort_unstable();
        let accepted: Vec<&str> =
            voice.iter().copied().filter(|code| voice_language("source_language", code, true).is_ok()).collect();
        assert_eq!(accepted, bases);
    }

    #[test]
    fn fixed_mode_needs_a_source_language_and_enums_name_their_values() {
        let fixed = RawSessionRequest { source_language_mode: Some("fixed".into()), ..raw("audio/ogg") };
        assert!(refused(fixed).contains("'fixed' needs a source_language"));
        let format = RawSessionRequest { message_format: Some("xml".into()), ..raw("audio/ogg") };
        assert_eq!(refused(format), "Value for 'message_format' not supported: 'xml'; use json or msgpack.");
        let msgpack = RawSessionRequest { message_format: Some("msgpack".into()), ..raw("audio/ogg") };
        assert_eq!(msgpack.parse().unwrap().message_format, MessageFormat::Msgpack);
        let formality = RawSessionRequest { formality: Some("polite".into()), ..raw("audio/ogg") };
        assert!(refused(formality).starts_with("Value for 'formality' not supported"));
        let voice = RawSessionRequest { target_media_voice: Some("robot".into()), ..raw("audio/ogg") };
        assert!(refused(voice).starts_with("Value for 'target_media_voice' not supported"));
    }

    #[test]
    fn speech_targets_join_the_targets_and_count_against_the_five() {
        let request = RawSessionRequest {
            target_languages: Some(vec!["fr".into()]),
            target_media_languages: Some(vec!["de".into()]),
            target_media_content_type: Some("audio/pcm; encoding=s16le; rate=24000".into()),
            ..raw("audio/ogg")
        };
        let parameters = request.parse().unwrap();
        assert_eq!(parameters.target_languages, ["fr", "de"]);
        assert_eq!(parameters.target_media_content_type, "audio/pcm;encoding=s16le;rate=24000");
        let two =
            RawSessionRequest { target_media_languages: Some(vec!["de".into(), "fr".into()]), ..raw("audio/ogg") };
        assert!(refused(two).contains("at most 1 language may be given"));
        let six = RawSessionRequest {
            target_languages: Some(["fr", "es", "it", "nl", "pl"].map(String::from).to_vec()),
            target_media_languages: Some(vec!["de".into()]),
            ..raw("audio/ogg")
        };
        assert!(refused(six).contains("those of target_media_languages included"));
        let unspoken = RawSessionRequest { target_media_languages: Some(vec!["ja".into()]), ..raw("audio/ogg") };
        assert!(refused(unspoken).contains("'ja' cannot be spoken"));
        let spoken = |code: &str| {
            RawSessionRequest { target_media_languages: Some(vec![code.into()]), ..raw("audio/ogg") }.parse()
        };
        assert_eq!(spoken("lt").unwrap().target_media_languages, ["lt"]);
        assert_eq!(spoken("zh-hant").unwrap().target_media_languages, ["zh-HANT"]);
        assert!(spoken("tl").is_err() && spoken("es-419").is_err());
    }

    #[test]
    fn ids_are_checked() {
        let glossary = RawSessionRequest { glossary_id: Some("nope".into()), ..raw("audio/ogg") };
        assert_eq!(refused(glossary), "Value for 'glossary_id' not supported: not a glossary id.");
        let terms = RawSessionRequest { spoken_terms_id: Some("nope".into()), ..raw("audio/ogg") };
        assert_eq!(refused(terms), "Value for 'spoken_terms_id' not supported: not a UUID.");
        let terms = RawSessionRequest {
            spoken_terms_id: Some(" 7C4F1080-CFE2-41D4-8269-0E6EC15A0354 ".into()),
            ..raw("audio/ogg")
        };
        let parameters = terms.parse().unwrap();
        assert_eq!(parameters.spoken_terms_id.as_deref(), Some("7c4f1080-cfe2-41d4-8269-0e6ec15a0354"));
        let blank = RawSessionRequest { spoken_terms_id: Some(" ".into()), ..raw("audio/ogg") };
        assert_eq!(blank.parse().unwrap().spoken_terms_id, None);
    }

    #[test]
    fn parameters_stored_before_spoken_terms_lists_still_read() {
        let stored = r#"{"source_media_content_type": "audio/ogg", "message_format": "json", "source_language": null,
            "source_language_mode": "auto", "target_languages": [], "target_media_languages": [],
            "target_media_content_type": "audio/webm;codecs=opus", "target_media_voice": null,
            "glossary_id": null, "formality": "default"}"#;
        let parameters: SessionParameters = serde_json::from_str(stored).unwrap();
        assert_eq!(parameters.spoken_terms_id, None);
    }
}
