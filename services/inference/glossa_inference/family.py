"""What the HTTP server needs from a model family, and the checks families make on request bodies.

A family (``translation``, ``speech``) is one kind of model with its own protocol. It takes the
installations of the models folder that name it, loads and keeps its models, runs them through its
own :class:`~glossa_inference.batching.Batcher`, and offers *routes*: the server answers
``/v1/<family>/<action>`` by calling the route's handler with the request's JSON body (``None``
for a GET) and sending back the JSON object it returns. A handler reports a client's mistake by
raising :class:`ApiError`; anything else it raises is an internal error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .models import Receiver


class ApiError(Exception):
    """A request the service refuses: the HTTP status, a message naming the field and the reason."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})


@dataclass(frozen=True)
class Route:
    """One action of a family: the HTTP method it answers and its handler."""

    method: str
    handle: Callable[[Any], Mapping[str, Any]]


class Family(Receiver, Protocol):
    """One kind of model served under ``/v1/<name>/``; it receives its installations from the folder."""

    def model_count(self) -> int:
        """How many models are loaded and answering."""
        ...

    def routes(self) -> Mapping[str, Route]:
        """The actions served at ``/v1/<name>/<action>``."""
        ...

    def close(self, timeout: float) -> None:
        """Stops taking work and waits up to ``timeout`` seconds for the batch running now."""
        ...


def body_object(body: Any) -> Mapping[str, Any]:
    """The request body, which must be a JSON object."""
    if not isinstance(body, dict):
        raise ApiError(400, "The body must be a JSON object.")
    return body


def refuse_unknown_fields(body: Mapping[str, Any], known: Sequence[str]) -> None:
    """A 400 naming the first field of the body that the action does not take."""
    for key in body:
        if key not in known:
            raise ApiError(400, f"Unknown field '{key}'; the fields are {', '.join(known)}.")


def valid_text(value: Any, name: str) -> str:
    """A string that can be written back as UTF-8 (JSON lets lone surrogates through)."""
    if not isinstance(value, str):
        raise ApiError(400, f"Field '{name}' must be a string.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ApiError(400, f"Field '{name}' is not valid Unicode: {error.reason}.") from error
    return value


def required_text(body: Mapping[str, Any], key: str) -> str:
    """A required non-empty string field."""
    if key not in body:
        raise ApiError(400, f"Field '{key}' is required.")
    value = valid_text(body[key], key)
    if not value:
        raise ApiError(400, f"Field '{key}' must not be empty.")
    return value


def optional_integer(body: Mapping[str, Any], key: str, low: int, high: int, default: int) -> int:
    """An optional integer field within ``[low, high]``."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"Field '{key}' must be an integer from {low} to {high}.")
    return value
