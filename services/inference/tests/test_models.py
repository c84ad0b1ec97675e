"""The models folder: scanning, version precedence, rescanning on change, failed loads."""

from __future__ import annotations

import os
import shutil
import tempfile
import unittest
from collections.abc import Sequence
from pathlib import Path

from glossa_inference.models import Installation, ModelFolder, scan, version_key
from glossa_inference.translation import TranslationFamily, TranslationSpec

from .support import WordModel, install


class Recorder:
    """A family that records what it is handed."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.updates: list[list[str]] = []

    def update(self, installations: Sequence[Installation]) -> None:
        self.updates.append(sorted(installation.name for installation in installations))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FolderTestCase(unittest.TestCase):
    def setUp(self) -> None:
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.folder = Path(directory.name)


class ScanTest(FolderTestCase):
    def test_only_complete_valid_installations_count(self) -> None:
        install(self.folder, "complete")
        (self.folder / "unfinished").mkdir()
        (self.folder / "unfinished" / "model").mkdir()
        broken = install(self.folder, "broken")
        (broken / "installed.json").write_text("{not json")
        nameless = install(self.folder, "nameless")
        (nameless / "installed.json").write_text('{"family": "translation", "version": "1"}')
        (self.folder / "a-file.json").write_text("{}")
        with self.assertLogs("glossa_inference.models", "ERROR") as logs:
            found = scan(self.folder)
        self.assertEqual([installation.name for installation in found], ["complete"])
        self.assertEqual(len(logs.records), 2)
        self.assertIn("'name' must be a non-empty string", logs.output[1])

    def test_a_missing_folder_is_empty(self) -> None:
        self.assertEqual(scan(self.folder / "absent"), [])

    def test_versions_compare_numerically(self) -> None:
        ordered = ["0.9", "1", "1.2", "1.9", "1.9.1", "1.10", "2.0-beta", "10"]
        self.assertEqual(sorted(reversed(ordered), key=version_key), ordered)


class RescanTest(FolderTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.clock = Clock()
        self.translation = Recorder("translation")
        self.speech = Recorder("speech")
        self.models = ModelFolder(self.folder, [self.translation, self.speech], interval=1.0, clock=self.clock)

    def check(self, seconds: float = 1.0) -> None:
        self.clock.now += seconds
        self.models.maybe_refresh()

    def test_each_family_gets_its_own_installations(self) -> None:
        install(self.folder, "zh-en")
        install(self.folder, "whisper", family="speech")
        install(self.folder, "other", family="unknown")
        with self.assertLogs("glossa_inference.models", "INFO"):
            self.models.refresh()
        self.assertEqual(self.translation.updates, [["zh-en"]])
        self.assertEqual(self.speech.updates, [["whisper"]])

    def test_changes_are_seen_at_most_once_per_interval(self) -> None:
        install(self.folder, "zh-en")
        self.models.refresh()
        self.check()
        self.assertEqual(len(self.translation.updates), 1, "an unchanged folder is not rescanned")

        install(self.folder, "ja-en")
        self.check(0.5)
        self.assertEqual(len(self.translation.updates), 1, "too soon after the last check")
        self.check(0.5)
        self.assertEqual(self.translation.updates[-1], ["ja-en", "zh-en"])

        shutil.rmtree(self.folder / "zh-en")
        self.check()
        self.assertEqual(self.translation.updates[-1], ["ja-en"])

        manifest = self.folder / "ja-en" / "installed.json"
        stamp = manifest.stat().st_mtime_ns + 1_000_000
        os.utime(manifest, ns=(stamp, stamp))
        self.check()
        self.assertEqual(len(self.translation.updates), 4, "a replaced installed.json is a change")

    def test_an_installation_completing_is_a_change(self) -> None:
        (self.folder / "zh-en").mkdir()
        self.models.refresh()
        self.assertEqual(self.translation.updates, [[]])
        install(self.folder, "zh-en")
        self.check()
        self.assertEqual(self.translation.updates[-1], ["zh-en"])


class LoadingTest(FolderTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.loads: list[str] = []
        self.broken: set[str] = set()
        self.family = TranslationFamily(1, 2, 16, 4, load=self.load)
        self.addCleanup(self.family.close, 10)
        self.models = ModelFolder(self.folder, [self.family])

    def load(self, spec: TranslationSpec, threads: int) -> WordModel:
        self.loads.append(spec.installation.name)
        if spec.installation.name in self.broken:
            raise RuntimeError("unsupported model format")
        return WordModel(spec, threads)

    def listed(self) -> list[tuple[str, str, str]]:
        models = self.family.routes()["models"].handle(None)["models"]
        return [(model["source"], model["target"], model["version"]) for model in models]

    def test_the_highest_version_wins(self) -> None:
        install(self.folder, "a", version="1.9")
        install(self.folder, "b", version="1.10")
        install(self.folder, "c", version="2.0", source="ja")
        with self.assertLogs("glossa_inference.translation", "INFO"):
            self.models.refresh()
        self.assertEqual(self.listed(), [("ja", "en", "2.0"), ("zh", "en", "1.10")])
        self.assertEqual(sorted(self.loads), ["b", "c"])

    def test_unchanged_models_stay_loaded_and_removed_ones_go(self) -> None:
        install(self.folder, "a", version="1")
        install(self.folder, "c", version="1", source="ja")
        self.models.refresh()
        install(self.folder, "b", version="2")
        self.models.refresh()
        self.assertEqual(self.loads, ["a", "c", "b"])
        shutil.rmtree(self.folder / "b")
        self.models.refresh()
        self.assertEqual(self.loads, ["a", "c", "b", "a"], "the older one is loaded again")
        shutil.rmtree(self.folder / "c")
        with self.assertLogs("glossa_inference.translation", "INFO") as logs:
            self.models.refresh()
        self.assertEqual(self.listed(), [("zh", "en", "1")])
        self.assertIn("Dropped the translation model ja→en", logs.output[0])

    def test_a_model_that_fails_to_load_is_left_out_and_not_retried(self) -> None:
        install(self.folder, "old", version="1")
        install(self.folder, "new", version="2")
        install(self.folder, "only", version="1", source="ja")
        self.broken = {"new", "only"}
        with self.assertLogs("glossa_inference.translation", "ERROR") as logs:
            self.models.refresh()
        self.assertEqual(self.listed(), [("zh", "en", "1")])
        self.assertEqual(len(logs.records), 2)
        self.assertIn("unsupported model format", logs.output[0])
        self.assertEqual(self.family.model_count(), 1)
        install(self.folder, "unrelated", version="1", source="ko")
        self.models.refresh()
        self.assertEqual(self.loads.count("new"), 1)

    def test_an_installation_missing_its_files_is_left_out(self) -> None:
        path = install(self.folder, "a")
        (path / "sentencepiece.model").unlink()
        with self.assertLogs("glossa_inference.translation", "ERROR") as logs:
            self.models.refresh()
        self.assertEqual(self.listed(), [])
        self.assertIn("'sentencepiece' names", logs.output[0])


if __name__ == "__main__":
    unittest.main()
