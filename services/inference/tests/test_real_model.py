"""The real service with a real zh→en model: fluent English and placeholders kept.

Skipped unless ``GLOSSA_TEST_MODELS`` names a models folder (in the layout ``glossa models
install`` writes) that holds a Chinese-to-English translation model.
"""

from __future__ import annotations

import os
import re
import unittest
from typing import ClassVar

from .support import Service, structure

MODELS = os.environ.get("GLOSSA_TEST_MODELS")


@unittest.skipUnless(MODELS, "GLOSSA_TEST_MODELS names no models folder")
class RealModelTest(unittest.TestCase):
    service: ClassVar[Service]

    @classmethod
    def setUpClass(cls) -> None:
        assert MODELS is not None
        cls.service = Service(MODELS)

    @classmethod
    def tearDownClass(cls) -> None:
        status = cls.service.stop()
        if status != 0:
            raise AssertionError(f"the service exited with {status}: {cls.service.lines}")

    def translate(self, texts: list[str]) -> list[str]:
        status, body = self.service.request(
            "POST", "/v1/translation/translate", {"source": "zh", "target": "en", "texts": texts}
        )
        self.assertEqual(status, 200, body)
        translations: list[str] = body["translations"]
        return translations

    def test_the_model_is_listed(self) -> None:
        status, body = self.service.request("GET", "/v1/translation/models")
        self.assertEqual(status, 200)
        self.assertIn(("zh", "en"), [(model["source"], model["target"]) for model in body["models"]])

    def test_fluent_english(self) -> None:
        sources = ["今天天气很好。", "他昨天买了一本书。", "这个软件可以帮助你翻译文档。"]
        expected_words = [{"day"}, {"bought", "book", "yesterday"}, {"software", "help", "translate"}]
        for source, words, translation in zip(sources, expected_words, self.translate(sources)):
            with self.subTest(source=source):
                self.assertRegex(translation, r"^[A-Z][A-Za-z ,']+\.$")
                self.assertTrue(words <= set(re.findall(r"[a-z]+", translation.lower())), translation)

    def test_a_paragraph_is_translated_sentence_by_sentence(self) -> None:
        [paragraph] = self.translate(["今天天气很好。他昨天买了一本书。这个软件可以帮助你翻译文档。"])
        words = set(re.findall(r"[a-z]+", paragraph.lower()))
        self.assertTrue({"day", "bought", "book", "software", "translate"} <= words, paragraph)
        self.assertEqual(paragraph.count(". "), 2, paragraph)

    def test_placeholders_are_kept(self) -> None:
        pressed, saved, lines = self.translate(
            ["请按<g1>这个按钮</g1>继续。", "点击<x1/>保存。", "  今天天气很好。\n\n<x1/>\n"]
        )
        self.assertIn(" <g1>this button</g1> ", pressed)
        self.assertTrue(pressed.startswith("Please press"), pressed)
        self.assertEqual(structure(saved), [("<x1/>", ())])
        self.assertIn("save", saved.lower())
        self.assertTrue(lines.startswith("  It") and lines.endswith(".\n\n<x1/>\n"), lines)


if __name__ == "__main__":
    unittest.main()
