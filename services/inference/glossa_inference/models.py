"""The models folder: which installations it holds, and noticing when that changes.

Glossa installs every model in a directory of its own, ``DIR/<name>/``, writing to a temporary
directory and renaming it into place; ``installed.json`` marks a complete installation, and a
directory without one is ignored. The file names the model family and the installation::

    {"family": "translation", "name": "translate-zh_en-1_9", "version": "1.9", ...}

Everything else in it (language codes, paths of model files relative to the directory) belongs to
the family, which reads it from :attr:`Installation.manifest`.

:class:`ModelFolder` scans the folder at start and again when it changes: the folder's entries and
the modification times of their ``installed.json`` files are compared, at most once per
``interval`` seconds, when a request that uses models arrives. Each family is then handed the
installations that name it and loads or drops models to match.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, Protocol

INSTALLED = "installed.json"
CHECK_INTERVAL = 1.0

log = logging.getLogger(__name__)

FolderState = tuple[tuple[str, int | None], ...]


class InstallationError(Exception):
    """An installation that cannot be used, with the reason."""


@dataclass(frozen=True)
class Installation:
    """One complete installation: its directory and what its ``installed.json`` says."""

    directory: Path
    family: str
    name: str
    version: str
    manifest: Mapping[str, Any]
    stamp: int

    def text(self, key: str) -> str:
        """A required non-empty string field of ``installed.json``."""
        return _text(self.manifest, key, self.directory / INSTALLED)

    def file(self, key: str) -> Path:
        """A required field naming a path relative to the installation's directory that exists."""
        relative = self.text(key)
        parts = PurePath(relative)
        if parts.is_absolute() or ".." in parts.parts:
            raise InstallationError(f"{self.directory / INSTALLED}: '{key}' must be a path inside the directory")
        path = self.directory / relative
        if not path.exists():
            raise InstallationError(f"{self.directory / INSTALLED}: '{key}' names {path}, which does not exist")
        return path


def _text(manifest: Mapping[str, Any], key: str, path: Path) -> str:
    value = manifest.get(key)
    if not isinstance(value, str) or not value:
        raise InstallationError(f"{path}: '{key}' must be a non-empty string")
    return value


def version_key(version: str) -> tuple[int, ...]:
    """Orders dotted versions numerically: ``1.10`` after ``1.9``; a part's leading digits count."""
    key = []
    for part in version.split("."):
        digits = re.match(r"[0-9]*", part.strip())
        key.append(int(digits.group(0)) if digits and digits.group(0) else 0)
    return tuple(key)


def read_installation(directory: Path) -> Installation:
    """Reads ``directory/installed.json``; raises :class:`InstallationError` saying what is wrong."""
    path = directory / INSTALLED
    try:
        stamp = path.stat().st_mtime_ns
        manifest = json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise InstallationError(f"{path}: {error}") from error
    if not isinstance(manifest, dict):
        raise InstallationError(f"{path}: must hold a JSON object")
    family, name, version = (_text(manifest, key, path) for key in ("family", "name", "version"))
    return Installation(directory, family, name, version, manifest, stamp)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return sorted((entry for entry in entries if entry.is_dir()), key=lambda entry: entry.name)
    except OSError:
        return []


def folder_state(folder: Path) -> FolderState:
    """The folder's subdirectories with their ``installed.json`` modification times (None: none)."""
    state = []
    for entry in _entries(folder):
        try:
            stamp: int | None = os.stat(os.path.join(entry.path, INSTALLED)).st_mtime_ns
        except OSError:
            stamp = None
        state.append((entry.name, stamp))
    return tuple(state)


def scan(folder: Path) -> list[Installation]:
    """Every complete installation in the folder; a broken one is logged and left out."""
    found = []
    for entry in _entries(folder):
        directory = Path(entry.path)
        if not (directory / INSTALLED).is_file():
            continue
        try:
            found.append(read_installation(directory))
        except InstallationError as error:
            log.error("Ignoring the installation in %s: %s", directory, error)
    return found


class Receiver(Protocol):
    """What the folder hands installations to: a model family (see :class:`.family.Family`)."""

    name: str

    def update(self, installations: Sequence[Installation]) -> None:
        """Loads the models of these installations (this family's only) and drops the others."""
        ...


class ModelFolder:
    """Keeps the families' models in step with the folder's installations."""

    def __init__(
        self,
        path: Path,
        families: Sequence[Receiver],
        interval: float = CHECK_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._path = path
        self._families = families
        self._interval = interval
        self._clock = clock
        self._state: FolderState | None = None
        self._checked = -math.inf
        self._lock = threading.Lock()

    def refresh(self) -> None:
        """Scans the folder now and hands every family its installations."""
        with self._lock:
            self._refresh()

    def maybe_refresh(self) -> None:
        """Rescans if the folder changed, looking at most once per interval.

        Never waits for a rescan in progress: the caller goes on with the models loaded so far.
        """
        if self._clock() - self._checked < self._interval or not self._lock.acquire(blocking=False):
            return
        try:
            if self._clock() - self._checked >= self._interval:
                self._checked = self._clock()
                if folder_state(self._path) != self._state:
                    self._refresh()
        finally:
            self._lock.release()

    def _refresh(self) -> None:
        self._state = folder_state(self._path)
        installations = scan(self._path)
        names = {family.name for family in self._families}
        for installation in installations:
            if installation.family not in names:
                log.info(
                    "Ignoring %s: this service has no model family '%s'", installation.directory, installation.family
                )
        for family in self._families:
            family.update([installation for installation in installations if installation.family == family.name])
        self._checked = self._clock()


def load_model(
    spec: Any, failed: set[Any], load: Callable[[Any, int], Any], threads: int, kind: str, logger: logging.Logger
) -> Any | None:
    """Loads the model of ``spec`` (a family's spec: ``key``, ``installation``, ``describe()``) with
    ``load``, logging on the family's ``logger`` how long it took; a failure is logged and
    remembered in ``failed``, so the same installation is not tried again until it changes.
    ``kind`` names the family in the log."""
    if spec.key in failed:
        return None
    started = time.monotonic()
    try:
        model = load(spec, threads)
    except Exception as error:  # a model that cannot load is logged; the service serves the others
        logger.error("Cannot load the %s model in %s: %s", kind, spec.installation.directory, error)
        failed.add(spec.key)
        return None
    logger.info("Loaded the %s model %s in %.2f s", kind, spec.describe(), time.monotonic() - started)
    return model
