//! The WebSocket message protocol (the Service API's voice protocol), in its two formats.
//!
//! Every message is an object with exactly one top-level key. With `json`, messages travel in TEXT
//! frames and binary data as base64 strings; with `msgpack`, in BINARY frames as maps with string keys
//! and raw bytes. Server messages are built once as a `serde_json::Value` tree and written in either
//! format from it, so both formats always carry the same fields.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Serialize;
use serde_json::{Value, json};

/// How the session's messages are encoded (the session parameter `message_format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageFormat {
    /// TEXT frames, binary data as base64.
    Json,
    /// BINARY frames, maps with string keys, raw bytes.
    Msgpack,
}

impl MessageFormat {
    /// The format a session parameter names; anything but `msgpack` is JSON, the API's default.
    pub fn parse(name: &str) -> MessageFormat {
        if name.eq_ignore_ascii_case("msgpack") { MessageFormat::Msgpack } else { MessageFormat::Json }
    }
}

/// A frame as the client sent it: its payload and whether it was a TEXT frame.
#[derive(Debug)]
pub enum Frame {
    Text(String),
    Binary(Vec<u8>),
}

/// A message from the client.
#[derive(Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// A chunk of audio in the session's source media format.
    SourceMediaChunk(Vec<u8>),
    /// No more audio: flush and end the stream.
    EndOfSourceMedia,
}

impl ClientMessage {
    /// The message's name, as an error's `request_type`.
    pub fn name(&self) -> &'static str {
        match self {
            ClientMessage::SourceMediaChunk(_) => "source_media_chunk",
            ClientMessage::EndOfSourceMedia => "end_of_source_media",
        }
    }
}

/// Reads one client frame in the session's format.
pub fn decode(format: MessageFormat, frame: Frame) -> Result<ClientMessage, ProtocolError> {
    match (format, frame) {
        (MessageFormat::Json, Frame::Text(text)) => decode_json(&text),
        (MessageFormat::Msgpack, Frame::Binary(bytes)) => decode_msgpack(&bytes),
        (MessageFormat::Json, Frame::Binary(_)) => {
            Err(ProtocolError::new(Reason::WrongFrameType, "The session's message format is json: send TEXT frames"))
        }
        (MessageFormat::Msgpack, Frame::Text(_)) => Err(ProtocolError::new(
            Reason::WrongFrameType,
            "The session's message format is msgpack: send BINARY frames",
        )),
    }
}

fn invalid(message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(Reason::InvalidMessage, message)
}

fn decode_json(text: &str) -> Result<ClientMessage, ProtocolError> {
    let value: Value = serde_json::from_str(text).map_err(|_| invalid("The message is not valid JSON"))?;
    let Value::Object(map) = value else {
        return Err(invalid("A message must be an object with one key"));
    };
    let mut entries = map.into_iter();
    let (Some((name, body)), None) = (entries.next(), entries.next()) else {
        return Err(invalid("A message must be an object with exactly one key"));
    };
    let Value::Object(body) = body else {
        return Err(invalid(format!("The body of '{name}' must be an object")));
    };
    match name.as_str() {
        "source_media_chunk" => {
            let Some(Value::String(data)) = body.get("data") else {
                return Err(invalid("Field 'source_media_chunk.data' must be a base64 string").with_request(&name));
            };
            let bytes = BASE64
                .decode(data.as_bytes())
                .map_err(|_| invalid("Field 'source_media_chunk.data' is not valid base64").with_request(&name))?;
            Ok(ClientMessage::SourceMediaChunk(bytes))
        }
        "end_of_source_media" => Ok(ClientMessage::EndOfSourceMedia),
        other => Err(invalid(format!("Unknown message '{other}'"))),
    }
}

fn decode_msgpack(bytes: &[u8]) -> Result<ClientMessage, ProtocolError> {
    let mut reader = bytes;
    let value = rmpv::decode::read_value(&mut reader).map_err(|_| invalid("The message is not valid MessagePack"))?;
    if !reader.is_empty() {
        return Err(invalid("The frame holds more than one MessagePack value"));
    }
    let rmpv::Value::Map(entries) = value else {
        return Err(invalid("A message must be a map with one string key"));
    };
    let mut entries = entries.into_iter();
    let (Some((rmpv::Value::String(name), body)), None) = (entries.next(), entries.next()) else {
        return Err(invalid("A message must be a map with exactly one string key"));
    };
    let name = name.into_str().ok_or_else(|| invalid("A message's key must be UTF-8"))?;
    let rmpv::Value::Map(body) = body else {
        return Err(invalid(format!("The body of '{name}' must be a map")));
    };
    match name.as_str() {
        "source_media_chunk" => {
            let data = body.into_iter().find_map(|(key, value)| (key.as_str() == Some("data")).then_some(value));
            let Some(rmpv::Value::Binary(data)) = data else {
                return Err(invalid("Field 'source_media_chunk.data' must be binary").with_request(&name));
            };
            Ok(ClientMessage::SourceMediaChunk(data))
        }
        "end_of_source_media" => Ok(ClientMessage::EndOfSourceMedia),
        other => Err(invalid(format!("Unknown message '{other}'"))),
    }
}

