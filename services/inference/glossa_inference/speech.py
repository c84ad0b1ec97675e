"""The speech family: offline speech recognition with whisper models in CTranslate2 format, and
speech synthesis with Piper voices (:mod:`.voices`, served at ``/v1/speech/voices`` and
``/v1/speech/synthesize`` when the family is given them).

A request carries raw audio (PCM, signed 16-bit little endian, mono, 16 kHz, in base64) and gets
back the recognised text in timed segments. The model runs through ``faster-whisper`` on the CPU in
int8, with its bundled Silero voice activity filter (an ONNX model run by ``onnxruntime``) cutting
out the silences first unless the request turns it off.

* Each installation (``installed.json`` with ``"family": "speech"``) names its CTranslate2 model
  directory, which must hold ``tokenizer.json`` (without it ``faster-whisper`` would fetch one from a
  model hub), and the languages the model recognises. Two installations of one name: the higher
  version that loads wins. Models are loaded once and kept.
* A request without ``model`` goes to the default model: the one ``--speech-model`` names, else a
  multilingual one, else any (the first by name).
* Model calls run on the family's own batching worker, one request at a time (a whisper call is
  already a batch of 30-second windows); the queue holds at most ``queue_limit`` requests, beyond
  that the request gets 503.
"""

from __future__ import annotations

import base64
import binascii
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy

from .batching import Batcher
from .family import ApiError, Route, body_object, optional_integer, refuse_unknown_fields, valid_text
from .models import Installation, InstallationError, load_model, version_key
from .voices import Voices

SAMPLE_RATE = 16_000
BYTES_PER_SAMPLE = 2
MAX_SECONDS = 60
MAX_AUDIO_BYTES = MAX_SECONDS * SAMPLE_RATE * BYTES_PER_SAMPLE
MAX_PROMPT_CHARACTERS = 1000
MAX_BEAM_SIZE = 8
FIELDS = ("audio", "language", "prompt", "model", "vad", "beam_size", "fallback")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Segment:
    """A stretch of recognised speech; times in milliseconds from the start of the audio given."""

    text: str
    start_ms: int
    end_ms: int
    no_speech_probability: float


@dataclass(frozen=True)
class Transcript:
    language: str
    language_probability: float
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Request:
    """One transcription: samples in [-1, 1) at 16 kHz and the decoding settings."""

    samples: numpy.ndarray
    language: str | None
    prompt: str | None
    vad: bool
    beam_size: int
    # Whether a decoding the model doubts (repetitive, or improbable) is tried again at higher
    # temperatures, up to five more times.
    fallback: bool = True


class SpeechModel(Protocol):
    """What the family needs from a loaded model."""

    def transcribe(self, request: Request) -> Transcript:
        """The segments of the request's audio, in order."""
        ...


@dataclass(frozen=True)
class SpeechSpec:
    """What ``installed.json`` says about a speech model."""

    installation: Installation
    model: Path
    languages: tuple[str, ...]
    multilingual: bool

    @classmethod
    def read(cls, installation: Installation) -> SpeechSpec:
        """Reads the family's fields; raises :class:`InstallationError` naming a bad one."""
        where = installation.directory / "installed.json"
        model = installation.file("model")
        for required in ("model.bin", "config.json", "tokenizer.json"):
            if not (model / required).is_file():
                raise InstallationError(f"{where}: the model directory {model} has no {required}")
        languages = installation.manifest.get("languages")
        if (
            not isinstance(languages, list)
            or not languages
            or not all(isinstance(code, str) and code for code in languages)
        ):
            raise InstallationError(f"{where}: 'languages' must be a non-empty list of language codes")
        multilingual = installation.manifest.get("multilingual", len(languages) > 1)
        if not isinstance(multilingual, bool):
            raise InstallationError(f"{where}: 'multilingual' must be true or false")
        return cls(installation, model, tuple(languages), multilingual)

    @property
    def name(self) -> str:
        return self.installation.name

    @property
    def key(self) -> tuple[Path, int]:
        """Identifies this installation on disk; a replaced ``installed.json`` changes it."""
        return self.installation.directory, self.installation.stamp

    def describe(self) -> str:
        return f"{self.name} {self.installation.version} ({len(self.languages)} languages)"


class WhisperModel:
    """A ``faster-whisper`` model on the CPU in int8, loaded from its local directory only."""

    def __init__(self, spec: SpeechSpec, threads: int) -> None:
        # Imported here so that the translation family and the tests without models do not pay
        # for onnxruntime and av at start.
        import faster_whisper

        self._model = faster_whisper.WhisperModel(
            str(spec.model),
            device="cpu",
            compute_type="int8",
            cpu_threads=threads,
            num_workers=1,
            local_files_only=True,
        )

    def transcribe(self, request: Request) -> Transcript:
        segments, info = self._model.transcribe(
            request.samples,
            language=request.language,
            initial_prompt=request.prompt,
            vad_filter=request.vad,
            beam_size=request.beam_size,
            # faster-whisper's own schedule of temperatures, or greedy-or-beam decoding once.
            temperature=[0.0, 0.2, 0.4, 0.6, 0.8, 1.0] if request.fallback else 0.0,
        )
        # The segments are decoded as this generator is consumed: here, on the worker.
        found = tuple(
            Segment(
                segment.text,
                round(segment.start * 1000),
                round(segment.end * 1000),
                float(segment.no_speech_prob),
            )
            for segment in segments
        )
        return Transcript(info.language, float(info.language_probability), found)


