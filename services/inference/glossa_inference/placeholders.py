"""Glossa's inline placeholders, taken out of a line before translation and put back after.

Glossa replaces markup with three spellings before text reaches a model: ``<gN>`` opens a pair,
``</gN>`` closes it, and ``<xN/>`` stands alone (N is a positive integer without leading zeros).
Nothing else is a placeholder: ``<b>`` or a lone ``<`` is ordinary text.

The model sees the line without its placeholders. Each placeholder is remembered as a *boundary*
between source tokens (the index of the first token that starts at or after its place). After
translation every target token is aligned to one source token (the one it attended to most), and
the placeholders are put back among the target tokens:

* a pair spanning source tokens ``[i, j)`` wraps the smallest run of target tokens that covers every
  target token aligned into ``[i, j)``; when none is, it becomes an empty pair at the target
  boundary of ``i``;
* a standalone placeholder at source boundary ``p`` goes before the first target token (in target
  order) aligned to a source token at or after ``p``, or at the end.

The result is always well-formed: every placeholder appears exactly once, pairs nest as they did in
the source (a child's span is clipped into its parent's, overlapping siblings are made disjoint),
and a close or open that had no partner in the source is treated as a standalone placeholder.

Target tokens are SentencePiece pieces, where ``▁`` marks the start of a word. When placeholders
stand before a word-start piece, its space is written after the closing placeholders and before the
others, so that spaces stay outside the pairs: ``Press <g1>this button</g1> now``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

WORD_START = "\u2581"

_PLACEHOLDER = re.compile(r"<(/?)g([1-9][0-9]*)>|<x([1-9][0-9]*)/>")


class Kind(enum.Enum):
    """What a placeholder does: open a pair, close one, or stand alone."""

    OPEN = "open"
    CLOSE = "close"
    EMPTY = "empty"


@dataclass(frozen=True)
class Mark:
    """One placeholder of a line: its exact spelling and its offset in the line without placeholders."""

    text: str
    kind: Kind
    number: int
    offset: int


def strip_placeholders(line: str) -> tuple[str, list[Mark]]:
    """Returns the line without its placeholders, and the placeholders in source order."""
    marks: list[Mark] = []
    kept: list[str] = []
    length = 0
    position = 0
    for match in _PLACEHOLDER.finditer(line):
        before = line[position : match.start()]
        kept.append(before)
        length += len(before)
        position = match.end()
        if match.group(3) is not None:
            kind, number = Kind.EMPTY, int(match.group(3))
        else:
            kind, number = (Kind.CLOSE if match.group(1) else Kind.OPEN), int(match.group(2))
        marks.append(Mark(match.group(0), kind, number, length))
    kept.append(line[position:])
    return "".join(kept), marks


@dataclass
class _Point:
    """A standalone placeholder and the target boundary it is placed at."""

    mark: int
    position: int = 0


@dataclass
class _Pair:
    """A matched open/close pair, its children, and the target span ``[start, end)`` it wraps."""

    open: int
    close: int
    children: list[_Point | _Pair] = field(default_factory=list)
    start: int = 0
    end: int = 0


def _build_tree(marks: Sequence[Mark]) -> list[_Point | _Pair]:
    """Matches opens with closes as a stack does; whatever does not match becomes a point."""
    root: list[_Point | _Pair] = []
    stack: list[_Pair] = []

    def container() -> list[_Point | _Pair]:
        return stack[-1].children if stack else root

    for index, mark in enumerate(marks):
        if mark.kind is Kind.OPEN:
            stack.append(_Pair(index, -1))
        elif mark.kind is Kind.CLOSE and stack and marks[stack[-1].open].number == mark.number:
            pair = stack.pop()
            pair.close = index
            container().append(pair)
        else:
            container().append(_Point(index))
    while stack:
        unmatched = stack.pop()
        container().append(_Point(unmatched.open))
        container().extend(unmatched.children)
    return root


class _Alignment:
    """Questions about which target tokens are aligned to which source tokens."""

    def __init__(self, alignment: Sequence[int]) -> None:
        self._alignment = alignment

    def boundary(self, source: int) -> int:
        """The first target token aligned to a source token at or after ``source``, or the end."""
        return next((t for t, s in enumerate(self._alignment) if s >= source), len(self._alignment))

    def span(self, begin: int, end: int) -> tuple[int, int]:
        """The smallest target span covering every token aligned into ``[begin, end)``."""
        inside = [t for t, s in enumerate(self._alignment) if begin <= s < end]
        if not inside:
            at = self.boundary(begin)
            return at, at
        return min(inside), max(inside) + 1


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


def _fit(
    nodes: Sequence[_Point | _Pair], low: int, high: int, boundaries: Sequence[int], alignment: _Alignment
) -> None:
    """Gives every node a target place inside ``[low, high]``, siblings' spans disjoint.

    Where two sibling spans overlap, a non-empty one that starts later cuts the earlier one short;
    otherwise the later one moves to the earlier one's end.
    """
    pairs = [node for node in nodes if isinstance(node, _Pair)]
    for pair in pairs:
        start, end = alignment.span(boundaries[pair.open], boundaries[pair.close])
        pair.start = _clamp(start, low, high)
        pair.end = _clamp(end, pair.start, high)
    pairs.sort(key=lambda pair: (pair.start, pair.end, pair.open))
    for previous, current in pairwise(pairs):
        if current.start >= previous.end:
            continue
        if current.start > previous.start and current.end > current.start:
            previous.end = current.start
        else:
            current.start = previous.end
            current.end = max(current.end, current.start)
    for pair in pairs:
        _fit(pair.children, pair.start, pair.end, boundaries, alignment)
    for node in nodes:
        if isinstance(node, _Point):
            node.position = _clamp(alignment.boundary(boundaries[node.mark]), low, high)


def _order(node: _Point | _Pair) -> tuple[int, int, int]:
    """Emission order: by target place; at one place, points and empty pairs before a wrapping pair."""
    if isinstance(node, _Point):
        return node.position, 0, node.mark
    return node.start, 0 if node.start == node.end else 1, node.open


def _emit(
    nodes: Sequence[_Point | _Pair],
    low: int,
    high: int,
    pieces: Sequence[str],
    marks: Sequence[Mark],
    out: list[str | Mark],
) -> None:
    cursor = low
    for node in sorted(nodes, key=_order):
        if isinstance(node, _Point):
            at = max(cursor, node.position)
            out.extend(pieces[cursor:at])
            out.append(marks[node.mark])
            cursor = at
        else:
            out.extend(pieces[cursor : node.start])
            out.append(marks[node.open])
            _emit(node.children, node.start, node.end, pieces, marks, out)
            out.append(marks[node.close])
            cursor = node.end
    out.extend(pieces[cursor:high])


def place(
    pieces: Sequence[str], alignment: Sequence[int], marks: Sequence[Mark], boundaries: Sequence[int]
) -> list[str | Mark]:
    """Interleaves the placeholders with the target pieces.

    ``alignment[t]`` is the source token that target piece ``t`` is aligned to; ``boundaries[k]`` is
    the source boundary of ``marks[k]``.
    """
    tree = _build_tree(marks)
    aligned = _Alignment(alignment)
    _fit(tree, 0, len(pieces), boundaries, aligned)
    out: list[str | Mark] = []
    _emit(tree, 0, len(pieces), pieces, marks, out)
    return out


def _after_last_outer_close(run: Sequence[Mark]) -> int:
    """The index just after the run's last close of a pair opened before the run (0 if none)."""
    opened: list[int] = []
    split = 0
    for index, mark in enumerate(run):
        if mark.kind is Kind.OPEN:
            opened.append(mark.number)
        elif mark.kind is Kind.CLOSE:
            if opened and opened[-1] == mark.number:
                opened.pop()
            else:
                split = index + 1
    return split


def join_pieces(sequence: Sequence[str | Mark]) -> str:
    """Writes target pieces (and placeholders among them) as text: ``▁`` becomes a space, outer spaces go.

    A word-start space after a run of placeholders is written after the run's last close of a pair
    opened before the run (or before the whole run when there is none), so it stays outside the
    pairs: ``button</g1> now``, ``press <g1>this``, ``save <x1/>now``.
    """
    out: list[str] = []
    run: list[Mark] = []
    for item in sequence:
        if isinstance(item, Mark):
            run.append(item)
            continue
        text = item.replace(WORD_START, " ")
        if run and text.startswith(" "):
            split = _after_last_outer_close(run)
            out.extend(mark.text for mark in run[:split])
            out.append(" ")
            out.extend(mark.text for mark in run[split:])
            text = text[1:]
        else:
            out.extend(mark.text for mark in run)
        run = []
        out.append(text)
    out.extend(mark.text for mark in run)
    return "".join(out).strip()
