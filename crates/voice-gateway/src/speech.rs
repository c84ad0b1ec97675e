//! Translated speech (the closed beta's `target_media_*`): espeak-ng synthesises each concluded
//! segment's translation, and one long-lived ffmpeg per session and speech language encodes all of it
//! into ONE continuous stream in the session's `target_media_content_type`.
//!
//! The synthesised PCM of each segment is written to ffmpeg's standard input as it comes (speech only:
//! no silence between segments), and what ffmpeg writes to its standard output is read by a task and
//! handed out as packets. So concatenating the `data` of every `target_media_chunk` of a language gives
//! one valid file: for container formats the first chunk starts with the container's header, which is
//! split off as its own packet (`headers: 1`).

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// How long espeak-ng may take for one segment.
const SYNTHESIS_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the encoder may take to flush at the end of the stream.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the first chunk waits for the container's header to be complete.
const HEADER_PATIENCE: Duration = Duration::from_secs(5);

/// How long a later chunk waits for the encoder's first output after its segment was written.
const OUTPUT_PATIENCE: Duration = Duration::from_millis(300);

/// The espeak-ng voice for a language (a target code of the API, any case) and `target_media_voice`
/// (`male`, `female`, or none: espeak-ng's default for the language). The catalogue's table says which
/// voice speaks which language (sessions ask only for those); any other code is tried as a voice name.
pub fn espeak_voice(language: &str, voice: Option<&str>) -> String {
    let language = language.trim();
    let base = catalogue::find(language)
        .and_then(catalogue::speech_voice)
        .map_or_else(|| language.to_ascii_lowercase(), str::to_string);
    let variant = match voice.map(str::trim) {
        Some(voice) if voice.eq_ignore_ascii_case("male") => "+m3",
        Some(voice) if voice.eq_ignore_ascii_case("female") => "+f3",
        _ => "",
    };
    format!("{base}{variant}")
}

/// Where the leading header of a format's stream ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Header {
    /// No header: raw samples, or MPEG-TS (whose tables repeat in the stream).
    None,
    /// Matroska and WebM: everything before the first Cluster element.
    Matroska,
    /// Ogg: the leading pages whose granule position is 0 (the codec's header packets).
    Ogg,
    /// FLAC: `fLaC` and the metadata blocks, up to the one flagged last.
    Flac,
}

/// An output format of translated speech: ffmpeg's output options and how its header is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaFormat {
    /// The content type as the session named it.
    pub content_type: String,
    /// ffmpeg's options for the output (codec, rate, muxer).
    args: Vec<&'static str>,
    header: Header,
}

/// Opus at 32 kbit/s, at its native 48 kHz.
const OPUS: [&str; 6] = ["-c:a", "libopus", "-b:a", "32k", "-ar", "48000"];
const AAC: [&str; 4] = ["-c:a", "aac", "-b:a", "64k"];
const FLAC: [&str; 2] = ["-c:a", "flac"];
/// Matroska and WebM close a cluster (and so write it out) every 200 ms of audio.
const MATROSKA: [&str; 2] = ["-cluster_time_limit", "200"];
/// Ogg writes a page every 200 ms of audio.
const OGG: [&str; 2] = ["-page_duration", "200000"];

