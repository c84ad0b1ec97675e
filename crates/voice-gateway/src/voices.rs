//! The synthesiser of a session's translated speech: a Piper voice of the inference service
//! (`GET /v1/speech/voices`, `POST /v1/speech/synthesize`) where one speaks the language, else
//! espeak-ng (`speech::synthesize`).
//!
//! The inference service's voices are asked for once a minute at most, when a session speaks its first
//! segment; while the service does not answer (it is down, or an older one without voices), every
//! language is spoken by espeak-ng and a warning is logged once per outage. A session keeps the
//! synthesiser its first segment got, so its speech has one voice and one rate.

use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Mutex;

use crate::client::{CallError, JsonClient, parse_ok};
use crate::speech::{self, Pcm};

/// How long the list of voices is kept before it is asked for again.
const LIST_TTL: Duration = Duration::from_secs(60);

/// How long the service may take to list its voices (a session's first segment waits for it).
const LIST_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the service may take for one piece of text.
const SYNTHESIS_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest piece of text sent at once: about 25 s of speech, so that an answer stays well within
/// the client's 4 MiB (the service takes up to 1,000 characters).
const MAX_PIECE_CHARACTERS: usize = 400;

/// A busy service (503) is asked again after this pause, this many times (10 s in all).
const BUSY_DELAY: Duration = Duration::from_millis(250);
const BUSY_ATTEMPTS: u32 = 40;

/// A voice of the inference service, as `GET /v1/speech/voices` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Voice {
    pub name: String,
    /// Lower case, `en-us`.
    pub language: String,
    pub sample_rate: u32,
    /// `male`, `female`, or null when unknown.
    #[serde(default)]
    pub gender: Option<String>,
}

/// The inference service's voices, cached.
pub struct Voices {
    list: JsonClient,
    synthesis: JsonClient,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    checked: Option<Instant>,
    voices: Vec<Voice>,
    /// The last attempt failed (a warning was logged for this outage).
    failing: bool,
}

impl std::fmt::Debug for Voices {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Voices").field("service", &self.list.base()).finish_non_exhaustive()
    }
}

