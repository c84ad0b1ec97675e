"""The translation family: CTranslate2 models with SentencePiece, for OPUS-MT / Argos packages.

A request's texts go through three steps; only the middle one touches the model, on the family's
batching worker, so that texts of concurrent requests share ``translate_batch`` calls.

1. **Planning** (in the request's thread, pure functions). Each text is cut into lines, keeping
   the exact newline characters; a line keeps its leading and trailing whitespace, and a blank line,
   or one holding only placeholders and whitespace, stays as it is. Placeholders are taken out of
   the line (:mod:`.placeholders`) and the rest is encoded into SentencePiece pieces, with the
   character offset of each piece, so each placeholder becomes a boundary between source tokens.
   The line is cut into sentences, each translated on its own: the models were trained on
   sentences, and translate a paragraph of several far worse (on the Declaration of Human Rights,
   zh→en, chrF 66 against 77 on the paragraphs of more than one sentence). ``.!?`` end a sentence
   before whitespace and not before a lower-case letter; ``。！？`` anywhere, as Chinese and
   Japanese put no space after them; closing quotes stay with their sentence, and a "sentence"
   without a letter (``1.``) joins the next one. A sentence longer than :data:`MAX_SEGMENT_TOKENS`
   pieces is cut into chunks of that size: nothing is truncated. Placeholders are placed over the
   whole line, so a pair may span sentences.
2. **Translation** (the batching worker). Identical segments of one batch are translated once.
   Every target token is aligned to the source token it attended to most.
3. **Rendering** (the request's thread). A line's segments are joined with a space (none when the
   target is Chinese or Japanese), the placeholders are put back by the alignment, and the pieces
   are written as text: ``▁`` becomes a space and the outer spaces go.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any, Protocol

import ctranslate2
import sentencepiece

from .batching import Batcher
from .family import (
    ApiError,
    Route,
    body_object,
    optional_integer,
    refuse_unknown_fields,
    required_text,
    valid_text,
)
from .models import Installation, InstallationError, load_model, version_key
from .placeholders import WORD_START, Mark, join_pieces, place, strip_placeholders

MAX_TEXTS = 2000
MAX_SEGMENT_TOKENS = 400
MAX_BEAM_SIZE = 8
SPACELESS_TARGETS = frozenset({"zh", "ja"})

_NEWLINE = re.compile(r"(\r\n|\n|\r)")
_SENTENCE_END_BEFORE_SPACE = frozenset(".!?")
_SENTENCE_END_ANYWHERE = frozenset("。！？")
_SENTENCE_ENDS = _SENTENCE_END_BEFORE_SPACE | _SENTENCE_END_ANYWHERE
_CLOSERS = "\"')]}»’”」』）】》"

log = logging.getLogger(__name__)

Segment = tuple[str, ...]


@dataclass(frozen=True)
class Encoded:
    """A text's SentencePiece pieces; ``starts[k]`` is where piece k's own characters begin.

    A word-start piece covers the whitespace before its word; its start is after that whitespace,
    so that a placeholder written just before a word belongs before that word's piece.
    """

    pieces: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]


@dataclass(frozen=True)
class TranslatedSegment:
    """A segment's target pieces, and for each the index of the source piece it is aligned to."""

    pieces: tuple[str, ...]
    alignment: tuple[int, ...]


@dataclass(frozen=True)
class LinePlan:
    """A line to translate: its segments, and what is needed to write the translation back."""

    lead: str
    trail: str
    marks: tuple[Mark, ...]
    boundaries: tuple[int, ...]
    segments: tuple[Segment, ...]
    offsets: tuple[int, ...]


TextPlan = list[str | LinePlan]


class TranslationModel(Protocol):
    """What the family needs from a loaded model."""

    def encode(self, text: str) -> Encoded:
        """The text's source pieces with their character offsets."""
        ...

    def translate(self, segments: Sequence[Segment], beam_size: int) -> list[TranslatedSegment]:
        """One translation per segment, in order."""
        ...


def split_lines(text: str) -> list[tuple[str, str]]:
    """The text's lines, each with the newline that ended it (``\\r\\n``, ``\\n``, ``\\r`` or none)."""
    parts = _NEWLINE.split(text)
    parts.append("")
    return list(zip(parts[0::2], parts[1::2]))


def split_outer_whitespace(text: str) -> tuple[str, str, str]:
    """``(leading whitespace, the rest, trailing whitespace)``; a blank text is all leading."""
    core = text.strip()
    if not core:
        return text, "", ""
    start = len(text) - len(text.lstrip())
    return text[:start], core, text[start + len(core) :]