impl MediaFormat {
    /// The format of a `target_media_content_type` (parameters in any order, any case); `None` for a
    /// type the API does not list.
    pub fn parse(content_type: &str) -> Option<MediaFormat> {
        let lower = content_type.to_ascii_lowercase();
        let mut parts = lower.split(';').map(str::trim).filter(|part| !part.is_empty());
        let kind = parts.next()?;
        let mut parameters: Vec<&str> = parts.collect();
        parameters.sort_unstable();
        let parameters = parameters.join(";");
        let cat = |lists: &[&[&'static str]]| lists.concat();
        let (args, header) = match (kind, parameters.as_str()) {
            ("audio/webm", "" | "codecs=opus") => (cat(&[&OPUS, &MATROSKA, &["-f", "webm"]]), Header::Matroska),
            ("audio/ogg" | "audio/opus", "") | ("audio/ogg", "codecs=opus") => {
                (cat(&[&OPUS, &OGG, &["-f", "ogg"]]), Header::Ogg)
            }
            ("audio/ogg", "codecs=flac") => (cat(&[&FLAC, &OGG, &["-f", "ogg"]]), Header::Ogg),
            ("audio/flac", "") => (cat(&[&FLAC, &["-f", "flac"]]), Header::Flac),
            ("audio/pcm", "encoding=s16le;rate=16000") => (vec!["-ar", "16000", "-f", "s16le"], Header::None),
            ("audio/pcm", "encoding=s16le;rate=24000") => (vec!["-ar", "24000", "-f", "s16le"], Header::None),
            ("audio/pcm", "encoding=alaw;rate=8000") => (vec!["-ar", "8000", "-f", "alaw"], Header::None),
            ("audio/pcm", "encoding=ulaw;rate=8000") => (vec!["-ar", "8000", "-f", "mulaw"], Header::None),
            ("video/mp2t", "codecs=aac") => (cat(&[&AAC, &["-f", "mpegts"]]), Header::None),
            ("video/mp2t", "codecs=opus") => (cat(&[&OPUS, &["-f", "mpegts"]]), Header::None),
            ("audio/x-matroska", "codecs=aac") => (cat(&[&AAC, &MATROSKA, &["-f", "matroska"]]), Header::Matroska),
            ("audio/x-matroska", "codecs=flac") => (cat(&[&FLAC, &MATROSKA, &["-f", "matroska"]]), Header::Matroska),
            ("audio/x-matroska", "codecs=opus") => (cat(&[&OPUS, &MATROSKA, &["-f", "matroska"]]), Header::Matroska),
            _ => return None,
        };
        Some(MediaFormat { content_type: content_type.to_string(), args, header })
    }

    /// Whether the stream starts with a header (a container's init packets).
    pub fn has_header(&self) -> bool {
        self.header != Header::None
    }

    /// The length of the complete header at the start of `bytes`, once all of it (and the start of the
    /// media after it) has arrived; 0 for a format without one; `None` while it is incomplete.
    pub fn header_length(&self, bytes: &[u8]) -> Option<usize> {
        match self.header {
            Header::None => Some(0),
            Header::Matroska => bytes.windows(4).position(|window| window == [0x1f, 0x43, 0xb6, 0x75]),
            Header::Ogg => {
                let mut offset = 0;
                loop {
                    let page = bytes.get(offset..)?;
                    if page.len() < 27 || &page[..4] != b"OggS" {
                        return None;
                    }
                    let granule = u64::from_le_bytes(page[6..14].try_into().ok()?);
                    if granule != 0 && granule != u64::MAX {
                        return Some(offset);
                    }
                    let segments = usize::from(page[26]);
                    let table = page.get(27..27 + segments)?;
                    offset += 27 + segments + table.iter().map(|&size| usize::from(size)).sum::<usize>();
                }
            }
            Header::Flac => {
                if bytes.len() < 4 || &bytes[..4] != b"fLaC" {
                    return None;
                }
                let mut offset = 4;
                loop {
                    let block = bytes.get(offset..offset + 4)?;
                    let length = usize::from(block[1]) << 16 | usize::from(block[2]) << 8 | usize::from(block[3]);
                    offset += 4 + length;
                    if block[0] & 0x80 != 0 {
                        return (bytes.len() >= offset).then_some(offset);
                    }
                }
            }
        }
    }
}

/// Synthesised speech: mono s16le samples as bytes, at `rate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pcm {
    pub rate: u32,
    pub bytes: Vec<u8>,
}

impl Pcm {
    pub fn samples(&self) -> u64 {
        self.bytes.len() as u64 / 2
    }
}

/// Runs `program` (espeak-ng) for the text and reads its WAV.
pub async fn synthesize(program: &str, voice: &str, text: &str) -> Result<Pcm, String> {
    let mut command = Command::new(program);
    // `--` so that a text starting with '-' is not read as an option.
    command.args(["-v", voice, "--stdout", "--", text]);
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
    let child = command.spawn().map_err(|error| format!("cannot start {program}: {error}"))?;
    let output = tokio::time::timeout(SYNTHESIS_TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| format!("{program} took longer than {} s", SYNTHESIS_TIMEOUT.as_secs()))?
        .map_err(|error| format!("waiting for {program}: {error}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let line = stderr.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or_default().trim().to_string();
        return Err(format!("{program} exited with {}: {line}", output.status));
    }
    parse_wav(&output.stdout)
}

/// The samples of a 16-bit mono PCM WAV. espeak-ng writes to a pipe with placeholder sizes
/// (0x7fffffff), so the `data` chunk is taken to the end of the bytes.
pub fn parse_wav(bytes: &[u8]) -> Result<Pcm, String> {
    if bytes.len() < 12 || &bytes[..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err("the synthesiser did not write a WAV file".to_string());
    }
    let mut offset = 12;
    let mut rate = None;
    while let Some(header) = bytes.get(offset..offset + 8) {
        let size = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
        let body = offset + 8;
        match &header[..4] {
            b"fmt " => {
                let format = bytes.get(body..body + 16).ok_or("a truncated WAV format")?;
                let (tag, channels) =
                    (u16::from_le_bytes([format[0], format[1]]), u16::from_le_bytes([format[2], format[3]]));
                let bits = u16::from_le_bytes([format[14], format[15]]);
                if tag != 1 || channels != 1 || bits != 16 {
                    return Err(format!("the synthesiser wrote WAV format {tag}, {channels} channels, {bits} bits"));
                }
                rate = Some(u32::from_le_bytes([format[4], format[5], format[6], format[7]]));
            }
            b"data" => {
                let rate = rate.ok_or("a WAV data chunk before its format")?;
                let end = body.saturating_add(size).min(bytes.len());
                let mut data = bytes[body..end].to_vec();
                data.truncate(data.len() / 2 * 2);
                return Ok(Pcm { rate, bytes: data });
            }
            _ => {}
        }
        offset = body.saturating_add(size + size % 2);
    }
    Err("the synthesiser's WAV has no data".to_string())
}

/// One ffmpeg encoding a language's speech into one continuous stream.
pub struct Encoder {
    child: Child,
    stdin: Option<ChildStdin>,
    output: mpsc::UnboundedReceiver<Vec<u8>>,
    stderr: Option<tokio::task::JoinHandle<String>>,
    /// The input's sample rate.
    pub rate: u32,
}

impl Encoder {
    /// Starts `program` (ffmpeg) reading mono s16le at `rate` and writing `format`.
    pub fn start(program: &str, rate: u32, format: &MediaFormat) -> Result<Encoder, String> {
        let mut command = Command::new(program);
        command.args(["-hide_banner", "-nostdin", "-loglevel", "error"]);
        // No probing: the input's format is given, and a probe would hold back the first seconds (all
        // of a short session's speech) until the end of the stream.
        command.args(["-probesize", "32", "-analyzeduration", "0", "-fflags", "+nobuffer"]);
        command.args(["-f", "s16le", "-ar", &rate.to_string(), "-ac", "1", "-i", "pipe:0"]);
        command.args(["-ac", "1", "-flush_packets", "1"]);
        command.args(&format.args);
        command.arg("pipe:1");
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
        let mut child = command.spawn().map_err(|error| format!("cannot start {program}: {error}"))?;
        let (Some(stdin), Some(mut stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err("ffmpeg's pipes are missing".to_string());
        };
        let (sender, output) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut buffer = vec![0u8; 16_384];
            while let Ok(read) = stdout.read(&mut buffer).await {
                if read == 0 || sender.send(buffer[..read].to_vec()).is_err() {
                    return;
                }
            }
        });
        let stderr = tokio::spawn(crate::ffmpeg::stderr_tail(stderr));
        Ok(Encoder { child, stdin: Some(stdin), output, stderr: Some(stderr), rate })
    }

    /// Writes a segment's samples.
    pub async fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let Some(stdin) = &mut self.stdin else { return Err("the encoder's input is closed".to_string()) };
        if stdin.write_all(bytes).await.is_err() {
            return Err(self.failure().await);
        }
        Ok(())
    }

