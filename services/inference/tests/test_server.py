"""The HTTP server on a real socket, with the translation family over a stand-in model and a fake family."""

from __future__ import annotations

import http.client
import json
import socket
import tempfile
import unittest
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

from glossa_inference import server as server_module
from glossa_inference.batching import Busy
from glossa_inference.family import Route, body_object, required_text
from glossa_inference.models import Installation, ModelFolder
from glossa_inference.server import MAX_BODY, App
from glossa_inference.translation import MAX_TEXTS, TranslationFamily

from .support import SECRET, LocalServer, WordModel, install

AUTH = {"Authorization": f"Bearer {SECRET}"}


def head(request_line: str, *headers: str) -> bytes:
    """A request head as bytes, with the secret among the headers."""
    return "\r\n".join([request_line, f"Authorization: Bearer {SECRET}", *headers, "", ""]).encode()


class FakeFamily:
    """A family whose actions echo, report a full queue, or fail."""

    name = "fake"

    def update(self, installations: Sequence[Installation]) -> None:
        pass

    def model_count(self) -> int:
        return 3

    def routes(self) -> Mapping[str, Route]:
        return {"echo": Route("POST", self.echo), "busy": Route("POST", self.busy), "crash": Route("GET", self.crash)}

    def close(self, timeout: float) -> None:
        pass

    def echo(self, body: Any) -> Mapping[str, Any]:
        return {"said": required_text(body_object(body), "say")}

    def busy(self, body: Any) -> Mapping[str, Any]:
        raise Busy("the queue holds 1024 of at most 1024")

    def crash(self, body: Any) -> Mapping[str, Any]:
        raise RuntimeError("disk on fire\nand more")


