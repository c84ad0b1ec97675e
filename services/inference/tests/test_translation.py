"""Lines, whitespace, long-line cutting, alignment, request checks and the family, with a stand-in model."""

from __future__ import annotations

import tempfile
import unittest
from itertools import pairwise
from pathlib import Path

from glossa_inference.family import ApiError
from glossa_inference.models import InstallationError, read_installation
from glossa_inference.translation import (
    MAX_SEGMENT_TOKENS,
    MAX_TEXTS,
    Encoded,
    LinePlan,
    TranslatedSegment,
    TranslationFamily,
    TranslationSpec,
    align,
    boundary,
    encoded_from_offsets,
    join_segments,
    parse_request,
    plan_line,
    plan_text,
    segment_ranges,
    sentence_ends,
    split_lines,
    split_outer_whitespace,
)

from .support import WordModel, install


class LinesTest(unittest.TestCase):
    def test_lines_keep_their_exact_newlines(self) -> None:
        text = "one\r\ntwo\nthree\rfour\n"
        lines = split_lines(text)
        self.assertEqual(lines, [("one", "\r\n"), ("two", "\n"), ("three", "\r"), ("four", "\n"), ("", "")])
        self.assertEqual("".join(line + newline for line, newline in lines), text)
        self.assertEqual(split_lines(""), [("", "")])
        self.assertEqual(split_lines("\n\n"), [("", "\n"), ("", "\n"), ("", "")])

    def test_outer_whitespace(self) -> None:
        self.assertEqual(split_outer_whitespace("  a b \t"), ("  ", "a b", " \t"))
        self.assertEqual(split_outer_whitespace("a"), ("", "a", ""))
        self.assertEqual(split_outer_whitespace(" \u3000 "), (" \u3000 ", "", ""))


class EncodingTest(unittest.TestCase):
    def test_starts_skip_the_space_a_word_start_piece_covers(self) -> None:
        text = "Press  this now"
        encoded = encoded_from_offsets(text, ["▁Pr", "ess", "▁this", "▁now"], [(0, 2), (2, 5), (5, 11), (11, 15)])
        self.assertEqual(encoded.starts, (0, 2, 7, 12))
        self.assertEqual(boundary(encoded, 7), 2)
        self.assertEqual(boundary(encoded, 6), 2)
        self.assertEqual(boundary(encoded, 11), 3)
        self.assertEqual(boundary(encoded, 15), 4)

    def test_a_lone_word_start_piece_has_no_characters(self) -> None:
        encoded = encoded_from_offsets("点击", ["▁", "点击"], [(0, 0), (0, 2)])
        self.assertEqual(encoded.starts, (0, 0))
        self.assertEqual(boundary(encoded, 0), 0)


def _pieces(text: str, pieces: list[str]) -> Encoded:
    """SentencePiece-like pieces of an unspaced text: each covers as many characters as it has."""
    offsets, position = [], 0
    for piece in pieces:
        length = len(piece.lstrip("▁"))
        offsets.append((position, position + length))
        position += length
    return encoded_from_offsets(text, pieces, offsets)


class CuttingTest(unittest.TestCase):
    def ends(self, text: str) -> list[int]:
        return sentence_ends(text, WordModel().encode(text))

    def test_sentence_ends_with_spaces(self) -> None:
        # Pieces: It costs 3.14 now. Really! 好。好 → after "now." and "Really!"; no full stop ends "好。好".
        self.assertEqual(self.ends("It costs 3.14 now. Really! 好。好"), [4, 5])
        self.assertEqual(self.ends("Born in 2020. Then? More"), [3, 4])
        self.assertEqual(self.ends('He said "Hi." Then left.'), [3, 5])

    def test_what_does_not_end_a_sentence(self) -> None:
        self.assertEqual(self.ends("See e.g. this one."), [4])
        self.assertEqual(self.ends("Wait.Then go"), [])
        self.assertEqual(self.ends("1. First item. 2. Second item."), [3, 6], "a number alone is no sentence")

    def test_full_width_ends_and_closing_quotes(self) -> None:
        text = "他说：“你好。”然后走了。"
        pieces = _pieces(text, ["▁他说", "：“", "你好", "。”", "然后", "走了", "。"])
        self.assertEqual(sentence_ends(text, pieces), [4, 7])
        text = "「真的吗？」她问。"
        pieces = _pieces(text, ["▁「", "真的吗", "？", "」", "她", "问", "。"])
        self.assertEqual(sentence_ends(text, pieces), [4, 7])

    def test_sentences_become_segments_and_long_ones_chunks(self) -> None:
        self.assertEqual(segment_ranges(400, [], 400), [(0, 400)])
        self.assertEqual(segment_ranges(10, [3, 6, 8, 10], 5), [(0, 3), (3, 6), (6, 8), (8, 10)])
        self.assertEqual(segment_ranges(12, [1], 5), [(0, 1), (1, 6), (6, 11), (11, 12)])
        self.assertEqual(segment_ranges(11, [], 5), [(0, 5), (5, 10), (10, 11)])

    def test_ranges_cover_everything_within_the_limit(self) -> None:
        for count, cuts, limit in [(1000, list(range(7, 1000, 7)), 400), (999, [500], 400), (401, [400], 400)]:
            ranges = segment_ranges(count, cuts, limit)
            self.assertEqual(ranges[0][0], 0)
            self.assertEqual(ranges[-1][1], count)
            for (_, end), (start, _) in pairwise(ranges):
                self.assertEqual(end, start)
            self.assertTrue(all(0 < high - low <= limit for low, high in ranges), ranges)


