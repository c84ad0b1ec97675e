"""The real service with real whisper models, on speech synthesised by espeak-ng at test time.

Skipped unless ``GLOSSA_TEST_MODELS`` names a models folder holding the English-only whisper model
``whisper-tiny.en`` (as ``glossa models install`` writes it) and ``espeak-ng`` is on the path. The
German sentence needs the multilingual ``whisper-base`` too, and is skipped without it.

The sentences are spoken by espeak-ng (a 22,050 Hz WAV), resampled to 16 kHz mono s16le by linear
interpolation, and sent as the gateway sends them. Synthetic speech is harder to recognise than a
person's, so the sentences are ones the models recognise reliably, and the bar is a word error rate
under 30 % per sentence after normalising case and punctuation.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
import unittest
import wave
from pathlib import Path
from typing import Any, ClassVar

import numpy

from .support import Service

MODELS = os.environ.get("GLOSSA_TEST_MODELS")
RATE = 16_000


def speech_models(folder: str | None) -> set[str]:
    """The names of the speech installations in the folder."""
    names = set()
    for marker in Path(folder).glob("*/installed.json") if folder else []:
        try:
            manifest = json.loads(marker.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(manifest, dict) and manifest.get("family") == "speech":
            names.add(manifest.get("name"))
    return names


INSTALLED = speech_models(MODELS)
ESPEAK = shutil.which("espeak-ng")


def speak(text: str, voice: str = "en-us") -> numpy.ndarray:
    """``text`` spoken by espeak-ng, as 16 kHz signed 16-bit samples."""
    assert ESPEAK is not None
    wav = subprocess.run([ESPEAK, "-v", voice, "--stdout", text], capture_output=True, check=True).stdout
    with wave.open(io.BytesIO(wav)) as reader:
        assert (reader.getnchannels(), reader.getsampwidth()) == (1, 2), "espeak-ng writes 16-bit mono"
        rate = reader.getframerate()
        samples = numpy.frombuffer(reader.readframes(reader.getnframes()), dtype="<i2").astype(numpy.float64)
    count = int(len(samples) * RATE / rate)
    resampled = numpy.interp(numpy.arange(count) * rate / RATE, numpy.arange(len(samples)), samples)
    return numpy.clip(numpy.round(resampled), -32768, 32767).astype("<i2")


def silence(seconds: float) -> numpy.ndarray:
    return numpy.zeros(round(seconds * RATE), dtype="<i2")


def encode(samples: numpy.ndarray) -> str:
    return base64.b64encode(samples.astype("<i2").tobytes()).decode()


def words(text: str) -> list[str]:
    return re.sub(r"[^\w' ]+", " ", text.lower()).split()


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Word-level edit distance over the reference's length."""
    expected, got = words(reference), words(hypothesis)
    row = list(range(len(got) + 1))
    for i, word in enumerate(expected, 1):
        previous, row[0] = row[:], i
        for j, other in enumerate(got, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (word != other))
    return row[-1] / len(expected)


