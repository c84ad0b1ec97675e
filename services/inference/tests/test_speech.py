"""The speech family without a model: request checks, model choice, the queue, and its routes over HTTP."""

from __future__ import annotations

import base64
import http.client
import json
import socket
import tempfile
import threading
import unittest
from pathlib import Path
from typing import Any

import numpy

from glossa_inference.batching import Busy
from glossa_inference.family import ApiError
from glossa_inference.models import InstallationError, ModelFolder, read_installation
from glossa_inference.server import MAX_BODY, App
from glossa_inference.speech import (
    MAX_AUDIO_BYTES,
    Request,
    Segment,
    SpeechFamily,
    SpeechSpec,
    Transcript,
    decode_audio,
    parse_request,
)

from .support import SECRET, JsonRequests


def pcm(seconds: float, value: int = 1000) -> str:
    """Base64 of ``seconds`` of 16 kHz s16le samples, all ``value``."""
    return base64.b64encode(numpy.full(round(seconds * 16000), value, dtype="<i2").tobytes()).decode()


def install_speech(
    folder: Path, name: str, languages: list[str], *, version: str = "0", multilingual: bool | None = None
) -> Path:
    """Writes a complete fake speech installation (empty model files) into ``folder/name``."""
    path = folder / name
    (path / "model").mkdir(parents=True, exist_ok=True)
    for file in ("model.bin", "config.json", "tokenizer.json"):
        (path / "model" / file).write_bytes(b"")
    manifest: dict[str, Any] = {
        "family": "speech",
        "name": name,
        "version": version,
        "model": "model",
        "languages": languages,
    }
    if multilingual is not None:
        manifest["multilingual"] = multilingual
    (path / "installed.json").write_text(json.dumps(manifest))
    return path


class FakeModel:
    """Answers every request with the segments it was made with, recording the requests."""

    def __init__(self, spec: SpeechSpec, threads: int, segments: tuple[Segment, ...] = ()) -> None:
        self.spec = spec
        self.requests: list[Request] = []
        self.segments = segments or (
            Segment("  Hello world.  ", 120, 1480, 0.02),
            Segment(" ", 1500, 1600, 0.9),
            Segment("Beyond the end.", 1600, 99_999, 0.1),
        )
        self.release = threading.Event()
        self.release.set()

    def transcribe(self, request: Request) -> Transcript:
        self.requests.append(request)
        self.release.wait(10)
        language = request.language or self.spec.languages[0]
        return Transcript(language, 0.97 if request.language is None else 1.0, self.segments)


class AudioTest(unittest.TestCase):
    def refused(self, value: Any, expected: str) -> None:
        with self.assertRaises(ApiError) as caught:
            decode_audio(value)
        self.assertEqual(caught.exception.status, 400)
        self.assertIn(expected, caught.exception.message)
        self.assertIn("'audio'", caught.exception.message)

    def test_samples_are_signed_16_bit_little_endian(self) -> None:
        samples = decode_audio(base64.b64encode(b"\x00\x80\xff\x7f\x00\x00").decode())
        self.assertEqual(samples.dtype, numpy.float32)
        self.assertEqual(samples.tolist(), [-1.0, 32767 / 32768, 0.0])

    def test_bad_audio_is_refused_naming_the_reason(self) -> None:
        self.refused(7, "must be a string")
        self.refused("not base64!", "not valid base64")
        self.refused("AAA", "not valid base64")
        self.refused("", "holds no audio")
        self.refused(base64.b64encode(b"\x00\x01\x02").decode(), "odd number")
        self.refused(pcm(60.5), "at most 60 s")
        # Far too long is refused before decoding, by its length.
        self.refused("A" * (MAX_AUDIO_BYTES * 2), "more than 60 s")

    def test_sixty_seconds_are_taken(self) -> None:
        self.assertEqual(len(decode_audio(pcm(60))), 60 * 16000)


