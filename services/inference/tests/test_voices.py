"""The speech family's voices without Piper: finding voices, request checks, the choice of voice,
and the routes over HTTP, with a stand-in voice that "speaks" a known tone."""

from __future__ import annotations

import base64
import json
import tempfile
import unittest
from pathlib import Path
from typing import Any

from glossa_inference.family import ApiError
from glossa_inference.models import ModelFolder
from glossa_inference.server import App
from glossa_inference.speech import SpeechFamily
from glossa_inference.voices import (
    MAX_TEXT_CHARACTERS,
    Speech,
    VoiceError,
    Voices,
    VoiceSpec,
    folder_voice_files,
    parse_request,
)

from .support import SECRET, JsonRequests


def write_voice(folder: Path, name: str, settings: dict[str, Any] | None = None, *, config: bool = True) -> Path:
    """Writes a voice's two files (an empty network) into ``folder``."""
    model = folder / f"{name}.onnx"
    model.write_bytes(b"")
    if config:
        language, _, _ = name.partition("-")
        default = {"audio": {"sample_rate": 22050, "quality": "medium"}, "language": {"code": language}}
        model.with_name(model.name + ".json").write_text(json.dumps(default if settings is None else settings))
    return model


class ToneVoice:
    """Speaks 10 ms of samples per character, each sample the character count; records the texts."""

    def __init__(self, spec: VoiceSpec, threads: int) -> None:
        self.spec = spec
        self.threads = threads
        self.texts: list[str] = []

    def synthesize(self, text: str) -> Speech:
        self.texts.append(text)
        samples = len(text) * self.spec.sample_rate // 100
        return Speech(self.spec.sample_rate, len(text).to_bytes(2, "little") * samples)


class SpecTest(unittest.TestCase):
    def setUp(self) -> None:
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.folder = Path(directory.name)

    def test_a_voice_names_its_language_rate_and_known_speaker(self) -> None:
        model = write_voice(
            self.folder,
            "en_US-joe-medium",
            {"audio": {"sample_rate": 22050, "quality": "medium"}, "language": {"code": "en_US"}, "dataset": "joe"},
        )
        spec = VoiceSpec.read(model)
        self.assertEqual(
            (spec.name, spec.language, spec.sample_rate, spec.gender, spec.quality),
            ("en_US-joe-medium", "en-us", 22050, "male", "medium"),
        )
        other = write_voice(
            self.folder, "de_DE-x-low", {"audio": {"sample_rate": 16000}, "espeak": {"voice": "de"}, "dataset": "x"}
        )
        spec = VoiceSpec.read(other)
        self.assertEqual((spec.language, spec.sample_rate, spec.gender, spec.quality), ("de", 16000, None, None))

    def test_broken_settings_are_refused_naming_the_field(self) -> None:
        cases = {
            "a": ({"language": {"code": "en"}}, "'audio.sample_rate'"),
            "b": ({"audio": {"sample_rate": True}, "language": {"code": "en"}}, "'audio.sample_rate'"),
            "c": ({"audio": {"sample_rate": 22050}}, "names no language"),
            "d": ([], "JSON object"),
        }
        for name, (settings, expected) in cases.items():
            with self.subTest(name), self.assertRaisesRegex(VoiceError, expected):
                VoiceSpec.read(write_voice(self.folder, name, settings))  # type: ignore[arg-type]
        model = self.folder / "e.onnx"
        model.write_bytes(b"")
        with self.assertRaises(VoiceError):
            VoiceSpec.read(model)

    def test_a_folder_gives_the_networks_that_have_their_settings(self) -> None:
        write_voice(self.folder, "en_US-a-medium")
        write_voice(self.folder, "fr_FR-b-low", config=False)
        (self.folder / "notes.json").write_text("{}")
        self.assertEqual(
            [model.name for model, _ in folder_voice_files(self.folder)], ["en_US-a-medium.onnx"]
        )
        self.assertEqual(folder_voice_files(self.folder / "missing"), [])


class RequestTest(unittest.TestCase):
    def test_fields(self) -> None:
        parsed = parse_request({"text": "Hello.", "language": "EN_us"})
        self.assertEqual((parsed.text, parsed.voice, parsed.language), ("Hello.", None, "en-us"))
        parsed = parse_request({"text": "Hello.", "voice": " en_US-joe-medium "})
        self.assertEqual((parsed.voice, parsed.language), ("en_US-joe-medium", None))

    def test_mistakes_name_the_field(self) -> None:
        cases = [
            ([], "JSON object"),
            ({"language": "en"}, "Field 'text' is required"),
            ({"text": "  ", "language": "en"}, "Field 'text' must not be blank"),
            ({"text": 3, "language": "en"}, "Field 'text' must be a string"),
            ({"text": "x" * (MAX_TEXT_CHARACTERS + 1), "language": "en"}, f"at most {MAX_TEXT_CHARACTERS}"),
            ({"text": "Hi", "language": ""}, "Field 'language' must be a non-blank string"),
            ({"text": "Hi", "voice": 1}, "Field 'voice' must be a non-blank string"),
            ({"text": "Hi"}, "exactly one of the fields 'voice' and 'language'"),
            ({"text": "Hi", "voice": "a", "language": "en"}, "exactly one"),
            ({"text": "Hi", "language": "en", "speed": 2}, "Unknown field 'speed'"),
        ]
        for body, expected in cases:
            with self.subTest(body=str(body)[:60]), self.assertRaises(ApiError) as caught:
                parse_request(body)
            self.assertEqual(caught.exception.status, 400)
            self.assertIn(expected, caught.exception.message)