class ServerTest(LocalServer, unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.directory = tempfile.TemporaryDirectory()
        install(Path(cls.directory.name), "words", source="xx", target="en")
        cls.family = TranslationFamily(1, 2, 64, 8, load=lambda spec, threads: WordModel(spec, threads))
        folder = ModelFolder(Path(cls.directory.name), [cls.family])
        folder.refresh()
        cls.serve(App(SECRET, folder, [cls.family, FakeFamily()]))

    def connect(self) -> http.client.HTTPConnection:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        self.addCleanup(connection.close)
        return connection

    def request(
        self, method: str, path: str, body: Any = None, headers: Mapping[str, str] = AUTH
    ) -> tuple[int, http.client.HTTPResponse, Any]:
        connection = self.connect()
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        connection.request(method, path, data, dict(headers))
        response = connection.getresponse()
        raw = response.read()
        self.assertEqual(response.getheader("Content-Type"), "application/json")
        if method != "HEAD":
            self.assertEqual(int(response.getheader("Content-Length", "-1")), len(raw))
        return response.status, response, json.loads(raw) if raw else None

    def raw(self, data: bytes) -> tuple[int, http.client.HTTPResponse, Any]:
        """Sends bytes as they are and reads one answer."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        self.addCleanup(sock.close)
        sock.sendall(data)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, response, json.loads(response.read())

    def translate(self, body: Any) -> tuple[int, http.client.HTTPResponse, Any]:
        return self.request("POST", "/v1/translation/translate", body)

    def test_health_needs_no_secret(self) -> None:
        status, _, body = self.request("GET", "/health", headers={})
        self.assertEqual(status, 200)
        self.assertEqual(body, {"status": "ok", "families": {"translation": {"models": 1}, "fake": {"models": 3}}})

    def test_the_secret_is_required(self) -> None:
        for headers, reason in [
            ({}, "is required"),
            ({"Authorization": "Bearer wrong"}, "does not hold the right secret"),
            ({"Authorization": f"Basic {SECRET}"}, "does not hold the right secret"),
            ({"Authorization": f"Bearer {SECRET}x"}, "does not hold the right secret"),
        ]:
            with self.subTest(headers=headers):
                status, response, body = self.request("GET", "/v1/translation/models", headers=headers)
                self.assertEqual(status, 401)
                self.assertIn(reason, body["message"])
                self.assertNotIn(SECRET, body["message"])
                self.assertEqual(response.getheader("WWW-Authenticate"), "Bearer")

    def test_models_and_translation(self) -> None:
        status, _, body = self.request("GET", "/v1/translation/models")
        self.assertEqual(
            (status, body), (200, {"models": [{"source": "xx", "target": "en", "name": "words", "version": "1.0"}]})
        )
        status, _, body = self.translate({"source": "xx", "target": "en", "texts": ["a <g1>b</g1>", " c\nd ", ""]})
        self.assertEqual((status, body), (200, {"translations": ["A <g1>B</g1>", " C\nD ", ""]}))

    def test_connections_are_kept_alive(self) -> None:
        connection = self.connect()
        sockets = []
        for word in ["one", "two", "three"]:
            connection.request("POST", "/v1/fake/echo", json.dumps({"say": word}).encode(), AUTH)
            response = connection.getresponse()
            self.assertEqual(json.loads(response.read()), {"said": word})
            sockets.append(connection.sock)
        self.assertTrue(all(sock is sockets[0] for sock in sockets))

    def test_mistakes_in_the_body_name_the_field(self) -> None:
        cases = [
            ({"source": "xx", "target": "en"}, "Field 'texts' is required."),
            ({"source": "xx", "target": "en", "texts": [1]}, "Field 'texts[0]' must be a string."),
            (
                {"source": "xx", "target": "en", "texts": [], "beam_size": 9},
                "Field 'beam_size' must be an integer from 1 to 8.",
            ),
            (b'{"source": ', "The body is not valid JSON: Expecting value: line 1 column 12 (char 11)."),
            (b"\xff\xfe\x00", "The body is not valid JSON"),
            (b"[" * 100_000, "The body is not valid JSON"),
        ]
        for body, message in cases:
            with self.subTest(body=repr(body)[:40]):
                status, _, answer = self.translate(body)
                self.assertEqual(status, 400)
                self.assertTrue(answer["message"].startswith(message), answer["message"])

    def test_unknown_pair(self) -> None:
        status, _, body = self.translate({"source": "zh", "target": "en", "texts": ["你好"]})
        self.assertEqual((status, body), (404, {"message": "No model translates zh to en."}))

    def test_unknown_paths_and_wrong_methods(self) -> None:
        for path in [
            "/",
            "/v1/translation",
            "/v1/translation/nothing",
            "/v1/nothing/models",
            "/v1/translation/models/",
        ]:
            with self.subTest(path=path):
                status, _, body = self.request("GET", path)
                self.assertEqual(status, 404)
                self.assertIn("POST /v1/translation/translate", body["message"])
        status, response, body = self.request("GET", "/v1/translation/translate")
        self.assertEqual((status, response.getheader("Allow")), (405, "POST"))
        self.assertIn("GET", body["message"])
        status, response, _ = self.request("POST", "/health", b"{}", headers={})
        self.assertEqual((status, response.getheader("Allow")), (405, "GET"))
        status, response, body = self.request("HEAD", "/health", headers={})
        self.assertEqual((status, body), (405, None))

    def test_a_missing_length_is_a_411(self) -> None:
        status, _, body = self.raw(head("POST /v1/translation/translate HTTP/1.1", "Host: x"))
        self.assertEqual((status, body), (411, {"message": "The header 'Content-Length' is required."}))
        status, response, _ = self.raw(head("POST /v1/fake/echo HTTP/1.1", "Transfer-Encoding: chunked"))
        self.assertEqual((status, response.getheader("Connection")), (411, "close"))

    def test_a_large_body_is_refused_before_it_is_read(self) -> None:
        status, response, body = self.raw(head("POST /v1/fake/echo HTTP/1.1", f"Content-Length: {MAX_BODY + 1}"))
        self.assertEqual(status, 413)
        self.assertIn(str(MAX_BODY), body["message"])
        self.assertEqual(response.getheader("Connection"), "close")

    def test_too_many_texts_is_a_413(self) -> None:
        status, _, body = self.translate({"source": "xx", "target": "en", "texts": ["a"] * (MAX_TEXTS + 1)})
        self.assertEqual(status, 413)
        self.assertIn("'texts'", body["message"])

    def test_a_bad_length_is_a_400(self) -> None:
        status, _, body = self.raw(head("POST /v1/fake/echo HTTP/1.1", "Content-Length: -1"))
        self.assertEqual(
            (status, body["message"]), (400, "The header 'Content-Length' must be a non-negative integer.")
        )

    def test_a_slow_body_is_a_408(self) -> None:
        with mock.patch.object(server_module, "BODY_TIMEOUT", 0.3):
            status, _, body = self.raw(head("POST /v1/fake/echo HTTP/1.1", "Content-Length: 20") + b"{")
        self.assertEqual(status, 408)
        self.assertIn("did not arrive", body["message"])

    def test_a_full_queue_is_a_503_with_retry_after(self) -> None:
        status, response, body = self.request("POST", "/v1/fake/busy", {})
        self.assertEqual(status, 503)
        self.assertEqual(response.getheader("Retry-After"), "1")
        self.assertIn("queue is full", body["message"])

    def test_an_internal_failure_is_logged_on_one_line(self) -> None:
        with self.assertLogs("glossa_inference.server", "ERROR") as logs:
            status, _, body = self.request("GET", "/v1/fake/crash")
        self.assertEqual((status, body), (500, {"message": "Internal error."}))
        self.assertEqual(len(logs.output), 1)
        self.assertIn("GET /v1/fake/crash failed: RuntimeError: disk on fire and more", logs.output[0])

    def test_refusals_of_the_standard_library_are_json_too(self) -> None:
        status, _, body = self.raw(b"BREW /health HTTP/1.1\r\n\r\n")
        self.assertEqual(status, 501)
        self.assertIn("BREW", body["message"])
        headers = "".join(f"X-{k}: {k}\r\n" for k in range(101))
        status, _, body = self.raw(f"GET /health HTTP/1.1\r\n{headers}\r\n".encode())
        self.assertEqual((status, body), (431, {"message": "Too many headers."}))

    def test_an_unread_body_closes_the_connection(self) -> None:
        status, response, _ = self.raw(b"GET /health HTTP/1.1\r\nContent-Length: 4\r\n\r\nGET ")
        self.assertEqual((status, response.getheader("Connection")), (200, "close"))


if __name__ == "__main__":
    unittest.main()