class RequestTest(unittest.TestCase):
    def refused(self, body: Any, expected: str) -> None:
        with self.assertRaises(ApiError) as caught:
            parse_request(body, 2)
        self.assertEqual(caught.exception.status, 400)
        self.assertIn(expected, caught.exception.message)

    def test_defaults(self) -> None:
        def fields(body: dict[str, Any]) -> tuple[Any, ...]:
            parsed = parse_request(body, 2)
            return parsed.language, parsed.prompt, parsed.model, parsed.vad, parsed.beam_size, parsed.fallback

        self.assertEqual(fields({"audio": pcm(1)}), (None, None, None, True, 2, True))
        given = {"audio": pcm(1), "language": "EN", "prompt": "Glossa", "model": "m", "vad": False, "beam_size": 5}
        self.assertEqual(fields({**given, "fallback": False}), ("en", "Glossa", "m", False, 5, False))
        parsed = parse_request({"audio": pcm(1), "language": None, "prompt": None, "model": None}, 2)
        self.assertEqual((parsed.language, parsed.prompt, parsed.model), (None, None, None))

    def test_mistakes_name_the_field(self) -> None:
        self.refused([], "must be a JSON object")
        self.refused({}, "Field 'audio' is required")
        self.refused({"audio": pcm(1), "text": "x"}, "Unknown field 'text'")
        self.refused({"audio": pcm(1), "language": 7}, "Field 'language' must be a string")
        self.refused({"audio": pcm(1), "language": " "}, "Field 'language' must not be blank")
        self.refused({"audio": pcm(1), "prompt": "x" * 1001}, "Field 'prompt' holds 1001 characters")
        self.refused({"audio": pcm(1), "vad": "yes"}, "Field 'vad' must be true or false")
        self.refused({"audio": pcm(1), "fallback": 0}, "Field 'fallback' must be true or false")
        self.refused({"audio": pcm(1), "beam_size": 9}, "Field 'beam_size' must be an integer from 1 to 8")
        self.refused({"audio": pcm(1), "beam_size": True}, "Field 'beam_size'")
        self.refused({"audio": pcm(1), "model": ""}, "Field 'model' must not be blank")


class SpecTest(unittest.TestCase):
    def test_installations_must_name_languages_and_a_complete_model(self) -> None:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            good = SpeechSpec.read(read_installation(install_speech(folder, "m", ["en", "de"])))
            self.assertEqual((good.languages, good.multilingual), (("en", "de"), True))
            one = SpeechSpec.read(read_installation(install_speech(folder, "one", ["en"])))
            self.assertFalse(one.multilingual)
            for languages, expected in [([], "'languages'"), (["en", 3], "'languages'"), ("en", "'languages'")]:
                directory = install_speech(folder, "bad", languages)  # type: ignore[arg-type]
                with self.assertRaisesRegex(InstallationError, expected):
                    SpeechSpec.read(read_installation(directory))
            directory = install_speech(folder, "no-tokenizer", ["en"])
            (directory / "model" / "tokenizer.json").unlink()
            with self.assertRaisesRegex(InstallationError, "has no tokenizer.json"):
                SpeechSpec.read(read_installation(directory))