/// A source transcript segment: times in milliseconds of the client's input stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceSegment {
    pub language: String,
    pub text: String,
    pub start_time: u64,
    pub end_time: u64,
}

/// A target transcript segment: the translation of the source segment with the same times.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TargetSegment {
    pub text: String,
    pub start_time: u64,
    pub end_time: u64,
}

/// A message to the client.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerMessage {
    SourceTranscriptUpdate {
        concluded: Vec<SourceSegment>,
        tentative: Vec<SourceSegment>,
    },
    TargetTranscriptUpdate {
        language: String,
        concluded: Vec<TargetSegment>,
        tentative: Vec<TargetSegment>,
    },
    EndOfSourceTranscript,
    EndOfTargetTranscript {
        language: String,
    },
    /// Translated speech: packets of one continuous stream per language (concatenated, the `data` of a
    /// language's chunks are one file in its content type).
    TargetMediaChunk(MediaChunk),
    EndOfTargetMedia {
        language: String,
    },
    EndOfStream,
    Error(ProtocolError),
}

/// The body of a `target_media_chunk`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaChunk {
    pub language: String,
    /// Packets of the encoded stream: base64 strings in json, raw bytes in msgpack.
    pub data: Vec<Vec<u8>>,
    /// Milliseconds of speech this chunk stands for.
    pub duration: u64,
    /// The stream's content type: on the language's first chunk only.
    pub content_type: Option<String>,
    /// How many leading packets of `data` are the stream's header: on the first chunk only.
    pub headers: Option<u64>,
    /// The translated text this chunk starts speaking; null for the encoder's final flush.
    pub text: Option<String>,
}

impl MediaChunk {
    /// The body with `data` as base64 strings (json); `content_type` and `headers` only when set,
    /// `text` always (null when none).
    fn to_value(&self) -> Value {
        let data: Vec<String> = self.data.iter().map(|packet| BASE64.encode(packet)).collect();
        let mut body = json!({"language": self.language, "data": data, "duration": self.duration});
        if let Some(content_type) = &self.content_type {
            body["content_type"] = json!(content_type);
        }
        if let Some(headers) = self.headers {
            body["headers"] = json!(headers);
        }
        body["text"] = json!(self.text);
        json!({"target_media_chunk": body})
    }

    /// The same message for msgpack: `data` as an array of binary.
    fn to_msgpack(&self) -> rmpv::Value {
        let mut message = to_msgpack(&self.to_value());
        if let rmpv::Value::Map(entries) = &mut message
            && let Some((_, rmpv::Value::Map(body))) = entries.first_mut()
        {
            for (key, value) in body.iter_mut() {
                if key.as_str() == Some("data") {
                    *value = rmpv::Value::Array(self.data.iter().cloned().map(rmpv::Value::Binary).collect());
                }
            }
        }
        message
    }
}

impl ServerMessage {
    /// The message as a value tree: one key, the message's name.
    pub fn to_value(&self) -> Value {
        match self {
            ServerMessage::SourceTranscriptUpdate { concluded, tentative } => {
                json!({"source_transcript_update": {"concluded": concluded, "tentative": tentative}})
            }
            ServerMessage::TargetTranscriptUpdate { language, concluded, tentative } => json!({
                "target_transcript_update": {"language": language, "concluded": concluded, "tentative": tentative}
            }),
            ServerMessage::EndOfSourceTranscript => json!({"end_of_source_transcript": {}}),
            ServerMessage::EndOfTargetTranscript { language } => {
                json!({"end_of_target_transcript": {"language": language}})
            }
            ServerMessage::TargetMediaChunk(chunk) => chunk.to_value(),
            ServerMessage::EndOfTargetMedia { language } => json!({"end_of_target_media": {"language": language}}),
            ServerMessage::EndOfStream => json!({"end_of_stream": {}}),
            ServerMessage::Error(error) => json!({"error": {
                "request_type": error.request_type,
                "error_code": error.reason.error_code(),
                "reason_code": error.reason.code(),
                "error_message": error.message,
            }}),
        }
    }