    /// What ffmpeg wrote so far, waiting up to `patience` for `ready` to hold (or the output to end).
    pub async fn take(&mut self, pending: &mut Vec<u8>, patience: Duration, ready: impl Fn(&[u8]) -> bool) {
        while let Ok(bytes) = self.output.try_recv() {
            pending.extend_from_slice(&bytes);
        }
        let deadline = tokio::time::Instant::now() + patience;
        while !ready(pending) {
            match tokio::time::timeout_at(deadline, self.output.recv()).await {
                Ok(Some(bytes)) => pending.extend_from_slice(&bytes),
                Ok(None) | Err(_) => break,
            }
        }
        while let Ok(bytes) = self.output.try_recv() {
            pending.extend_from_slice(&bytes);
        }
    }

    /// Ends the input and reads the rest of the stream until ffmpeg exits; an error if it failed.
    pub async fn finish(&mut self, pending: &mut Vec<u8>) -> Result<(), String> {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.shutdown().await;
        }
        let rest = tokio::time::timeout(FLUSH_TIMEOUT, async {
            while let Some(bytes) = self.output.recv().await {
                pending.extend_from_slice(&bytes);
            }
        })
        .await;
        if rest.is_err() {
            return Err("the encoder did not finish in time".to_string());
        }
        match self.child.wait().await {
            Ok(status) if status.success() => Ok(()),
            _ => Err(self.failure().await),
        }
    }

    /// Why ffmpeg failed: its last error line, or its exit status.
    async fn failure(&mut self) -> String {
        self.stdin = None;
        let status = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
        let stderr = match self.stderr.take() {
            Some(task) => tokio::time::timeout(Duration::from_secs(1), task).await.ok().and_then(Result::ok),
            None => None,
        }
        .unwrap_or_default();
        match stderr.lines().rev().find(|line| !line.trim().is_empty()) {
            Some(line) => line.trim().to_string(),
            None => match status {
                Ok(Ok(status)) => format!("ffmpeg exited with {status}"),
                _ => "ffmpeg stopped".to_string(),
            },
        }
    }
}