class AlignTest(unittest.TestCase):
    def test_each_target_token_takes_the_strongest_source_token(self) -> None:
        attention = [[0.1, 0.7, 0.2, 0.9], [0.5, 0.1, 0.1, 0.0], []]
        self.assertEqual(align(attention, 3), [1, 0, 0])

    def test_segments_join_with_a_space_or_without(self) -> None:
        first = TranslatedSegment(("▁A", "."), (0, 1))
        second = TranslatedSegment(("▁B", "."), (0, 1))
        glued = TranslatedSegment(("B", "."), (0, 1))
        self.assertEqual(join_segments([(first, 0), (second, 2)], True), (["▁A", ".", "▁B", "."], [0, 1, 2, 3]))
        self.assertEqual(join_segments([(first, 0), (glued, 2)], True), (["▁A", ".", "▁B", "."], [0, 1, 2, 3]))
        self.assertEqual(join_segments([(first, 0), (second, 2)], False), (["▁A", ".", "B", "."], [0, 1, 2, 3]))


class PlanTest(unittest.TestCase):
    def test_blank_and_placeholder_only_lines_need_no_model(self) -> None:
        def refuse(text: str) -> Encoded:
            raise AssertionError(f"encode called for {text!r}")

        for line in ["", "  \t", "<g1></g1>", " <x1/> <g2> </g2> "]:
            self.assertEqual(plan_line(line, refuse), line)
        self.assertEqual(plan_text("\n \r\n<x1/>", refuse), ["", "\n", " ", "\r\n", "<x1/>"])

    def test_a_plan_keeps_outer_whitespace_and_placeholder_boundaries(self) -> None:
        plan = plan_line("  Press <g1>this button</g1> now \t", WordModel().encode)
        assert isinstance(plan, LinePlan)
        self.assertEqual((plan.lead, plan.trail), ("  ", " \t"))
        self.assertEqual(plan.segments, (("▁Press", "▁this", "▁button", "▁now"),))
        self.assertEqual(plan.boundaries, (1, 3))


def _family(model: WordModel, max_batch: int = 32) -> tuple[TranslationFamily, tempfile.TemporaryDirectory[str]]:
    folder = tempfile.TemporaryDirectory()
    install(Path(folder.name), "words", source="xx", target="en")
    install(Path(folder.name), "words-zh", source="xx", target="zh")
    family = TranslationFamily(1, 2, 1024, max_batch, load=lambda spec, threads: model)
    family.update([read_installation(Path(folder.name) / name) for name in ("words", "words-zh")])
    return family, folder


class FamilyTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = WordModel()
        self.family, folder = _family(self.model)
        self.addCleanup(folder.cleanup)
        self.addCleanup(self.family.close, 10)

    def test_texts_come_back_in_order_with_their_whitespace_and_lines(self) -> None:
        texts = ["  hello world \n\n second line\r\n", "", " \n ", "one <g1>two</g1> three", "<x1/>", "<b>bold</b>"]
        self.assertEqual(
            self.family.translate("xx", "en", texts, 2),
            ["  HELLO WORLD \n\n SECOND LINE\r\n", "", " \n ", "ONE <g1>TWO</g1> THREE", "<x1/>", "<B>BOLD</B>"],
        )

    def test_identical_lines_are_translated_once(self) -> None:
        self.family.translate("xx", "en", ["same line", "same line\nsame line", "other"], 2)
        self.assertEqual(self.model.calls, [[("▁same", "▁line"), ("▁other",)]])

    def test_long_sentences_are_cut_and_nothing_is_lost(self) -> None:
        words = [f"w{k}" for k in range(2 * MAX_SEGMENT_TOKENS + 50)]
        text = " ".join(words)
        [translated] = self.family.translate("xx", "en", [text], 2)
        self.assertEqual(translated, text.upper())
        self.assertTrue(all(len(segment) <= MAX_SEGMENT_TOKENS for call in self.model.calls for segment in call))
        self.assertEqual(sum(len(call) for call in self.model.calls), 3)

    def test_sentences_are_translated_one_by_one_and_joined(self) -> None:
        line = "First one. <g1>Second <x2/>one!</g1> Third one"
        [translated] = self.family.translate("xx", "en", [line], 2)
        self.assertEqual(translated, "FIRST ONE. <g1>SECOND <x2/>ONE!</g1> THIRD ONE")
        self.assertEqual(self.model.calls, [[("▁First", "▁one."), ("▁Second", "▁one!"), ("▁Third", "▁one")]])

    def test_sentences_into_chinese_are_joined_without_spaces(self) -> None:
        sentence = " ".join(["a"] * (MAX_SEGMENT_TOKENS - 1)) + " b."
        [translated] = self.family.translate("xx", "zh", [" ".join([sentence] * 3)], 2)
        self.assertEqual(translated, sentence.upper() * 3)

    def test_unknown_pair_is_a_404(self) -> None:
        with self.assertRaises(ApiError) as raised:
            self.family.translate("zh", "de", ["x"], 2)
        self.assertEqual((raised.exception.status, raised.exception.message), (404, "No model translates zh to de."))

    def test_models_are_listed_by_pair(self) -> None:
        listed = self.family.routes()["models"].handle(None)
        self.assertEqual(
            listed,
            {
                "models": [
                    {"source": "xx", "target": "en", "name": "words", "version": "1.0"},
                    {"source": "xx", "target": "zh", "name": "words-zh", "version": "1.0"},
                ]
            },
        )


class RequestTest(unittest.TestCase):
    def refused(self, body: object) -> tuple[int, str]:
        with self.assertRaises(ApiError) as raised:
            parse_request(body, 2)
        return raised.exception.status, raised.exception.message

    def test_a_good_request(self) -> None:
        self.assertEqual(parse_request({"source": "zh", "target": "en", "texts": ["a"]}, 2), ("zh", "en", ["a"], 2))
        body = {"source": "zh", "target": "en", "texts": [], "beam_size": 8}
        self.assertEqual(parse_request(body, 2), ("zh", "en", [], 8))

    def test_each_mistake_names_its_field(self) -> None:
        good = {"source": "zh", "target": "en", "texts": ["a"]}
        cases = [
            ([], "The body must be a JSON object."),
            ({**good, "source": 1}, "Field 'source' must be a string."),
            ({"target": "en", "texts": []}, "Field 'source' is required."),
            ({**good, "target": ""}, "Field 'target' must not be empty."),
            ({**good, "texts": "a"}, "Field 'texts' must be an array of strings."),
            ({**good, "texts": ["a", None]}, "Field 'texts[1]' must be a string."),
            ({**good, "texts": ["\ud800"]}, "Field 'texts[0]' is not valid Unicode: surrogates not allowed."),
            ({**good, "beam_size": 0}, "Field 'beam_size' must be an integer from 1 to 8."),
            ({**good, "beam_size": True}, "Field 'beam_size' must be an integer from 1 to 8."),
            ({**good, "extra": 1}, "Unknown field 'extra'; the fields are source, target, texts, beam_size."),
        ]
        for body, message in cases:
            with self.subTest(body=body):
                self.assertEqual(self.refused(body), (400, message))

    def test_too_many_texts_is_a_413(self) -> None:
        status, message = self.refused({"source": "zh", "target": "en", "texts": ["a"] * (MAX_TEXTS + 1)})
        self.assertEqual(status, 413)
        self.assertIn("'texts'", message)


class SpecTest(unittest.TestCase):
    def test_separate_sentencepiece_models(self) -> None:
        with tempfile.TemporaryDirectory() as name:
            path = install(Path(name), "pair", source_sentencepiece="source.spm", target_sentencepiece="target.spm")
            (path / "source.spm").write_bytes(b"")
            with self.assertRaisesRegex(InstallationError, "target_sentencepiece"):
                TranslationSpec.read(read_installation(path))
            (path / "target.spm").write_bytes(b"")
            spec = TranslationSpec.read(read_installation(path))
            self.assertEqual(spec.source_sentencepiece, path / "source.spm")

    def test_paths_must_stay_inside(self) -> None:
        with tempfile.TemporaryDirectory() as name:
            path = install(Path(name), "pair", model="../elsewhere")
            with self.assertRaisesRegex(InstallationError, "'model' must be a path inside the directory"):
                TranslationSpec.read(read_installation(path))


if __name__ == "__main__":
    unittest.main()