    /// The message as a frame in the session's format.
    pub fn encode(&self, format: MessageFormat) -> Frame {
        let value = self.to_value();
        match format {
            MessageFormat::Json => Frame::Text(value.to_string()),
            MessageFormat::Msgpack => {
                let mut bytes = Vec::new();
                // Writing into a Vec cannot fail.
                let tree = match self {
                    ServerMessage::TargetMediaChunk(chunk) => chunk.to_msgpack(),
                    _ => to_msgpack(&value),
                };
                let _ = rmpv::encode::write_value(&mut bytes, &tree);
                Frame::Binary(bytes)
            }
        }
    }
}

/// A JSON value tree as a MessagePack one (maps keep their string keys).
pub fn to_msgpack(value: &Value) -> rmpv::Value {
    match value {
        Value::Null => rmpv::Value::Nil,
        Value::Bool(flag) => rmpv::Value::Boolean(*flag),
        Value::Number(number) => {
            if let Some(unsigned) = number.as_u64() {
                rmpv::Value::from(unsigned)
            } else if let Some(signed) = number.as_i64() {
                rmpv::Value::from(signed)
            } else {
                rmpv::Value::from(number.as_f64().unwrap_or_default())
            }
        }
        Value::String(text) => rmpv::Value::from(text.as_str()),
        Value::Array(items) => rmpv::Value::Array(items.iter().map(to_msgpack).collect()),
        Value::Object(map) => rmpv::Value::Map(
            map.iter().map(|(key, value)| (rmpv::Value::from(key.as_str()), to_msgpack(value))).collect(),
        ),
    }
}

/// Why a session ended with an `error` message: each has an HTTP-style `error_code` and a `reason_code`
/// (the error code followed by four digits), listed in the crate's README.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A frame that is not a valid message (malformed JSON or MessagePack, unknown message, bad field).
    InvalidMessage,
    /// A TEXT frame in a msgpack session or a BINARY frame in a json session.
    WrongFrameType,
    /// A chunk over 100 KB or over one second of audio.
    ChunkTooLarge,
    /// Audio that is not in a supported format, or that cannot be decoded as the session's format.
    AudioFormatNotSupported,
    /// A PCM chunk that is not a whole number of frames.
    PartialPcmFrame,
    /// A message after `end_of_source_media`.
    MessageAfterEnd,
    /// The token is unknown or has expired.
    TokenInvalid,
    /// The token was used before; the session is terminated.
    TokenReused,
    /// A newer token exists for the session; the session is terminated.
    TokenOutdated,
    /// The session has already ended.
    SessionEnded,
    /// No audio for longer than the idle limit.
    IdleTimeout,
    /// Audio faster than twice real time.
    TooFast,
    /// The key's or subscription's speech limit is reached.
    SpeechLimitReached,
    /// The application or the inference service failed.
    Internal,
    /// Speech synthesis or its encoding failed (espeak-ng or ffmpeg missing or failing).
    SpeechSynthesisFailed,
    /// No speech recognition model is installed, or it stayed busy.
    RecognitionUnavailable,
}

impl Reason {
    /// The HTTP-style error code.
    pub fn error_code(self) -> u16 {
        match self {
            Reason::InvalidMessage
            | Reason::WrongFrameType
            | Reason::ChunkTooLarge
            | Reason::AudioFormatNotSupported
            | Reason::PartialPcmFrame
            | Reason::MessageAfterEnd => 400,
            Reason::TokenInvalid => 401,
            Reason::TokenReused | Reason::TokenOutdated | Reason::SessionEnded => 403,
            Reason::IdleTimeout => 408,
            Reason::TooFast => 429,
            Reason::SpeechLimitReached => 456,
            Reason::Internal | Reason::SpeechSynthesisFailed => 500,
            Reason::RecognitionUnavailable => 503,
        }
    }

    /// The reason code: the error code followed by four digits.
    pub fn code(self) -> u32 {
        let detail = match self {
            Reason::InvalidMessage => 400,
            Reason::WrongFrameType => 401,
            Reason::ChunkTooLarge => 402,
            Reason::AudioFormatNotSupported => 403,
            Reason::PartialPcmFrame => 404,
            Reason::MessageAfterEnd => 405,
            Reason::TokenInvalid => 401,
            Reason::TokenReused => 401,
            Reason::TokenOutdated => 402,
            Reason::SessionEnded => 403,
            Reason::IdleTimeout => 401,
            Reason::TooFast => 401,
            Reason::SpeechLimitReached => 401,
            Reason::Internal => 401,
            Reason::SpeechSynthesisFailed => 402,
            Reason::RecognitionUnavailable => 401,
        };
        u32::from(self.error_code()) * 10_000 + detail
    }
}

