"""Placeholder parsing, re-insertion by a given alignment, and writing pieces as text."""

from __future__ import annotations

import random
import re
import unittest

from glossa_inference.placeholders import Kind, Mark, join_pieces, place, strip_placeholders

from .support import nesting, structure

PLEASE = ["▁Please", "▁press", "▁this", "▁button", "▁to", "▁continue", "."]
# Source: ▁请 按 这个 按钮 继续 。 (the model's real attention, reduced to the strongest source token)
PLEASE_ALIGNMENT = [1, 1, 2, 3, 5, 4, 5]


def restore(pieces: list[str], alignment: list[int], source: str, boundaries: list[int]) -> str:
    _, marks = strip_placeholders(source)
    return join_pieces(place(pieces, alignment, marks, boundaries))


class StripTest(unittest.TestCase):
    def test_takes_out_the_three_spellings_with_their_offsets(self) -> None:
        stripped, marks = strip_placeholders("请按<g1>这个按钮</g1>继续<x2/>。")
        self.assertEqual(stripped, "请按这个按钮继续。")
        self.assertEqual(
            marks,
            [
                Mark("<g1>", Kind.OPEN, 1, 2),
                Mark("</g1>", Kind.CLOSE, 1, 6),
                Mark("<x2/>", Kind.EMPTY, 2, 8),
            ],
        )

    def test_other_angle_brackets_are_text(self) -> None:
        for text in ["<b>bold</b>", "a < b", "<g0>", "<g01>x</g01>", "<x1>", "</x1/>", "<g1/>", "< g1>", "<G1>", "<"]:
            with self.subTest(text=text):
                self.assertEqual(strip_placeholders(text), (text, []))

    def test_large_numbers_and_adjacent_marks(self) -> None:
        stripped, marks = strip_placeholders("<g12><x345/></g12>ok")
        self.assertEqual(stripped, "ok")
        self.assertEqual(
            [(m.text, m.number, m.offset) for m in marks], [("<g12>", 12, 0), ("<x345/>", 345, 0), ("</g12>", 12, 0)]
        )


class PlaceTest(unittest.TestCase):
    def test_pair_wraps_the_aligned_target_tokens_with_spaces_outside(self) -> None:
        text = restore(PLEASE, PLEASE_ALIGNMENT, "请按<g1>这个按钮</g1>继续。", [2, 4])
        self.assertEqual(text, "Please press <g1>this button</g1> to continue.")

    def test_standalone_goes_before_the_first_token_aligned_at_or_after_it(self) -> None:
        pieces, alignment = ["▁Click", "▁to", "▁save", "."], [1, 2, 2, 3]
        self.assertEqual(restore(pieces, alignment, "点击<x1/>保存。", [2]), "Click <x1/>to save.")
        self.assertEqual(restore(pieces, alignment, "点击保存。<x1/>", [4]), "Click to save.<x1/>")
        self.assertEqual(restore(pieces, alignment, "<x1/>点击保存。", [0]), "<x1/>Click to save.")

    def test_placeholders_at_start_and_end(self) -> None:
        source = "<g1>请按这个按钮继续。</g1>"
        self.assertEqual(
            restore(PLEASE, PLEASE_ALIGNMENT, source, [0, 6]), "<g1>Please press this button to continue.</g1>"
        )
        source = "<x1/><g2>请按这个按钮继续。</g2><x3/>"
        self.assertEqual(
            restore(PLEASE, PLEASE_ALIGNMENT, source, [0, 0, 6, 6]),
            "<x1/><g2>Please press this button to continue.</g2><x3/>",
        )

    def test_empty_pair_stays_empty_at_its_target_boundary(self) -> None:
        text = restore(PLEASE, PLEASE_ALIGNMENT, "请按<g1></g1>这个按钮继续。", [2, 2])
        self.assertEqual(text, "Please press <g1></g1>this button to continue.")

    def test_pair_with_nothing_aligned_inside_is_empty(self) -> None:
        # Nothing is aligned to source token 0 (▁请): the pair is empty before the first token aligned at or after it.
        text = restore(PLEASE, PLEASE_ALIGNMENT, "<g1>请</g1>按这个按钮继续。", [0, 1])
        self.assertEqual(text, "<g1></g1>Please press this button to continue.")

    def test_nested_pairs_stay_nested_when_the_alignment_disagrees(self) -> None:
        # The child's source tokens [3, 4) are aligned to "button"; the parent's [2, 3) only to "this".
        # The child is clipped into the parent: it cannot stay outside it.
        source = "请按<g1>这个<g2>按钮</g2></g1>继续。"
        text = restore(PLEASE, [1, 1, 2, 3, 5, 4, 5], source, [2, 3, 4, 4])
        self.assertEqual(nesting(text), {"<g1>": (), "<g2>": ("<g1>",), "</g2>": ("<g1>",), "</g1>": ()})
        self.assertEqual(text, "Please press <g1>this <g2>button</g2></g1> to continue.")

    def test_child_aligned_outside_its_parent_is_clipped(self) -> None:
        source = "<g1>请按<g2>继续</g2></g1>这个按钮。"
        # Parent: source [0, 4) → target tokens 0..3; child: source [2, 3)... aligned to "to" (index 4), outside.
        text = restore(PLEASE, [0, 1, 5, 5, 2, 4, 4], source, [0, 2, 3, 4])
        self.assertEqual(nesting(text)["<g2>"], ("<g1>",))
        structure(text)

    def test_overlapping_siblings_are_made_disjoint(self) -> None:
        source = "<g1>请按这个</g1><g2>按钮继续</g2>。"
        # g1 covers source [0, 3) and g2 [3, 5); their target spans overlap ("▁continue" → 2 sits inside g2).
        text = restore(PLEASE, [0, 1, 3, 4, 3, 2, 5], source, [0, 3, 3, 5])
        self.assertEqual(text, "<g1>Please press</g1> <g2>this button to</g2> continue.")

    def test_siblings_may_change_places(self) -> None:
        source = "<g1>请按</g1><g2>这个按钮</g2>继续。"
        text = restore(PLEASE, [3, 3, 1, 1, 5, 5, 5], source, [0, 2, 2, 4])
        self.assertEqual(text, "<g2>Please press</g2> <g1>this button</g1> to continue.")

    def test_unmatched_and_crossing_marks_each_appear_once(self) -> None:
        for source, boundaries in [
            ("请按<g1>这个按钮继续。", [2]),
            ("请按这个</g1>按钮继续。", [3]),
            ("<g1>请按<g2>这个</g1>按钮</g2>继续。", [0, 2, 3, 4]),
            ("<g1>请</g2>按</g1>", [0, 1, 2]),
        ]:
            with self.subTest(source=source):
                _, marks = strip_placeholders(source)
                text = restore(PLEASE, PLEASE_ALIGNMENT, source, boundaries)
                for mark in marks:
                    self.assertEqual(text.count(mark.text), 1, text)

    def test_no_target_tokens(self) -> None:
        self.assertEqual(restore([], [], "<g1>a</g1><x2/>", [0, 1, 1]), "<g1></g1><x2/>")

    def test_random_trees_and_alignments_are_always_well_formed(self) -> None:
        generator = random.Random(7)
        for _ in range(2000):
            source, boundaries = _random_source(generator)
            _, marks = strip_placeholders(source)
            target_length = generator.randint(0, 8)
            source_length = (max(boundaries) if boundaries else 0) + generator.randint(0, 2)
            alignment = [generator.randint(0, max(source_length - 1, 0)) for _ in range(target_length)]
            pieces = [f"▁w{k}" for k in range(target_length)]
            text = join_pieces(place(pieces, alignment, marks, boundaries))
            self.assertEqual(nesting(text), nesting(source), (source, boundaries, alignment, text))
            self.assertEqual(len(structure(text)), len(marks))
            self.assertEqual(_words(text), [f"w{k}" for k in range(target_length)], text)