impl Voices {
    /// The voices of the inference service at `base` (`http://host:port`), with its secret.
    pub fn new(base: &str, secret: &str) -> Voices {
        Voices {
            list: JsonClient::new(base, secret, LIST_TIMEOUT),
            synthesis: JsonClient::new(base, secret, SYNTHESIS_TIMEOUT),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The installed voices: the cached list, asked for again once it is older than a minute. A service
    /// that does not answer has none (a warning is logged once per outage).
    pub async fn list(&self) -> Vec<Voice> {
        let mut cache = self.cache.lock().await;
        if cache.checked.is_some_and(|checked| checked.elapsed() < LIST_TTL) {
            return cache.voices.clone();
        }
        #[derive(Deserialize)]
        struct Answer {
            voices: Vec<Voice>,
        }
        let answer = match self.list.get("/v1/speech/voices").await {
            Ok((status, body)) => parse_ok::<Answer>(status, &body),
            Err(error) => Err(error),
        };
        cache.checked = Some(Instant::now());
        match answer {
            Ok(answer) => {
                if cache.failing {
                    tracing::info!(voices = answer.voices.len(), "the inference service lists its voices again");
                }
                cache.failing = false;
                cache.voices = answer.voices;
            }
            Err(error) => {
                if !cache.failing {
                    tracing::warn!(service = %self.list.base(), %error,
                        "cannot list the inference service's voices: espeak-ng speaks every language");
                }
                cache.failing = true;
                cache.voices = Vec::new();
            }
        }
        cache.voices.clone()
    }

    /// `text` spoken by `voice`, in pieces of at most 400 characters joined back to back.
    pub async fn synthesize(&self, voice: &Voice, text: &str) -> Result<Pcm, String> {
        let mut pcm = Pcm { rate: voice.sample_rate, bytes: Vec::new() };
        for piece in pieces(text, MAX_PIECE_CHARACTERS) {
            let part = self.synthesize_piece(voice, piece).await?;
            if part.rate != pcm.rate {
                return Err(format!("the voice {} answered at {} Hz, not {} Hz", voice.name, part.rate, pcm.rate));
            }
            pcm.bytes.extend_from_slice(&part.bytes);
        }
        Ok(pcm)
    }

    /// One piece: a busy service is asked again for up to 10 s, a failure once more.
    async fn synthesize_piece(&self, voice: &Voice, text: &str) -> Result<Pcm, String> {
        #[derive(Deserialize)]
        struct Answer {
            sample_rate: u32,
            audio: String,
        }
        let body = json!({"text": text, "voice": voice.name});
        let (mut busy, mut failures) = (0, 0);
        loop {
            let answer = match self.synthesis.post("/v1/speech/synthesize", &body).await {
                Ok((status, _)) if status.as_u16() == 503 && busy + 1 < BUSY_ATTEMPTS => {
                    busy += 1;
                    tokio::time::sleep(BUSY_DELAY).await;
                    continue;
                }
                Ok((status, answer)) => parse_ok::<Answer>(status, &answer),
                Err(error) => Err(error),
            };
            let error = match answer {
                Ok(answer) => {
                    let mut bytes = BASE64
                        .decode(answer.audio.as_bytes())
                        .map_err(|error| format!("the voice's audio is not base64: {error}"))?;
                    bytes.truncate(bytes.len() / 2 * 2);
                    return Ok(Pcm { rate: answer.sample_rate, bytes });
                }
                Err(error) => error,
            };
            let retry = match &error {
                CallError::Transport(_) | CallError::Invalid(_) => true,
                CallError::Status { status, .. } => status.is_server_error() && status.as_u16() != 503,
            };
            failures += 1;
            if !retry || failures >= 2 {
                return Err(format!("the inference service did not speak with the voice {}: {error}", voice.name));
            }
            tracing::warn!(voice = %voice.name, %error, "speech synthesis failed; retrying");
        }
    }
}

/// What speaks a session's translations.
#[derive(Debug, Clone)]
pub enum Synthesizer {
    /// espeak-ng (`program`) with this voice (`speech::espeak_voice`).
    Espeak { program: String, voice: String },
    /// A Piper voice of the inference service.
    Piper { voices: Arc<Voices>, voice: Voice },
}

impl Synthesizer {
    /// The synthesiser for a speech language and `target_media_voice`: a Piper voice of `voices` that
    /// speaks the language (and, for `male` or `female`, is known to be one), else espeak-ng.
    pub async fn choose(
        language: &str,
        requested: Option<&str>,
        voices: Option<&Arc<Voices>>,
        espeak: &str,
    ) -> Synthesizer {
        if let Some(voices) = voices
            && let Some(voice) = choose(&voices.list().await, language, requested)
        {
            return Synthesizer::Piper { voices: Arc::clone(voices), voice };
        }
        Synthesizer::Espeak { program: espeak.to_string(), voice: speech::espeak_voice(language, requested) }
    }

    /// The text spoken: mono s16le at the synthesiser's rate.
    pub async fn speak(&self, text: &str) -> Result<Pcm, String> {
        match self {
            Synthesizer::Espeak { program, voice } => speech::synthesize(program, voice, text).await,
            Synthesizer::Piper { voices, voice } => voices.synthesize(voice, text).await,
        }
    }

    /// Which one it is, for the log.
    pub fn describe(&self) -> String {
        match self {
            Synthesizer::Espeak { voice, .. } => format!("espeak-ng voice {voice}"),
            Synthesizer::Piper { voice, .. } => format!("Piper voice {}", voice.name),
        }
    }
}

/// The locale a speech language is spoken in: lower case, `-` between language and region, and
/// English without a region spoken as American English (espeak-ng's `en-us`, as `speech::espeak_voice`).
pub fn spoken_locale(language: &str) -> String {
    let locale = tag(language);
    if locale == "en" { "en-us".to_string() } else { locale }
}

/// A language code in lower case with `-` between its parts (`en_US` → `en-us`).
fn tag(language: &str) -> String {
    language.trim().replace('_', "-").to_ascii_lowercase()
}

/// The voice for a language and a requested `male`/`female` (any other value, or none, takes any
/// voice): one whose language is the spoken locale, or, without a region on either side, the same
/// language; the first by name. A requested sex takes only a voice known to be one.
pub fn choose(voices: &[Voice], language: &str, requested: Option<&str>) -> Option<Voice> {
    let locale = spoken_locale(language);
    let base = locale.split('-').next().unwrap_or_default();
    let wanted = requested
        .map(str::trim)
        .filter(|requested| requested.eq_ignore_ascii_case("male") || requested.eq_ignore_ascii_case("female"));
    let mut candidates: Vec<&Voice> = voices
        .iter()
        .filter(|voice| {
            let spoken = tag(&voice.language);
            spoken == locale || spoken == base || (!locale.contains('-') && spoken.split('-').next() == Some(base))
        })
        .filter(|voice| match wanted {
            Some(wanted) => voice.gender.as_deref().is_some_and(|gender| gender.eq_ignore_ascii_case(wanted)),
            None => true,
        })
        .collect();
    candidates.sort_by(|a, b| (tag(&a.language) != locale, &a.name).cmp(&(tag(&b.language) != locale, &b.name)));
    candidates.first().map(|voice| (*voice).clone())
}

/// `text` cut into pieces of at most `max` characters: at sentence ends where it can, else at spaces,
/// else anywhere (a character is never split). Each piece is trimmed; no piece is empty.
pub fn pieces(text: &str, max: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if rest.chars().count() <= max {
            pieces.push(rest);
            break;
        }
        // The byte offset just past the `max`-th character.
        let limit = rest.char_indices().nth(max).map_or(rest.len(), |(offset, _)| offset);
        let window = &rest[..limit];
        let sentence_end = window
            .char_indices()
            .rev()
            .filter(|&(offset, character)| {
                matches!(character, '.' | '!' | '?' | '。' | '！' | '？')
                    && window[offset + character.len_utf8()..].starts_with(char::is_whitespace)
            })
            .map(|(offset, character)| offset + character.len_utf8())
            .next();
        let cut =
            sentence_end.or_else(|| window.rfind(char::is_whitespace).filter(|&offset| offset > 0)).unwrap_or(limit);
        let piece = rest[..cut].trim();
        if !piece.is_empty() {
            pieces.push(piece);
        }
        rest = rest[cut..].trim_start();
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voice(name: &str, language: &str, gender: Option<&str>) -> Voice {
        Voice {
            name: name.to_string(),
            language: language.to_string(),
            sample_rate: 22_050,
            gender: gender.map(str::to_string),
        }
    }

    #[test]
    fn a_language_gets_a_voice_of_its_locale_and_the_requested_sex() {
        let joe = voice("en_US-joe-medium", "en-us", Some("male"));
        let voices = [joe.clone(), voice("de_DE-thorsten-medium", "de-de", None)];
        // English without a region is American English, as for espeak-ng.
        assert_eq!(choose(&voices, "en", None), Some(joe.clone()));
        assert_eq!(choose(&voices, "EN-US", Some("male")), Some(joe.clone()));
        assert_eq!(choose(&voices, "en-US", Some("unknown")), Some(joe.clone()));
        // A female voice is asked for: joe is male, so none (espeak-ng's female variant speaks).
        assert_eq!(choose(&voices, "en-US", Some("female")), None);
        assert_eq!(choose(&voices, "en-GB", None), None);
        // A language without a region takes any voice of it; a voice of unknown sex only serves null.
        assert_eq!(choose(&voices, "de", None).map(|voice| voice.name), Some("de_DE-thorsten-medium".to_string()));
        assert_eq!(choose(&voices, "de", Some("male")), None);
        assert_eq!(choose(&voices, "fr", None), None);
        // A voice without a region serves every region; the exact locale comes first.
        let voices = [voice("b-en", "en", None), voice("c-gb", "en-gb", None)];
        assert_eq!(choose(&voices, "en-gb", None).map(|voice| voice.name), Some("c-gb".to_string()));
        assert_eq!(choose(&voices, "en-au", None).map(|voice| voice.name), Some("b-en".to_string()));
        assert_eq!(choose(&[], "en", None), None);
    }

    #[test]
    fn long_texts_are_cut_at_sentences_then_spaces() {
        assert_eq!(pieces("  Hello.  ", 10), vec!["Hello."]);
        assert_eq!(pieces("", 10), Vec::<&str>::new());
        assert_eq!(pieces("One two. Three four five.", 12), vec!["One two.", "Three four", "five."]);
        assert_eq!(pieces("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(pieces("äöü äöü", 4), vec!["äöü", "äöü"]);
        let text = "A sentence that goes on. ".repeat(40);
        let cut = pieces(&text, MAX_PIECE_CHARACTERS);
        assert!(cut.len() > 1 && cut.iter().all(|piece| piece.chars().count() <= MAX_PIECE_CHARACTERS));
        assert!(cut.iter().all(|piece| piece.ends_with('.')));
        assert_eq!(cut.join(" "), text.trim());
    }

    #[test]
    fn locales_are_lower_case_with_hyphens() {
        assert_eq!(spoken_locale("EN"), "en-us");
        assert_eq!(spoken_locale("en_GB"), "en-gb");
        assert_eq!(spoken_locale("pt-BR"), "pt-br");
    }
}
