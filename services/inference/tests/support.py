"""Helpers shared by the tests: a word-level stand-in model, placeholder structure, model folders,
the server run in-process, and the real program run in a subprocess."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from glossa_inference.family import Family
from glossa_inference.placeholders import WORD_START
from glossa_inference.server import App, InferenceServer
from glossa_inference.translation import Encoded, Segment, TranslatedSegment, TranslationSpec

SECRET = "test-secret"

_TAG = re.compile(r"<(/?)g([1-9][0-9]*)>|<x([1-9][0-9]*)/>")


def structure(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each placeholder of a well-formed text with the opens enclosing it, in order of appearance.

    Raises AssertionError when the text is not well-formed (a close that does not match).
    """
    stack: list[str] = []
    found = []
    for match in _TAG.finditer(text):
        tag = match.group(0)
        if match.group(1):
            assert stack and stack[-1] == f"<g{match.group(2)}>", f"{tag} does not close the open pair in {text!r}"
            stack.pop()
            found.append((tag, tuple(stack)))
        else:
            found.append((tag, tuple(stack)))
            if match.group(3) is None:
                stack.append(tag)
    assert not stack, f"{stack} left open in {text!r}"
    return found


def nesting(text: str) -> dict[str, tuple[str, ...]]:
    """Each placeholder's enclosing opens (placeholders are unique in the texts the tests use)."""
    return dict(structure(text))


class WordModel:
    """Stands in for a model: words are pieces, and each translates to itself in upper case.

    ``encode`` gives SentencePiece-like pieces (``▁`` before each word, offsets covering the space
    before it); ``translate`` aligns target piece k to source piece k and records every call.
    """

    def __init__(self, spec: TranslationSpec | None = None, threads: int = 1) -> None:
        self.spec = spec
        self.threads = threads
        self.calls: list[list[Segment]] = []
        self.lock = threading.Lock()

    def encode(self, text: str) -> Encoded:
        pieces, starts, ends = [], [], []
        for match in re.finditer(r"\S+", text):
            pieces.append(WORD_START + match.group(0))
            starts.append(match.start())
            ends.append(match.end())
        return Encoded(tuple(pieces), tuple(starts), tuple(ends))

    def translate(self, segments: Sequence[Segment], beam_size: int) -> list[TranslatedSegment]:
        with self.lock:
            self.calls.append(list(segments))
        return [TranslatedSegment(tuple(p.upper() for p in s), tuple(range(len(s)))) for s in segments]


def install(folder: Path, directory: str, *, family: str = "translation", version: str = "1.0", **fields: Any) -> Path:
    """Writes a complete fake installation (empty model files) into ``folder/directory``."""
    path = folder / directory
    (path / "model").mkdir(parents=True, exist_ok=True)
    (path / "sentencepiece.model").write_bytes(b"")
    manifest = {
        "family": family,
        "source": "zh",
        "target": "en",
        "name": directory,
        "version": version,
        "model": "model",
        "sentencepiece": "sentencepiece.model",
        **fields,
    }
    (path / "installed.json").write_text(json.dumps(manifest))
    return path


def request(
    port: int, method: str, path: str, body: Any = None, secret: str | None = SECRET, timeout: float = 10
) -> tuple[int, Any]:
    """Sends ``body`` as JSON to the local port, with the secret unless it is None; the status and the JSON answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, None if body is None else json.dumps(body).encode(), headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


class LocalServer:
    """Mixin for a test class that serves an ``App`` in this process on a free port.

    ``setUpClass`` sets ``directory`` and ``family`` and calls ``serve``; ``tearDownClass`` stops the
    server, closes the family (waiting at most ``close_timeout`` seconds) and removes the directory.
    """

    directory: ClassVar[tempfile.TemporaryDirectory[str]]
    family: ClassVar[Family]
    server: ClassVar[InferenceServer]
    port: ClassVar[int]
    close_timeout: ClassVar[float] = 10

    @classmethod
    def serve(cls, app: App) -> None:
        """Starts the server in a daemon thread and records it and its port."""
        cls.server = InferenceServer(("127.0.0.1", 0), app)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.port = cls.server.server_address[1]

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.shutdown()
        cls.server.server_close()
        cls.family.close(cls.close_timeout)
        cls.directory.cleanup()


class JsonRequests(LocalServer):
    """``LocalServer`` with ``request``: JSON in and out, the secret as a Bearer token."""

    request_timeout: ClassVar[float] = 10

    def request(self, method: str, path: str, body: Any = None, secret: str | None = SECRET) -> tuple[int, Any]:
        return request(self.port, method, path, body, secret, self.request_timeout)


class Service:
    """The real program in a subprocess on a free port (``--listen 127.0.0.1:0``), its log collected."""

    ROOT = Path(__file__).resolve().parent.parent

    def __init__(self, models: Path | str, *arguments: str, secret: str = SECRET) -> None:
        self.secret = secret
        environment = {**os.environ, "INFERENCE_SECRET": secret}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "glossa_inference", "--listen", "127.0.0.1:0", "--models", str(models), *arguments],
            cwd=self.ROOT,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        ready: queue.Queue[str] = queue.Queue()
        self._reader = threading.Thread(target=self._read, args=(ready,), daemon=True)
        self._reader.start()
        try:
            line = ready.get(timeout=120)
        except queue.Empty:
            line = ""
        match = re.fullmatch(r"Serving http://127\.0\.0\.1:([0-9]+)", line)
        if match is None:
            self._end(kill=True)
            raise AssertionError(f"the service did not start: {self.lines}")
        self.port = int(match.group(1))

    def _read(self, ready: queue.Queue[str]) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("Serving "):
                ready.put(line.rstrip("\n"))
        ready.put("(the service exited)")

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return request(self.port, method, path, body, self.secret, timeout=300)

    def stop(self) -> int:
        """Sends SIGTERM and returns the exit status (killing the program if it does not stop)."""
        return self._end(kill=False)

    def _end(self, kill: bool) -> int:
        if kill:
            self.process.kill()
        else:
            self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self._reader.join(10)
        assert self.process.stderr is not None
        self.process.stderr.close()
        return status
