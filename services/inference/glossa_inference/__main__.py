"""``python -m glossa_inference``: binds the address, loads the models, serves until SIGTERM or SIGINT.

The shared secret comes from the environment (``INFERENCE_SECRET``), never from the command line,
so that it does not show in the process list; it is never logged. Once the models are loaded the
program writes ``Serving http://HOST:PORT`` on standard error: a caller waits for that line (or for
``/health``). Connections made while the models load wait in the listen backlog.

Logs go to standard error. ``GLOSSA_LOG`` takes the same values as for Glossa's other programs
(``warn``, ``info``, ``debug``, ...; the last bare level of a comma-separated filter counts, and
per-module directives are ignored); the default is ``info``.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .models import ModelFolder
from .server import App, InferenceServer
from .speech import SpeechFamily
from .translation import MAX_BEAM_SIZE, TranslationFamily
from .voices import Voices

SECRET_VARIABLE = "INFERENCE_SECRET"
STOP_GRACE = 10.0

_LEVELS = {
    "trace": logging.DEBUG,
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warn": logging.WARNING,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "off": logging.CRITICAL + 1,
}

log = logging.getLogger("glossa_inference")


def listen_address(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a socket address."""
    host, separator, port = value.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not separator or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"'{value}' is not HOST:PORT")
    return host, int(port)


def _integer_from(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            number = low - 1
        if number < low or (high is not None and number > high):
            bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise argparse.ArgumentTypeError(f"'{value}' is not an integer {bounds}")
        return number

    return parse


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m glossa_inference",
        description="Serves translation, speech recognition and speech synthesis models to Glossa's components over HTTP. "
        f"The shared secret is read from the environment variable {SECRET_VARIABLE}.",
    )
    parser.add_argument("--listen", type=listen_address, required=True, help="HOST:PORT to listen on")
    parser.add_argument("--models", type=Path, required=True, help="the models folder")
    parser.add_argument(
        "--threads",
        type=_integer_from(1),
        default=len(os.sched_getaffinity(0)),
        help="threads per model computation (default: the CPUs this process may use)",
    )
    parser.add_argument("--queue", type=_integer_from(1), default=1024, help="texts that may wait (default 1024)")
    parser.add_argument("--max-batch", type=_integer_from(1), default=32, help="sentences per model call (default 32)")
    parser.add_argument(
        "--beam-size", type=_integer_from(1, MAX_BEAM_SIZE), default=2, help="default beam size (default 2)"
    )
    parser.add_argument(
        "--speech-model",
        metavar="NAME",
        help="the speech model a transcription without 'model' uses (default: a multilingual one, else any)",
    )
    parser.add_argument(
        "--speech-queue",
        type=_integer_from(1),
        default=16,
        help="transcriptions that may wait (default 16); as many syntheses may wait",
    )
    parser.add_argument(
        "--voices",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of Piper voices (NAME.onnx with NAME.onnx.json), besides those installed as packages; repeatable",
    )
    return parser.parse_args(argv)


def log_level(setting: str | None) -> int:
    """The level a ``GLOSSA_LOG`` filter sets for this program (``info`` when it names none)."""
    level = logging.INFO
    for directive in (setting or "").split(","):
        level = _LEVELS.get(directive.strip().lower(), level)
    return level


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    logging.basicConfig(
        level=log_level(os.environ.get("GLOSSA_LOG")),
        format="%(asctime)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    secret = os.environ.get(SECRET_VARIABLE, "")
    if not secret.strip():
        print(
            f"glossa-inference: a shared secret is required: set the environment variable {SECRET_VARIABLE}",
            file=sys.stderr,
        )
        return 2

    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        # faster-whisper logs every transcription at info level; the speech family logs its own at debug.
        logging.getLogger("faster_whisper").setLevel(logging.WARNING)

    family = TranslationFamily(arguments.threads, arguments.beam_size, arguments.queue, arguments.max_batch)
    voices = Voices(arguments.threads, arguments.speech_queue, arguments.voices)
    speech = SpeechFamily(
        arguments.threads, arguments.beam_size, arguments.speech_queue, arguments.speech_model, voices=voices
    )
    families = [family, speech]
    folder = ModelFolder(arguments.models, families)
    host, port = arguments.listen
    try:
        server = InferenceServer((host, port), App(secret, folder, families))
    except OSError as error:
        print(f"glossa-inference: cannot listen on {host}:{port}: {error}", file=sys.stderr)
        for each in families:
            each.close(0)
        return 1

    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.set())

    if not arguments.models.is_dir():
        log.warning("The models folder %s does not exist: no model is served until it does", arguments.models)
    started = time.monotonic()
    voices.load()
    log.info("%d voices ready", voices.count())
    started = time.monotonic()
    folder.refresh()
    log.info(
        "%d translation models ready in %.2f s (%d threads, beam size %d, queue %d, batches of %d)",
        family.model_count(),
        time.monotonic() - started,
        arguments.threads,
        arguments.beam_size,
        arguments.queue,
        arguments.max_batch,
    )
    log.info(
        "%d speech models ready (default %s, queue %d)",
        speech.model_count(),
        speech.default_model() or "none",
        arguments.speech_queue,
    )

    threading.Thread(target=server.serve_forever, name="http", daemon=True).start()
    shown = f"[{server.server_name}]" if ":" in server.server_name else server.server_name
    print(f"Serving http://{shown}:{server.server_port}", file=sys.stderr, flush=True)

    stop.wait()
    log.info("Stopping")
    deadline = time.monotonic() + STOP_GRACE
    server.shutdown()
    for each in families:
        each.close(max(0.0, deadline - time.monotonic()))
    if not server.wait_idle(max(0.0, deadline - time.monotonic())):
        log.warning("Requests still in progress after %.0f s were cut off", STOP_GRACE)
    server.server_close()
    log.info("Stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
