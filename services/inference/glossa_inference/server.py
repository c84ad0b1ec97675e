"""The HTTP side: routing, the shared secret, request bodies, and turning failures into JSON answers.

The server is the standard library's :class:`~http.server.ThreadingHTTPServer` (one daemon thread
per connection, HTTP/1.1 keep-alive with exact ``Content-Length``). Requests are small and few
connections are open at a time: the callers are Glossa's components on the same machine, and the
models' work is serialised on each family's batching worker anyway.

* ``GET /health`` needs no secret; everything else needs ``Authorization: Bearer <secret>``,
  compared as SHA-256 digests in constant time.
* ``/v1/<family>/<action>`` is answered by the family's route (see :mod:`.family`); the models
  folder is checked for changes first.
* A body needs a ``Content-Length`` (411 without one) of at most :data:`MAX_BODY` bytes (413,
  checked before reading) that arrives within :data:`BODY_TIMEOUT` seconds (408). A connection that
  sends no request head for :data:`HEAD_TIMEOUT` seconds is closed. A body left unread (the request
  was refused before it) closes the connection after the answer, so it is never taken for a request.
* Every answer is JSON; every error is ``{"message": ...}``. A full queue is a 503 with
  ``Retry-After: 1``; an unexpected exception is a 500 ``{"message": "Internal error."}``, its
  cause logged on one line.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import socket
import socketserver
import threading
import time
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from .batching import Busy, Closed
from .family import ApiError, Family, Route
from .models import ModelFolder

HEAD_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
MAX_BODY = 4 * 1024 * 1024
READ_CHUNK = 64 * 1024

log = logging.getLogger(__name__)

Answer = tuple[int, Mapping[str, Any], Mapping[str, str]]


def one_line(text: str) -> str:
    """Text fit for a single log line."""
    return " ".join(text.split())


class App:
    """The service's state as the handler sees it: the secret, the families and the models folder."""

    def __init__(self, secret: str, folder: ModelFolder, families: Sequence[Family]) -> None:
        self._digest = hashlib.sha256(secret.encode()).digest()
        self.folder = folder
        self.families = {family.name: family for family in families}

    def authorized(self, header: str | None) -> bool:
        """Whether an ``Authorization`` header holds ``Bearer <the secret>``."""
        scheme, _, token = (header or "").strip().partition(" ")
        given = hashlib.sha256(token.strip().encode()).digest()
        return hmac.compare_digest(given, self._digest) and scheme.lower() == "bearer"

    def health(self) -> Mapping[str, Any]:
        return {
            "status": "ok",
            "families": {name: {"models": family.model_count()} for name, family in self.families.items()},
        }

    def route(self, path: str) -> Route:
        """The family route at ``/v1/<family>/<action>``, or a 404."""
        parts = path.split("/")
        if len(parts) == 4 and parts[:2] == ["", "v1"] and parts[2] in self.families:
            route = self.families[parts[2]].routes().get(parts[3])
            if route is not None:
                return route
        raise ApiError(404, f"There is no route {path}; the routes are {', '.join(self._route_list())}.")

    def _route_list(self) -> list[str]:
        routes = ["GET /health"]
        for name, family in self.families.items():
            routes.extend(f"{route.method} /v1/{name}/{action}" for action, route in family.routes().items())
        return routes


class InferenceServer(ThreadingHTTPServer):
    """A threading HTTP server that counts the requests in progress, for a graceful stop."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], app: App) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.app = app
        self._active = 0
        self._idle = threading.Condition()
        super().__init__(address, Handler)

    def server_bind(self) -> None:
        # The base class looks the host's name up in DNS; the address is all that is needed.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)

    def request_started(self) -> None:
        with self._idle:
            self._active += 1

    def request_finished(self) -> None:
        with self._idle:
            self._active -= 1
            self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Waits until no request is in progress; False if some still are after ``timeout``."""
        with self._idle:
            return self._idle.wait_for(lambda: self._active == 0, timeout)