@dataclass(frozen=True)
class _Loaded:
    spec: SpeechSpec
    model: SpeechModel


Loader = Callable[[SpeechSpec, int], SpeechModel]


def decode_audio(value: Any) -> numpy.ndarray:
    """The samples of the ``audio`` field (base64 of s16le mono 16 kHz PCM), as float32 in [-1, 1)."""
    if not isinstance(value, str):
        raise ApiError(400, "Field 'audio' must be a string: base64 of 16-bit PCM, mono, 16 kHz.")
    # The decoded size is known before decoding: refuse long audio without the work.
    if len(value) // 4 * 3 > MAX_AUDIO_BYTES + 3:
        raise ApiError(
            400, f"Field 'audio' holds more than {MAX_SECONDS} s of audio; at most {MAX_SECONDS} s are taken."
        )
    try:
        data = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ApiError(400, f"Field 'audio' is not valid base64: {error}.") from error
    if not data:
        raise ApiError(400, "Field 'audio' holds no audio.")
    if len(data) % BYTES_PER_SAMPLE:
        raise ApiError(
            400, f"Field 'audio' holds {len(data)} bytes, an odd number: samples are 16-bit (2 bytes each)."
        )
    if len(data) > MAX_AUDIO_BYTES:
        seconds = len(data) / (SAMPLE_RATE * BYTES_PER_SAMPLE)
        raise ApiError(400, f"Field 'audio' holds {seconds:.1f} s of audio; at most {MAX_SECONDS} s are taken.")
    return numpy.frombuffer(data, dtype="<i2").astype(numpy.float32) / 32768.0