/// How long to wait for a chunk's output: the header on the first chunk, any output on later ones.
pub fn patience(first: bool, format: &MediaFormat) -> Duration {
    if first && format.has_header() { HEADER_PATIENCE } else { OUTPUT_PATIENCE }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn voices_follow_the_language_and_the_requested_voice() {
        assert_eq!(espeak_voice("de", None), "de");
        assert_eq!(espeak_voice("DE", Some("male")), "de+m3");
        assert_eq!(espeak_voice("fr", Some("female")), "fr+f3");
        assert_eq!(espeak_voice("pt-BR", None), "pt-br");
        assert_eq!(espeak_voice("pt-PT", Some("female")), "pt+f3");
        assert_eq!(espeak_voice("en-GB", None), "en-gb");
        assert_eq!(espeak_voice("en-US", None), "en-us");
        assert_eq!(espeak_voice("en", None), "en-us");
        assert_eq!(espeak_voice("zh", None), "cmn-latn-pinyin");
        assert_eq!(espeak_voice("zh-HANS", Some("male")), "cmn-latn-pinyin+m3");
        assert_eq!(espeak_voice("nb", None), "nb");
        assert_eq!(espeak_voice("xx", Some("unknown")), "xx");
    }

    #[test]
    fn every_listed_format_parses_and_others_do_not() {
        let listed = [
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
        for content_type in listed {
            assert!(MediaFormat::parse(content_type).is_some(), "{content_type}");
        }
        assert!(MediaFormat::parse("audio/pcm; rate=24000; encoding=s16le").is_some());
        for other in ["audio/mpeg", "audio/pcm;encoding=s16le;rate=8000", "audio/webm;codecs=vorbis", ""] {
            assert!(MediaFormat::parse(other).is_none(), "{other}");
        }
        assert!(!MediaFormat::parse("audio/pcm;encoding=s16le;rate=24000").unwrap().has_header());
        assert!(MediaFormat::parse("audio/webm").unwrap().has_header());
    }

    #[test]
    fn headers_are_found_in_each_container() {
        let webm = MediaFormat::parse("audio/webm").unwrap();
        assert_eq!(webm.header_length(&[0x1a, 0x45, 0xdf, 0xa3, 1, 2]), None);
        assert_eq!(webm.header_length(&[0x1a, 0x45, 0xdf, 0xa3, 0x1f, 0x43, 0xb6, 0x75, 9]), Some(4));
        let flac = MediaFormat::parse("audio/flac").unwrap();
        let mut stream = b"fLaC".to_vec();
        stream.extend([0x00, 0, 0, 2, 7, 7, 0x84, 0, 0, 1]);
        assert_eq!(flac.header_length(&stream), None);
        stream.push(9);
        assert_eq!(flac.header_length(&stream), Some(15));
        let ogg = MediaFormat::parse("audio/ogg").unwrap();
        let page = |granule: u64, body: &[u8]| {
            let mut page = b"OggS\0\0".to_vec();
            page.extend(granule.to_le_bytes());
            page.extend([0; 12]);
            page.push(1);
            page.push(body.len() as u8);
            page.extend(body);
            page
        };
        let mut stream = page(0, b"OpusHead");
        stream.extend(page(0, b"OpusTags"));
        assert_eq!(ogg.header_length(&stream), None);
        stream.extend(page(960, b"audio"));
        assert_eq!(ogg.header_length(&stream), Some(2 * (28 + 8)));
        assert_eq!(MediaFormat::parse("audio/pcm;encoding=ulaw;rate=8000").unwrap().header_length(&[]), Some(0));
    }

    #[test]
    fn wav_files_give_their_samples() {
        let mut wav = b"RIFF\xff\xff\xff\x7fWAVEfmt ".to_vec();
        wav.extend(16u32.to_le_bytes());
        wav.extend([1, 0, 1, 0]);
        wav.extend(22_050u32.to_le_bytes());
        wav.extend(44_100u32.to_le_bytes());
        wav.extend([2, 0, 16, 0]);
        wav.extend(b"data\xff\xff\xff\x7f");
        wav.extend([1, 0, 2, 0, 3]);
        assert_eq!(parse_wav(&wav), Ok(Pcm { rate: 22_050, bytes: vec![1, 0, 2, 0] }));
        assert!(parse_wav(b"not a wav").is_err());
    }

    #[tokio::test]
    async fn espeak_speaks_and_a_missing_program_fails() {
        assert!(synthesize("/nonexistent/espeak-ng", "de", "Hallo").await.is_err());
        if std::process::Command::new("espeak-ng").arg("--version").output().is_err() {
            eprintln!("skipped: espeak-ng is not installed");
            return;
        }
        let pcm = synthesize("espeak-ng", &espeak_voice("de", Some("female")), "Guten Tag").await.expect("speech");
        assert!(pcm.rate >= 8_000 && pcm.samples() > u64::from(pcm.rate) / 4, "{} samples", pcm.samples());
    }
}