class Handler(BaseHTTPRequestHandler):
    """Answers one connection's requests."""

    server: InferenceServer
    protocol_version = "HTTP/1.1"
    timeout = HEAD_TIMEOUT
    _body_read = False

    def version_string(self) -> str:
        return "glossa-inference"

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def do_PUT(self) -> None:
        self._serve()

    def do_PATCH(self) -> None:
        self._serve()

    def do_DELETE(self) -> None:
        self._serve()

    def do_HEAD(self) -> None:
        self._serve()

    def do_OPTIONS(self) -> None:
        self._serve()

    def _serve(self) -> None:
        self.server.request_started()
        self._body_read = False
        try:
            status, payload, headers = self._answer()
            self._send(status, payload, headers)
        finally:
            self.server.request_finished()

    def _answer(self) -> Answer:
        path = urlsplit(self.path).path
        try:
            return 200, self._dispatch(path), {}
        except ApiError as error:
            return error.status, {"message": error.message}, error.headers
        except Busy:
            return 503, {"message": "The queue is full; retry in a moment."}, {"Retry-After": "1"}
        except Closed:
            return 503, {"message": "The service is shutting down."}, {"Retry-After": "1"}
        except Exception as error:
            log.error("%s %s failed: %s: %s", self.command, path, type(error).__name__, one_line(str(error)))
            return 500, {"message": "Internal error."}, {}

    def _dispatch(self, path: str) -> Mapping[str, Any]:
        app = self.server.app
        if path == "/health":
            self._require_method("GET")
            return app.health()
        route = app.route(path)
        header = self.headers.get("Authorization")
        if not app.authorized(header):
            reason = "is required" if header is None else "does not hold the right secret"
            raise ApiError(
                401, f"The header 'Authorization' {reason}: send 'Bearer <secret>'.", {"WWW-Authenticate": "Bearer"}
            )
        self._require_method(route.method)
        body = self._read_json() if route.method == "POST" else None
        app.folder.maybe_refresh()
        return route.handle(body)

    def _require_method(self, allowed: str) -> None:
        if self.command != allowed:
            raise ApiError(405, f"Method {self.command} is not allowed here; use {allowed}.", {"Allow": allowed})

    def _read_json(self) -> Any:
        if "Transfer-Encoding" in self.headers:
            raise ApiError(411, "Send the body with a 'Content-Length' header; 'Transfer-Encoding' is not accepted.")
        declared = self.headers.get("Content-Length")
        if declared is None:
            raise ApiError(411, "The header 'Content-Length' is required.")
        if not (declared.isascii() and declared.isdigit()):
            raise ApiError(400, "The header 'Content-Length' must be a non-negative integer.")
        length = int(declared)
        if length > MAX_BODY:
            raise ApiError(413, f"The body holds {length} bytes; at most {MAX_BODY} are taken.")
        data = self._read_body(length)
        try:
            return json.loads(data)
        except (ValueError, RecursionError) as error:
            raise ApiError(400, f"The body is not valid JSON: {one_line(str(error))}.") from error

    def _read_body(self, length: int) -> bytes:
        """Reads exactly ``length`` bytes, all of them within :data:`BODY_TIMEOUT` seconds."""
        deadline = time.monotonic() + BODY_TIMEOUT
        chunks: list[bytes] = []
        remaining = length
        try:
            while remaining:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                self.connection.settimeout(left)
                chunk = self.rfile.read1(min(remaining, READ_CHUNK))
                if not chunk:
                    raise ApiError(400, f"The body ended after {length - remaining} of {length} bytes.")
                chunks.append(chunk)
                remaining -= len(chunk)
        except TimeoutError as error:
            raise ApiError(408, f"The body did not arrive within {BODY_TIMEOUT:.0f} s.") from error
        finally:
            self.connection.settimeout(HEAD_TIMEOUT)
        self._body_read = True
        return b"".join(chunks)

    def _body_unread(self) -> bool:
        """Whether the request came with a body that was not read: the connection cannot go on."""
        headers = getattr(self, "headers", None)
        if headers is None or self._body_read:
            return False
        return "Transfer-Encoding" in headers or headers.get("Content-Length", "0").strip() not in ("", "0")

    def _send(self, status: int, payload: Mapping[str, Any], headers: Mapping[str, str], close: bool = False) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            if close or self._body_unread():
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
        except OSError as error:
            self.close_connection = True
            log.debug("Could not send the answer: %s", error)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's own refusals (a bad request line, an unknown method), as JSON."""
        text = message or HTTPStatus(code).phrase
        self._send(code, {"message": text if text.endswith(".") else f"{text}."}, {}, close=True)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)