def _words(text: str) -> list[str]:
    return re.sub(r"</?g[0-9]+>|<x[0-9]+/>", " ", text).split()


def _random_source(generator: random.Random) -> tuple[str, list[int]]:
    """A well-formed source of unique placeholders, with non-decreasing token boundaries."""
    counter = iter(range(1, 100))
    parts: list[str] = []

    def grow(depth: int) -> None:
        for _ in range(generator.randint(0, 3)):
            choice = generator.random()
            if choice < 0.4 and depth < 3:
                number = next(counter)
                parts.append(f"<g{number}>")
                grow(depth + 1)
                parts.append(f"</g{number}>")
            elif choice < 0.7:
                parts.append(f"<x{next(counter)}/>")
            else:
                parts.append("字")

    grow(0)
    boundaries: list[int] = []
    position = 0
    for part in parts:
        if part == "字":
            position += 1
        else:
            boundaries.append(position)
    return "".join(parts), boundaries


class JoinPiecesTest(unittest.TestCase):
    def test_word_start_pieces_become_spaces_and_outer_spaces_go(self) -> None:
        self.assertEqual(join_pieces(["▁It", "'", "s", "▁a", "▁nice", "▁day", "."]), "It's a nice day.")
        self.assertEqual(join_pieces(["▁", "<", "b", ">"]), "<b>")
        self.assertEqual(join_pieces([]), "")

    def test_space_goes_after_closes_and_before_opens(self) -> None:
        _, marks = strip_placeholders("<g1></g1><g2><x3/>")
        open1, close1, open2, point3 = marks
        self.assertEqual(join_pieces(["▁a", close1, "▁b"]), "a</g1> b")
        self.assertEqual(join_pieces(["▁a", open2, "▁b"]), "a <g2>b")
        self.assertEqual(join_pieces(["▁a", close1, open2, "▁b"]), "a</g1> <g2>b")
        self.assertEqual(join_pieces(["▁a", point3, "▁b"]), "a <x3/>b")
        self.assertEqual(join_pieces(["▁a", open1, close1, "▁b"]), "a <g1></g1>b")
        self.assertEqual(join_pieces(["▁a", close1, "b"]), "a</g1>b")
        self.assertEqual(join_pieces([open2, "▁a", close1]), "<g2>a</g1>")


if __name__ == "__main__":
    unittest.main()