@unittest.skipUnless(ESPEAK, "espeak-ng is not installed")
@unittest.skipUnless("whisper-tiny.en" in INSTALLED, "GLOSSA_TEST_MODELS holds no whisper-tiny.en")
class RealSpeechTest(unittest.TestCase):
    service: ClassVar[Service]

    @classmethod
    def setUpClass(cls) -> None:
        assert MODELS is not None
        cls.service = Service(MODELS, "--speech-model", "whisper-tiny.en")

    @classmethod
    def tearDownClass(cls) -> None:
        status = cls.service.stop()
        if status != 0:
            raise AssertionError(f"the service exited with {status}: {cls.service.lines}")

    def transcribe(self, samples: numpy.ndarray, **fields: Any) -> dict[str, Any]:
        status, body = self.service.request("POST", "/v1/speech/transcribe", {"audio": encode(samples), **fields})
        self.assertEqual(status, 200, body)
        self.assertEqual(body["duration_ms"], len(samples) * 1000 // RATE)
        self.assert_segments_inside(body)
        return body

    def assert_segments_inside(self, body: dict[str, Any]) -> None:
        previous_start = 0
        for segment in body["segments"]:
            self.assertEqual(segment["text"], segment["text"].strip())
            self.assertTrue(segment["text"])
            self.assertLessEqual(previous_start, segment["start_ms"], body)
            self.assertLessEqual(segment["start_ms"], segment["end_ms"], body)
            self.assertLessEqual(segment["end_ms"], body["duration_ms"], body)
            self.assertTrue(0 <= segment["no_speech_probability"] <= 1, body)
            previous_start = segment["start_ms"]

    def test_the_models_are_listed(self) -> None:
        status, body = self.service.request("GET", "/v1/speech/models")
        self.assertEqual(status, 200)
        tiny = next(model for model in body["models"] if model["name"] == "whisper-tiny.en")
        self.assertEqual((tiny["languages"], tiny["multilingual"], tiny["default"]), (["en"], False, True))
        status, health = self.service.request("GET", "/health")
        self.assertEqual(health["families"]["speech"], {"models": len(INSTALLED)})

    def test_english_sentences_come_back(self) -> None:
        sentences = [
            "Please send me the report before the meeting on Monday.",
            "I would like a cup of coffee with milk and sugar.",
            "Our team finished the project three weeks early.",
            "Can you tell me how to get to the train station?",
        ]
        for sentence in sentences:
            with self.subTest(sentence=sentence):
                body = self.transcribe(numpy.concatenate([silence(0.3), speak(sentence), silence(0.3)]))
                self.assertEqual((body["model"], body["language"]), ("whisper-tiny.en", "en"))
                text = " ".join(segment["text"] for segment in body["segments"])
                self.assertLess(word_error_rate(sentence, text), 0.3, text)

    def test_a_pause_separates_two_segments(self) -> None:
        first, second = speak("The meeting starts at nine in the morning."), speak("Please bring your notes and a pen.")
        pause_start = len(first) * 1000 // RATE
        pause_end = pause_start + 1500
        body = self.transcribe(numpy.concatenate([first, silence(1.5), second]), language="en", beam_size=2)
        segments = body["segments"]
        self.assertGreaterEqual(len(segments), 2, body)
        before = [segment for segment in segments if segment["end_ms"] <= pause_end]
        after = [segment for segment in segments if segment["start_ms"] >= pause_start]
        self.assertTrue(before and after, body)
        self.assertEqual(len(before) + len(after), len(segments), f"a segment spans the pause: {body}")
        self.assertIn("morning", words(" ".join(segment["text"] for segment in before)))
        self.assertIn("notes", words(" ".join(segment["text"] for segment in after)))

    def test_the_prompt_teaches_the_spelling_of_terms(self) -> None:
        body = self.transcribe(speak("We translate documents with Glossa and Spin."), prompt="Glossa, Spin")
        self.assertIn("Glossa", " ".join(segment["text"] for segment in body["segments"]), body)

    def test_silence_has_no_segments(self) -> None:
        body = self.transcribe(silence(2))
        self.assertEqual(body["segments"], [], body)

    def test_a_language_tiny_en_does_not_know_is_refused(self) -> None:
        status, body = self.service.request(
            "POST", "/v1/speech/transcribe", {"audio": encode(silence(1)), "language": "de", "model": "whisper-tiny.en"}
        )
        self.assertEqual(status, 400)
        self.assertIn("whisper-tiny.en does not recognise 'de'", body["message"])

    @unittest.skipUnless("whisper-base" in INSTALLED, "GLOSSA_TEST_MODELS holds no whisper-base")
    def test_german_is_detected_and_recognised_by_the_multilingual_model(self) -> None:
        sentence = "Guten Morgen, wie geht es Ihnen heute? Ich möchte einen Kaffee bestellen."
        body = self.transcribe(speak(sentence, "de"), model="whisper-base", beam_size=2)
        self.assertEqual((body["model"], body["language"]), ("whisper-base", "de"), body)
        self.assertGreater(body["language_probability"], 0.5, body)
        text = " ".join(segment["text"] for segment in body["segments"])
        self.assertLess(word_error_rate(sentence, text), 0.3, text)


if __name__ == "__main__":
    unittest.main()