/// The body of an `error` message: the session is over after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError {
    /// The client message that caused it, or `session` for what no message caused.
    pub request_type: String,
    pub reason: Reason,
    pub message: String,
}

impl ProtocolError {
    /// An error no particular client message caused.
    pub fn new(reason: Reason, message: impl Into<String>) -> ProtocolError {
        ProtocolError { request_type: "session".to_string(), reason, message: message.into() }
    }

    /// The same error, blamed on a client message.
    pub fn with_request(mut self, request_type: &str) -> ProtocolError {
        self.request_type = request_type.to_string();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgpack(value: &Value) -> Vec<u8> {
        let mut bytes = Vec::new();
        rmpv::encode::write_value(&mut bytes, &to_msgpack(value)).expect("encoded");
        bytes
    }

    #[test]
    fn json_messages_are_read_with_base64_data() {
        let chunk = decode(MessageFormat::Json, Frame::Text(r#"{"source_media_chunk":{"data":"AAEC"}}"#.into()));
        assert_eq!(chunk, Ok(ClientMessage::SourceMediaChunk(vec![0, 1, 2])));
        let end = decode(MessageFormat::Json, Frame::Text(r#"{"end_of_source_media":{}}"#.into()));
        assert_eq!(end, Ok(ClientMessage::EndOfSourceMedia));
    }

    #[test]
    fn msgpack_messages_are_read_with_raw_bytes() {
        let mut bytes = Vec::new();
        let message = rmpv::Value::Map(vec![(
            "source_media_chunk".into(),
            rmpv::Value::Map(vec![("data".into(), rmpv::Value::Binary(vec![9, 8]))]),
        )]);
        rmpv::encode::write_value(&mut bytes, &message).expect("encoded");
        assert_eq!(
            decode(MessageFormat::Msgpack, Frame::Binary(bytes)),
            Ok(ClientMessage::SourceMediaChunk(vec![9, 8]))
        );
        let end = msgpack(&json!({"end_of_source_media": {}}));
        assert_eq!(decode(MessageFormat::Msgpack, Frame::Binary(end)), Ok(ClientMessage::EndOfSourceMedia));
    }

    #[test]
    fn bad_messages_are_refused_with_a_reason() {
        let cases: Vec<(MessageFormat, Frame, Reason)> = vec![
            (MessageFormat::Json, Frame::Binary(vec![1]), Reason::WrongFrameType),
            (MessageFormat::Msgpack, Frame::Text("{}".into()), Reason::WrongFrameType),
            (MessageFormat::Json, Frame::Text("{".into()), Reason::InvalidMessage),
            (MessageFormat::Json, Frame::Text("[]".into()), Reason::InvalidMessage),
            (MessageFormat::Json, Frame::Text(r#"{"a":{},"b":{}}"#.into()), Reason::InvalidMessage),
            (MessageFormat::Json, Frame::Text(r#"{"hello":{}}"#.into()), Reason::InvalidMessage),
            (
                MessageFormat::Json,
                Frame::Text(r#"{"source_media_chunk":{"data":"***"}}"#.into()),
                Reason::InvalidMessage,
            ),
            (MessageFormat::Json, Frame::Text(r#"{"source_media_chunk":{}}"#.into()), Reason::InvalidMessage),
            (MessageFormat::Msgpack, Frame::Binary(vec![0xc1]), Reason::InvalidMessage),
            (
                MessageFormat::Msgpack,
                Frame::Binary(msgpack(&json!({"source_media_chunk": {"data": "AAEC"}}))),
                Reason::InvalidMessage,
            ),
            (MessageFormat::Msgpack, Frame::Binary(msgpack(&json!(["end_of_source_media"]))), Reason::InvalidMessage),
        ];
        for (format, frame, reason) in cases {
            let described = format!("{format:?} {frame:?}");
            assert_eq!(decode(format, frame).map_err(|error| error.reason), Err(reason), "{described}");
        }
    }

    #[test]
    fn server_messages_have_one_key_in_both_formats() {
        let message = ServerMessage::SourceTranscriptUpdate {
            concluded: vec![SourceSegment { language: "en".into(), text: "Hi".into(), start_time: 0, end_time: 900 }],
            tentative: vec![],
        };
        let Frame::Text(text) = message.encode(MessageFormat::Json) else { panic!("a text frame") };
        let parsed: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(parsed["source_transcript_update"]["concluded"][0]["end_time"], 900);
        let Frame::Binary(bytes) = message.encode(MessageFormat::Msgpack) else { panic!("a binary frame") };
        let value = rmpv::decode::read_value(&mut bytes.as_slice()).expect("msgpack");
        assert_eq!(value, to_msgpack(&parsed));
    }

    #[test]
    fn errors_carry_the_codes() {
        let error = ProtocolError::new(Reason::AudioFormatNotSupported, "Audio format not supported")
            .with_request("source_media_chunk");
        assert_eq!(
            ServerMessage::Error(error).to_value(),
            json!({"error": {"request_type": "source_media_chunk", "error_code": 400, "reason_code": 4000403,
                             "error_message": "Audio format not supported"}})
        );
        assert_eq!(Reason::SpeechLimitReached.code(), 4560401);
        assert_eq!(Reason::TooFast.code(), 4290401);
    }

    fn media_chunk(first: bool) -> ServerMessage {
        ServerMessage::TargetMediaChunk(MediaChunk {
            language: "de".into(),
            data: vec![vec![0x1a, 0x45], vec![0, 1, 2]],
            duration: 1_250,
            content_type: first.then(|| "audio/webm;codecs=opus".to_string()),
            headers: first.then_some(1),
            text: first.then(|| "Guten Tag".to_string()),
        })
    }

    #[test]
    fn media_chunks_are_base64_strings_in_json() {
        let Frame::Text(text) = media_chunk(true).encode(MessageFormat::Json) else { panic!("a text frame") };
        let parsed: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(
            parsed,
            json!({"target_media_chunk": {"language": "de", "data": ["GkU=", "AAEC"], "duration": 1250,
                   "content_type": "audio/webm;codecs=opus", "headers": 1, "text": "Guten Tag"}})
        );
        let Frame::Text(text) = media_chunk(false).encode(MessageFormat::Json) else { panic!("a text frame") };
        let parsed: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(
            parsed,
            json!({"target_media_chunk": {"language": "de", "data": ["GkU=", "AAEC"], "duration": 1250, "text": null}})
        );
        let end = ServerMessage::EndOfTargetMedia { language: "de".into() };
        let Frame::Text(text) = end.encode(MessageFormat::Json) else { panic!("a text frame") };
        assert_eq!(
            serde_json::from_str::<Value>(&text).expect("JSON"),
            json!({"end_of_target_media": {"language": "de"}})
        );
    }

    #[test]
    fn media_chunks_are_raw_bytes_in_msgpack() {
        let Frame::Binary(bytes) = media_chunk(true).encode(MessageFormat::Msgpack) else { panic!("a binary frame") };
        let value = rmpv::decode::read_value(&mut bytes.as_slice()).expect("msgpack");
        let expected = rmpv::Value::Map(vec![(
            "target_media_chunk".into(),
            rmpv::Value::Map(vec![
                ("content_type".into(), "audio/webm;codecs=opus".into()),
                (
                    "data".into(),
                    rmpv::Value::Array(vec![rmpv::Value::Binary(vec![0x1a, 0x45]), rmpv::Value::Binary(vec![0, 1, 2])]),
                ),
                ("duration".into(), 1_250u64.into()),
                ("headers".into(), 1u64.into()),
                ("language".into(), "de".into()),
                ("text".into(), "Guten Tag".into()),
            ]),
        )]);
        assert_eq!(value, expected);
        let Frame::Binary(bytes) = media_chunk(false).encode(MessageFormat::Msgpack) else { panic!("a binary frame") };
        let value = rmpv::decode::read_value(&mut bytes.as_slice()).expect("msgpack");
        let body = &value.as_map().expect("a map")[0].1;
        let keys: Vec<&str> = body.as_map().expect("a map").iter().filter_map(|(key, _)| key.as_str()).collect();
        assert_eq!(keys, ["data", "duration", "language", "text"]);
        let end = ServerMessage::EndOfTargetMedia { language: "de".into() };
        let Frame::Binary(bytes) = end.encode(MessageFormat::Msgpack) else { panic!("a binary frame") };
        let value = rmpv::decode::read_value(&mut bytes.as_slice()).expect("msgpack");
        assert_eq!(value, to_msgpack(&json!({"end_of_target_media": {"language": "de"}})));
        assert_eq!(Reason::SpeechSynthesisFailed.code(), 5000402);
    }
}