def _optional_text(body: Mapping[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is None:
        return None
    text = valid_text(value, key)
    if not text.strip():
        raise ApiError(400, f"Field '{key}' must not be blank; leave it out or send null.")
    return text


@dataclass(frozen=True)
class Parsed:
    """A transcribe request's fields, checked but not yet matched to a model."""

    samples: numpy.ndarray
    language: str | None
    prompt: str | None
    model: str | None
    vad: bool
    beam_size: int
    fallback: bool


def parse_request(body: Any, default_beam_size: int) -> Parsed:
    """The fields of a transcribe request, or an :class:`ApiError` naming the bad one."""
    body = body_object(body)
    refuse_unknown_fields(body, FIELDS)
    if "audio" not in body:
        raise ApiError(400, "Field 'audio' is required.")
    samples = decode_audio(body["audio"])
    language = _optional_text(body, "language")
    if language is not None:
        language = language.strip().lower()
    prompt = _optional_text(body, "prompt")
    if prompt is not None and len(prompt) > MAX_PROMPT_CHARACTERS:
        raise ApiError(
            400, f"Field 'prompt' holds {len(prompt)} characters; at most {MAX_PROMPT_CHARACTERS} are taken."
        )
    model = _optional_text(body, "model")
    vad = body.get("vad", True)
    if not isinstance(vad, bool):
        raise ApiError(400, "Field 'vad' must be true or false.")
    beam_size = optional_integer(body, "beam_size", 1, MAX_BEAM_SIZE, default_beam_size)
    fallback = body.get("fallback", True)
    if not isinstance(fallback, bool):
        raise ApiError(400, "Field 'fallback' must be true or false.")
    return Parsed(samples, language, prompt, model, vad, beam_size, fallback)


class SpeechFamily:
    """Serves ``/v1/speech/models`` and ``/v1/speech/transcribe``, and with ``voices`` also
    ``/v1/speech/voices`` and ``/v1/speech/synthesize``."""

    name = "speech"

    def __init__(
        self,
        threads: int,
        beam_size: int,
        queue_limit: int,
        default_model: str | None = None,
        load: Loader = WhisperModel,
        voices: Voices | None = None,
    ) -> None:
        self._threads = threads
        self._voices = voices
        self._beam_size = beam_size
        self._default_name = default_model
        self._load = load
        self._models: dict[str, _Loaded] = {}
        self._failed: set[tuple[Path, int]] = set()
        # One request per model call: the key is the model, the item the request.
        self._batcher: Batcher[SpeechModel, Request, Transcript] = Batcher(
            self.name, self._run_batch, queue_limit, 1
        )

    def update(self, installations: Sequence[Installation]) -> None:
        """Per name, the highest version that loads wins; a model already loaded is kept."""
        candidates: dict[str, list[SpeechSpec]] = defaultdict(list)
        for installation in installations:
            try:
                spec = SpeechSpec.read(installation)
            except InstallationError as error:
                log.error("Ignoring the speech model in %s: %s", installation.directory, error)
                continue
            candidates[spec.name].append(spec)
        current = self._models
        models: dict[str, _Loaded] = {}
        for name, specs in sorted(candidates.items()):
            specs.sort(key=lambda spec: (version_key(spec.installation.version), str(spec.key[0])), reverse=True)
            for spec in specs:
                loaded = self._obtain(spec, current.get(name))
                if loaded is not None:
                    models[name] = loaded
                    break
        for name, loaded in current.items():
            if models.get(name) is not loaded:
                log.info("Dropped the speech model %s", loaded.spec.describe())
        self._failed &= {spec.key for specs in candidates.values() for spec in specs}
        self._models = models
        if self._default_name is not None and models and self._default_name not in models:
            log.warning(
                "The speech model %s named by --speech-model is not installed; the default is %s",
                self._default_name,
                self.default_model(),
            )

    def _obtain(self, spec: SpeechSpec, existing: _Loaded | None) -> _Loaded | None:
        """The loaded model for ``spec``: the existing one if it is the same, else a fresh load."""
        if existing is not None and existing.spec.key == spec.key:
            return existing
        model = load_model(spec, self._failed, self._load, self._threads, "speech", log)
        return None if model is None else _Loaded(spec, model)

    def default_model(self) -> str | None:
        """The model a request without ``model`` uses: ``--speech-model``, a multilingual one, any."""
        models = self._models
        if self._default_name in models:
            return self._default_name
        multilingual = [name for name, loaded in sorted(models.items()) if loaded.spec.multilingual]
        return multilingual[0] if multilingual else min(models, default=None)

    def model_count(self) -> int:
        return len(self._models)

    def routes(self) -> Mapping[str, Route]:
        routes = {"models": Route("GET", self._list), "transcribe": Route("POST", self._transcribe)}
        if self._voices is not None:
            routes["voices"] = Route("GET", self._voices.listing)
            routes["synthesize"] = Route("POST", self._voices.synthesize)
        return routes

    def close(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        self._batcher.close(timeout)
        if self._voices is not None:
            self._voices.close(max(0.0, deadline - time.monotonic()))

    def _list(self, _body: Any) -> Mapping[str, Any]:
        default = self.default_model()
        return {
            "models": [
                {
                    "name": name,
                    "version": loaded.spec.installation.version,
                    "languages": list(loaded.spec.languages),
                    "multilingual": loaded.spec.multilingual,
                    "default": name == default,
                }
                for name, loaded in sorted(self._models.items())
            ]
        }

    def _choose(self, name: str | None) -> _Loaded:
        models = self._models
        if not models:
            raise ApiError(404, "No speech model is installed.")
        if name is None:
            name = self.default_model()
            assert name is not None
        loaded = models.get(name)
        if loaded is None:
            raise ApiError(
                404, f"Field 'model': no speech model {name} is installed; the models are {', '.join(sorted(models))}."
            )
        return loaded

    def _transcribe(self, body: Any) -> Mapping[str, Any]:
        parsed = parse_request(body, self._beam_size)
        loaded = self._choose(parsed.model)
        spec = loaded.spec
        if parsed.language is not None and parsed.language not in spec.languages:
            known = ", ".join(spec.languages) if len(spec.languages) <= 10 else "see GET /v1/speech/models"
            raise ApiError(
                400,
                f"Field 'language': the speech model {spec.name} does not recognise '{parsed.language}' "
                f"(it recognises {known}).",
            )
        duration_ms = len(parsed.samples) * 1000 // SAMPLE_RATE
        request = Request(
            parsed.samples, parsed.language, parsed.prompt, parsed.vad, parsed.beam_size, parsed.fallback
        )
        started = time.monotonic()
        [transcript] = self._batcher.submit(loaded.model, [request]).result()
        log.debug(
            "%s: %d ms of audio in %.3f s, %d segments",
            spec.name,
            duration_ms,
            time.monotonic() - started,
            len(transcript.segments),
        )
        return {
            "model": spec.name,
            "language": transcript.language,
            "language_probability": round(transcript.language_probability, 4),
            "duration_ms": duration_ms,
            "segments": [
                {
                    "text": segment.text.strip(),
                    "start_ms": max(0, min(segment.start_ms, duration_ms)),
                    "end_ms": max(0, min(segment.end_ms, duration_ms)),
                    "no_speech_probability": round(segment.no_speech_probability, 4),
                }
                for segment in transcript.segments
                if segment.text.strip()
            ],
        }

    def _run_batch(self, model: SpeechModel, requests: list[Request]) -> list[Transcript]:
        """The batching worker's runner: one transcription at a time."""
        return [model.transcribe(request) for request in requests]