def encoded_from_offsets(text: str, pieces: Sequence[str], offsets: Sequence[tuple[int, int]]) -> Encoded:
    """Builds :class:`Encoded` from SentencePiece's per-piece ``(begin, end)`` character offsets."""
    starts = []
    for begin, end in offsets:
        while begin < end and text[begin].isspace():
            begin += 1
        starts.append(begin)
    return Encoded(tuple(pieces), tuple(starts), tuple(end for _, end in offsets))


def boundary(encoded: Encoded, offset: int) -> int:
    """The index of the first piece that starts at or after ``offset`` (or the number of pieces)."""
    return next((k for k, start in enumerate(encoded.starts) if start >= offset), len(encoded.starts))


def _sentence_end(text: str, encoded: Encoded, k: int) -> int | None:
    """Where the sentence ends if piece ``k`` ends one (after any closing quotes), else None.

    ``。！？`` end a sentence anywhere; ``.!?`` only before whitespace or the end of the line, and
    not before a lower-case letter (``e.g. this``).
    """
    body = text[encoded.starts[k] : encoded.ends[k]].rstrip(_CLOSERS)
    if not body or body[-1] not in _SENTENCE_ENDS:
        return None
    last = k
    while last + 1 < len(encoded.ends) and encoded.starts[last + 1] == encoded.ends[last]:
        following = text[encoded.starts[last + 1] : encoded.ends[last + 1]]
        if not following or following.strip(_CLOSERS):
            break
        last += 1
    if body[-1] in _SENTENCE_END_BEFORE_SPACE:
        after = text[encoded.ends[last] :]
        next_word = after.lstrip()[:1]
        if (after and not after[0].isspace()) or next_word.islower():
            return None
    return last + 1


def sentence_ends(text: str, encoded: Encoded) -> list[int]:
    """The piece indices where a sentence ends; a "sentence" without a letter joins the next one."""
    cuts: list[int] = []
    previous = 0
    for k in range(len(encoded.pieces)):
        cut = _sentence_end(text, encoded, k)
        if cut is None or (cuts and cut <= cuts[-1]):
            continue
        if any(character.isalpha() for character in text[previous : encoded.ends[cut - 1]]):
            cuts.append(cut)
            previous = encoded.ends[cut - 1]
    return cuts


def segment_ranges(count: int, cuts: Sequence[int], limit: int) -> list[tuple[int, int]]:
    """Cuts ``count`` pieces into sentences at ``cuts``, and sentences longer than ``limit`` into chunks."""
    bounds = [0, *(cut for cut in cuts if 0 < cut < count), count]
    return [(start, min(start + limit, high)) for low, high in pairwise(bounds) for start in range(low, high, limit)]


def plan_line(line: str, encode: Callable[[str], Encoded]) -> str | LinePlan:
    """The line unchanged when there is nothing to translate, else its :class:`LinePlan`."""
    lead, core, trail = split_outer_whitespace(line)
    stripped, marks = strip_placeholders(core)
    if not stripped.strip():
        return line
    encoded = encode(stripped)
    if not encoded.pieces:
        return line
    ranges = segment_ranges(len(encoded.pieces), sentence_ends(stripped, encoded), MAX_SEGMENT_TOKENS)
    return LinePlan(
        lead,
        trail,
        tuple(marks),
        tuple(boundary(encoded, mark.offset) for mark in marks),
        tuple(encoded.pieces[low:high] for low, high in ranges),
        tuple(low for low, _ in ranges),
    )


def plan_text(text: str, encode: Callable[[str], Encoded]) -> TextPlan:
    """The text as lines to translate and the literal parts (newlines, blank lines) between them."""
    parts: TextPlan = []
    for line, newline in split_lines(text):
        parts.append(plan_line(line, encode))
        if newline:
            parts.append(newline)
    return parts


def align(attention: Sequence[Sequence[float]], source_length: int) -> list[int]:
    """For each target token, the source token (below ``source_length``) with the highest weight."""
    alignment = []
    for row in attention:
        width = min(len(row), source_length)
        alignment.append(max(range(width), key=row.__getitem__) if width else 0)
    return alignment


def join_segments(parts: Sequence[tuple[TranslatedSegment, int]], spaced: bool) -> tuple[list[str], list[int]]:
    """Concatenates a line's translated segments; ``parts`` pairs each with its first source index.

    Each segment after the first starts a new word (``spaced``) or is glued on.
    """
    pieces: list[str] = []
    alignment: list[int] = []
    for number, (segment, offset) in enumerate(parts):
        own = list(segment.pieces)
        if number and own:
            first = own[0].lstrip(WORD_START)
            own[0] = WORD_START + first if spaced else first
        pieces.extend(own)
        alignment.extend(offset + source for source in segment.alignment)
    return pieces, alignment