class FamilyTest(unittest.TestCase):
    def setUp(self) -> None:
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.folder = Path(directory.name)
        self.loaded: dict[str, FakeModel] = {}

    def family(self, default: str | None = None, queue: int = 16, fail: str | None = None) -> SpeechFamily:
        def load(spec: SpeechSpec, threads: int) -> FakeModel:
            if spec.name == fail:
                raise RuntimeError("bad weights")
            model = FakeModel(spec, threads)
            self.loaded[spec.name] = model
            return model

        family = SpeechFamily(1, 2, queue, default, load=load)
        self.addCleanup(family.close, 10)
        return family

    def refresh(self, family: SpeechFamily) -> None:
        ModelFolder(self.folder, [family]).refresh()

    def transcribe(self, family: SpeechFamily, body: dict[str, Any]) -> Any:
        return family.routes()["transcribe"].handle(body)

    def test_no_model_is_a_404(self) -> None:
        family = self.family()
        self.refresh(family)
        self.assertEqual(family.routes()["models"].handle(None), {"models": []})
        with self.assertRaises(ApiError) as caught:
            self.transcribe(family, {"audio": pcm(1)})
        self.assertEqual((caught.exception.status, caught.exception.message), (404, "No speech model is installed."))

    def test_the_default_is_the_named_model_else_a_multilingual_one_else_any(self) -> None:
        install_speech(self.folder, "whisper-tiny.en", ["en"])
        family = self.family()
        self.refresh(family)
        self.assertEqual(family.default_model(), "whisper-tiny.en")
        install_speech(self.folder, "whisper-base", ["en", "de", "fr"])
        self.refresh(family)
        self.assertEqual(family.default_model(), "whisper-base")
        named = self.family("whisper-tiny.en")
        self.refresh(named)
        self.assertEqual(named.default_model(), "whisper-tiny.en")
        missing = self.family("whisper-large")
        with self.assertLogs("glossa_inference.speech", "WARNING") as logs:
            self.refresh(missing)
        self.assertEqual(missing.default_model(), "whisper-base")
        self.assertIn("whisper-large", logs.output[0])
        self.assertEqual(
            family.routes()["models"].handle(None),
            {
                "models": [
                    {
                        "name": "whisper-base",
                        "version": "0",
                        "languages": ["en", "de", "fr"],
                        "multilingual": True,
                        "default": True,
                    },
                    {
                        "name": "whisper-tiny.en",
                        "version": "0",
                        "languages": ["en"],
                        "multilingual": False,
                        "default": False,
                    },
                ]
            },
        )

    def test_a_transcription_answers_stripped_segments_inside_the_audio(self) -> None:
        install_speech(self.folder, "whisper-tiny.en", ["en"])
        family = self.family()
        self.refresh(family)
        body = {"audio": pcm(3.2), "prompt": "Glossa", "vad": False, "beam_size": 3, "fallback": False}
        answer = self.transcribe(family, body)
        self.assertEqual(
            answer,
            {
                "model": "whisper-tiny.en",
                "language": "en",
                "language_probability": 0.97,
                "duration_ms": 3200,
                "segments": [
                    {"text": "Hello world.", "start_ms": 120, "end_ms": 1480, "no_speech_probability": 0.02},
                    {"text": "Beyond the end.", "start_ms": 1600, "end_ms": 3200, "no_speech_probability": 0.1},
                ],
            },
        )
        [request] = self.loaded["whisper-tiny.en"].requests
        settings = (request.language, request.prompt, request.vad, request.beam_size, request.fallback)
        self.assertEqual(settings, (None, "Glossa", False, 3, False))
        self.assertEqual(len(request.samples), 3200 * 16)

    def test_a_language_the_model_does_not_recognise_is_a_400_naming_both(self) -> None:
        install_speech(self.folder, "whisper-tiny.en", ["en"])
        family = self.family()
        self.refresh(family)
        with self.assertRaises(ApiError) as caught:
            self.transcribe(family, {"audio": pcm(1), "language": "de"})
        self.assertEqual(caught.exception.status, 400)
        self.assertIn("whisper-tiny.en does not recognise 'de'", caught.exception.message)
        self.assertIn("it recognises en", caught.exception.message)
        self.assertEqual(self.transcribe(family, {"audio": pcm(1), "language": "en"})["language"], "en")

    def test_an_unknown_model_is_a_404_listing_the_models(self) -> None:
        install_speech(self.folder, "whisper-tiny.en", ["en"])
        family = self.family()
        self.refresh(family)
        with self.assertRaises(ApiError) as caught:
            self.transcribe(family, {"audio": pcm(1), "model": "whisper-large"})
        self.assertEqual(caught.exception.status, 404)
        self.assertIn(
            "no speech model whisper-large is installed; the models are whisper-tiny.en", caught.exception.message
        )

    def test_the_highest_version_that_loads_wins(self) -> None:
        install_speech(self.folder, "a", ["en"], version="1.9")
        install_speech(self.folder, "b", ["en"], version="1.10")
        # Both directories name themselves differently; give them the same name.
        for directory, version in (("a", "1.9"), ("b", "1.10")):
            manifest = json.loads((self.folder / directory / "installed.json").read_text())
            manifest["name"] = "whisper"
            (self.folder / directory / "installed.json").write_text(json.dumps(manifest))
        family = self.family()
        self.refresh(family)
        self.assertEqual(family.routes()["models"].handle(None)["models"][0]["version"], "1.10")

    def test_a_model_that_fails_to_load_is_logged_and_not_served(self) -> None:
        install_speech(self.folder, "broken", ["en"])
        family = self.family(fail="broken")
        with self.assertLogs("glossa_inference.speech", "ERROR") as logs:
            self.refresh(family)
        self.assertIn("bad weights", logs.output[0])
        self.assertEqual(family.model_count(), 0)

    def test_a_full_queue_is_busy(self) -> None:
        install_speech(self.folder, "whisper-tiny.en", ["en"])
        family = self.family(queue=1)
        self.refresh(family)
        model = self.loaded["whisper-tiny.en"]
        model.release.clear()
        answers: list[Any] = []
        threads = [
            threading.Thread(target=lambda: answers.append(self.transcribe(family, {"audio": pcm(0.5)})))
            for _ in range(2)
        ]
        threads[0].start()
        # The first runs (and waits on the model); the second waits in the queue.
        for _ in range(200):
            if model.requests:
                break
            threading.Event().wait(0.01)
        threads[1].start()
        for _ in range(200):
            if family._batcher._waiting:  # noqa: SLF001 - the queue's length is not public
                break
            threading.Event().wait(0.01)
        with self.assertRaises(Busy):
            self.transcribe(family, {"audio": pcm(0.5)})
        model.release.set()
        for thread in threads:
            thread.join(10)
        self.assertEqual(len(answers), 2)