class VoicesTest(unittest.TestCase):
    def setUp(self) -> None:
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.folder = Path(directory.name)
        self.loaded: list[ToneVoice] = []

    def voices(self) -> Voices:
        def load(spec: VoiceSpec, threads: int) -> ToneVoice:
            if spec.name.startswith("broken"):
                raise RuntimeError("not a network")
            voice = ToneVoice(spec, threads)
            self.loaded.append(voice)
            return voice

        voices = Voices(3, 4, [self.folder], packages=False, load=load)
        self.addCleanup(voices.close, 5)
        voices.load()
        return voices

    def test_no_voice_is_a_404(self) -> None:
        with self.assertRaises(ApiError) as caught:
            self.voices().synthesize({"text": "Hello.", "language": "en"})
        self.assertEqual((caught.exception.status, caught.exception.message), (404, "No voice is installed."))

    def test_voices_are_listed_and_loaded_once_with_the_threads(self) -> None:
        write_voice(self.folder, "en_US-a-medium")
        write_voice(self.folder, "broken-voice")
        write_voice(self.folder, "de-b-low", {"audio": {"sample_rate": 16000}, "language": {"code": "de"}})
        voices = self.voices()
        self.assertEqual(
            voices.listing(),
            {
                "voices": [
                    {"name": "de-b-low", "language": "de", "sample_rate": 16000, "gender": None, "quality": None},
                    {"name": "en_US-a-medium", "language": "en-us", "sample_rate": 22050, "gender": None,
                     "quality": "medium"},
                ]
            },
        )
        self.assertEqual(sorted(voice.spec.name for voice in self.loaded), ["de-b-low", "en_US-a-medium"])
        self.assertTrue(all(voice.threads == 3 for voice in self.loaded))

    def test_the_answer_is_the_voice_s_pcm_at_its_rate(self) -> None:
        write_voice(self.folder, "en_US-a-medium")
        answer = self.voices().synthesize({"text": "Hello.", "voice": "en_US-a-medium"})
        audio = base64.b64decode(answer.pop("audio"), validate=True)
        self.assertEqual(answer, {"voice": "en_US-a-medium", "sample_rate": 22050, "duration_ms": 60})
        self.assertEqual(audio, (6).to_bytes(2, "little") * (6 * 22050 // 100))
        self.assertEqual(self.loaded[0].texts, ["Hello."])

    def test_a_language_finds_its_voice(self) -> None:
        write_voice(self.folder, "en_GB-b-low")
        write_voice(self.folder, "en_US-a-medium")
        write_voice(self.folder, "de-c-low", {"audio": {"sample_rate": 16000}, "language": {"code": "de"}})
        voices = self.voices()

        def voice(language: str) -> str:
            return voices.synthesize({"text": "Hi", "language": language})["voice"]

        self.assertEqual(voice("en-US"), "en_US-a-medium")
        self.assertEqual(voice("en_gb"), "en_GB-b-low")
        # Without a region, any voice of the language (the first by name); a voice without a region
        # speaks for every region.
        self.assertEqual(voice("en"), "en_GB-b-low")
        self.assertEqual(voice("de-AT"), "de-c-low")
        with self.assertRaises(ApiError) as caught:
            voice("en-au")
        self.assertEqual(caught.exception.status, 404)
        self.assertIn("Field 'language': no voice speaks 'en-au'; the voices speak de, en-gb, en-us.", caught.exception.message)
        with self.assertRaises(ApiError) as caught:
            voices.synthesize({"text": "Hi", "voice": "nope"})
        self.assertEqual(caught.exception.status, 404)
        self.assertIn("Field 'voice': no voice nope is installed; the voices are de-c-low, en_GB-b-low, en_US-a-medium.",
                      caught.exception.message)


class VoicesServerTest(JsonRequests, unittest.TestCase):
    """The routes over HTTP, in the speech family: the secret, JSON answers and errors."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.directory = tempfile.TemporaryDirectory()
        folder = Path(cls.directory.name)
        write_voice(folder, "en_US-a-medium")
        voices = Voices(1, 4, [folder], packages=False, load=ToneVoice)
        voices.load()
        cls.family = SpeechFamily(1, 2, 4, voices=voices)
        models = ModelFolder(folder / "models", [cls.family])
        models.refresh()
        cls.serve(App(SECRET, models, [cls.family]))

    def test_routes_need_the_secret(self) -> None:
        self.assertEqual(self.request("GET", "/v1/speech/voices", secret=None)[0], 401)
        self.assertEqual(self.request("POST", "/v1/speech/synthesize", {"text": "x", "language": "en"}, "no")[0], 401)

    def test_voices_and_synthesis(self) -> None:
        status, body = self.request("GET", "/v1/speech/voices")
        self.assertEqual((status, [voice["name"] for voice in body["voices"]]), (200, ["en_US-a-medium"]))
        status, body = self.request("POST", "/v1/speech/synthesize", {"text": "Good day.", "language": "en"})
        self.assertEqual(status, 200, body)
        self.assertEqual((body["voice"], body["sample_rate"], body["duration_ms"]), ("en_US-a-medium", 22050, 90))
        self.assertEqual(len(base64.b64decode(body["audio"])), 9 * 22050 // 100 * 2)
        status, body = self.request("POST", "/v1/speech/synthesize", {"text": "Hallo.", "language": "fr"})
        self.assertEqual(status, 404)
        self.assertIn("Field 'language'", body["message"])
        status, body = self.request("POST", "/v1/speech/synthesize", {"language": "en"})
        self.assertEqual((status, body), (400, {"message": "Field 'text' is required."}))
        self.assertEqual(self.request("GET", "/v1/speech/synthesize")[0], 405)


if __name__ == "__main__":
    unittest.main()