def render_line(plan: LinePlan, translated: Mapping[Segment, TranslatedSegment], spaced: bool) -> str:
    """The line's translation with its placeholders and outer whitespace back."""
    pieces, alignment = join_segments(
        [(translated[segment], offset) for segment, offset in zip(plan.segments, plan.offsets)], spaced
    )
    return plan.lead + join_pieces(place(pieces, alignment, plan.marks, plan.boundaries)) + plan.trail


def render_text(parts: TextPlan, translated: Mapping[Segment, TranslatedSegment], spaced: bool) -> str:
    """The text's translation: translated lines and the literal parts, in order."""
    return "".join(render_line(part, translated, spaced) if isinstance(part, LinePlan) else part for part in parts)


@dataclass(frozen=True)
class TranslationSpec:
    """What ``installed.json`` says about a translation model."""

    installation: Installation
    source: str
    target: str
    model: Path
    source_sentencepiece: Path

    @classmethod
    def read(cls, installation: Installation) -> TranslationSpec:
        """Reads the family's fields; raises :class:`InstallationError` naming a bad one.

        ``source_sentencepiece`` and ``target_sentencepiece`` may replace ``sentencepiece``. Only
        the source model is loaded: target pieces are written as text directly, but the target
        model must exist for the installation to count as complete.
        """
        source_key = "source_sentencepiece" if "source_sentencepiece" in installation.manifest else "sentencepiece"
        target_key = "target_sentencepiece" if "target_sentencepiece" in installation.manifest else "sentencepiece"
        installation.file(target_key)
        return cls(
            installation,
            installation.text("source"),
            installation.text("target"),
            installation.file("model"),
            installation.file(source_key),
        )

    @property
    def key(self) -> tuple[Path, int]:
        """Identifies this installation on disk; a replaced ``installed.json`` changes it."""
        return self.installation.directory, self.installation.stamp

    def describe(self) -> str:
        return f"{self.source}→{self.target} ({self.installation.name} {self.installation.version})"


class CTranslate2Model:
    """A CTranslate2 translator with its source SentencePiece model, on the CPU in int8."""

    def __init__(self, spec: TranslationSpec, threads: int) -> None:
        self._encoder = sentencepiece.SentencePieceProcessor(model_file=str(spec.source_sentencepiece))
        self._translator = ctranslate2.Translator(
            str(spec.model), device="cpu", compute_type="int8", intra_threads=threads, inter_threads=1
        )
        self._name = spec.describe()

    def encode(self, text: str) -> Encoded:
        result = self._encoder.encode(text, out_type="offset_mapping")
        return encoded_from_offsets(text, result["pieces"], result["offsets"])

    def translate(self, segments: Sequence[Segment], beam_size: int) -> list[TranslatedSegment]:
        # Room for a target three times as long as the source; reaching it is logged, never silent.
        limit = 3 * max(len(segment) for segment in segments) + 16
        results = self._translator.translate_batch(
            [list(segment) for segment in segments],
            beam_size=beam_size,
            return_attention=True,
            max_decoding_length=limit,
        )
        translated = []
        for segment, result in zip(segments, results):
            pieces = result.hypotheses[0]
            if len(pieces) >= limit:
                log.warning("%s: a translation reached %d tokens and was cut there", self._name, limit)
            translated.append(TranslatedSegment(tuple(pieces), tuple(align(result.attention[0], len(segment)))))
        return translated


@dataclass(frozen=True)
class _Loaded:
    spec: TranslationSpec
    model: TranslationModel


Loader = Callable[[TranslationSpec, int], TranslationModel]
# Jobs run together when they use the same model object with the same beam size.
BatchKey = tuple[TranslationModel, int]


def parse_request(body: Any, default_beam_size: int) -> tuple[str, str, list[str], int]:
    """``(source, target, texts, beam_size)`` of a translate request, or an :class:`ApiError`."""
    body = body_object(body)
    refuse_unknown_fields(body, ("source", "target", "texts", "beam_size"))
    source = required_text(body, "source")
    target = required_text(body, "target")
    if "texts" not in body:
        raise ApiError(400, "Field 'texts' is required.")
    texts = body["texts"]
    if not isinstance(texts, list):
        raise ApiError(400, "Field 'texts' must be an array of strings.")
    if len(texts) > MAX_TEXTS:
        raise ApiError(413, f"Field 'texts' holds {len(texts)} texts; at most {MAX_TEXTS} are taken at once.")
    texts = [valid_text(text, f"texts[{index}]") for index, text in enumerate(texts)]
    beam_size = optional_integer(body, "beam_size", 1, MAX_BEAM_SIZE, default_beam_size)
    return source, target, texts, beam_size