class SpeechServerTest(JsonRequests, unittest.TestCase):
    """The routes over HTTP: auth, JSON errors and the health report."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.directory = tempfile.TemporaryDirectory()
        install_speech(Path(cls.directory.name), "whisper-tiny.en", ["en"])
        cls.family = SpeechFamily(1, 2, 4, load=lambda spec, threads: FakeModel(spec, threads))
        folder = ModelFolder(Path(cls.directory.name), [cls.family])
        folder.refresh()
        cls.serve(App(SECRET, folder, [cls.family]))

    def test_health_counts_the_speech_models(self) -> None:
        self.assertEqual(
            self.request("GET", "/health", secret=None), (200, {"status": "ok", "families": {"speech": {"models": 1}}})
        )

    def test_routes_need_the_secret(self) -> None:
        status, body = self.request("POST", "/v1/speech/transcribe", {"audio": pcm(1)}, secret=None)
        self.assertEqual(status, 401)
        status, body = self.request("GET", "/v1/speech/models", secret="wrong")
        self.assertEqual(status, 401)

    def test_transcribe_and_its_errors_as_json(self) -> None:
        status, body = self.request("POST", "/v1/speech/transcribe", {"audio": pcm(2)})
        self.assertEqual(status, 200, body)
        self.assertEqual(body["duration_ms"], 2000)
        self.assertEqual(body["segments"][-1]["end_ms"], 2000)
        status, body = self.request("POST", "/v1/speech/transcribe", {"audio": "@@@"})
        self.assertEqual(status, 400)
        self.assertIn("Field 'audio' is not valid base64", body["message"])
        status, body = self.request("POST", "/v1/speech/transcribe", {"audio": pcm(1), "language": "de"})
        self.assertEqual(status, 400)
        status, body = self.request("POST", "/v1/speech/transcribe", {"audio": pcm(1), "model": "nope"})
        self.assertEqual(status, 404)
        status, body = self.request("GET", "/v1/speech/transcribe")
        self.assertEqual(status, 405)

    def test_a_body_over_the_cap_is_a_413_and_the_cap_takes_sixty_seconds(self) -> None:
        # Two minutes of audio in base64 is over the cap: refused from its declared length.
        length = len(json.dumps({"audio": pcm(120)}))
        self.assertGreater(length, MAX_BODY)
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            head = f"POST /v1/speech/transcribe HTTP/1.1\r\nAuthorization: Bearer {SECRET}\r\n"
            sock.sendall(f"{head}Content-Length: {length}\r\n\r\n".encode())
            response = http.client.HTTPResponse(sock)
            response.begin()
            self.assertEqual(response.status, 413)
            self.assertIn(f"at most {MAX_BODY}", json.loads(response.read())["message"])
        # Sixty seconds, the longest audio taken, fit.
        self.assertLess(len(json.dumps({"audio": pcm(60), "prompt": "x" * 1000})), MAX_BODY)


if __name__ == "__main__":
    unittest.main()