class TranslationFamily:
    """Serves ``/v1/translation/models`` and ``/v1/translation/translate``."""

    name = "translation"

    def __init__(
        self,
        threads: int,
        beam_size: int,
        queue_limit: int,
        max_batch: int,
        load: Loader = CTranslate2Model,
    ) -> None:
        self._threads = threads
        self._beam_size = beam_size
        self._load = load
        self._models: dict[tuple[str, str], _Loaded] = {}
        self._failed: set[tuple[Path, int]] = set()
        self._batcher: Batcher[BatchKey, Segment, TranslatedSegment] = Batcher(
            self.name, self._run_batch, queue_limit, max_batch
        )

    def update(self, installations: Sequence[Installation]) -> None:
        """Per language pair, the highest version that loads wins; a model already loaded is kept."""
        candidates: dict[tuple[str, str], list[TranslationSpec]] = defaultdict(list)
        for installation in installations:
            try:
                spec = TranslationSpec.read(installation)
            except InstallationError as error:
                log.error("Ignoring the translation model in %s: %s", installation.directory, error)
                continue
            candidates[(spec.source, spec.target)].append(spec)
        current = self._models
        models: dict[tuple[str, str], _Loaded] = {}
        for pair, specs in candidates.items():
            specs.sort(key=lambda spec: (version_key(spec.installation.version), spec.installation.name), reverse=True)
            for spec in specs:
                loaded = self._obtain(spec, current.get(pair))
                if loaded is not None:
                    models[pair] = loaded
                    break
        for pair, loaded in current.items():
            if models.get(pair) is not loaded:
                log.info("Dropped the translation model %s", loaded.spec.describe())
        self._failed &= {spec.key for specs in candidates.values() for spec in specs}
        self._models = models

    def _obtain(self, spec: TranslationSpec, existing: _Loaded | None) -> _Loaded | None:
        """The loaded model for ``spec``: the existing one if it is the same, else a fresh load."""
        if existing is not None and existing.spec.key == spec.key:
            return existing
        model = load_model(spec, self._failed, self._load, self._threads, "translation", log)
        return None if model is None else _Loaded(spec, model)

    def model_count(self) -> int:
        return len(self._models)

    def routes(self) -> Mapping[str, Route]:
        return {"models": Route("GET", self._list), "translate": Route("POST", self._translate)}

    def close(self, timeout: float) -> None:
        self._batcher.close(timeout)

    def translate(self, source: str, target: str, texts: Sequence[str], beam_size: int) -> list[str]:
        """One translation per text, in order; raises :class:`ApiError` 404 for an unknown pair."""
        loaded = self._models.get((source, target))
        if loaded is None:
            raise ApiError(404, f"No model translates {source} to {target}.")
        plans = [plan_text(text, loaded.model.encode) for text in texts]
        segments = list(
            dict.fromkeys(
                segment for plan in plans for part in plan if isinstance(part, LinePlan) for segment in part.segments
            )
        )
        future = self._batcher.submit((loaded.model, beam_size), segments, weight=len(texts))
        translated = dict(zip(segments, future.result()))
        spaced = target not in SPACELESS_TARGETS
        return [render_text(plan, translated, spaced) for plan in plans]

    def _list(self, _body: Any) -> Mapping[str, Any]:
        models = sorted(self._models.items())
        return {
            "models": [
                {
                    "source": source,
                    "target": target,
                    "name": loaded.spec.installation.name,
                    "version": loaded.spec.installation.version,
                }
                for (source, target), loaded in models
            ]
        }

    def _translate(self, body: Any) -> Mapping[str, Any]:
        source, target, texts, beam_size = parse_request(body, self._beam_size)
        return {"translations": self.translate(source, target, texts, beam_size)}

    def _run_batch(self, key: BatchKey, segments: list[Segment]) -> list[TranslatedSegment]:
        """The batching worker's runner: one ``translate`` call, identical segments translated once."""
        model, beam_size = key
        unique = list(dict.fromkeys(segments))
        answers = dict(zip(unique, model.translate(unique, beam_size)))
        return [answers[segment] for segment in segments]
