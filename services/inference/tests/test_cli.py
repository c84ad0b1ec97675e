"""The command line: its checks, the ready line, /health, and stopping on SIGTERM (no model needed)."""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import tempfile
import unittest

from glossa_inference.__main__ import listen_address, log_level

from .support import Service


class ArgumentsTest(unittest.TestCase):
    def test_listen_addresses(self) -> None:
        self.assertEqual(listen_address("127.0.0.1:2741"), ("127.0.0.1", 2741))
        self.assertEqual(listen_address("[::1]:80"), ("::1", 80))
        for bad in ["2741", "127.0.0.1", ":80", "host:port", "127.0.0.1:70000"]:
            with self.subTest(address=bad), self.assertRaises(argparse.ArgumentTypeError):
                listen_address(bad)

    def test_log_levels_follow_the_filter_syntax_of_glossas_other_programs(self) -> None:
        self.assertEqual(log_level(None), logging.INFO)
        self.assertEqual(log_level("warn"), logging.WARNING)
        self.assertEqual(log_level("runner=debug,error"), logging.ERROR)
        self.assertEqual(log_level("nonsense"), logging.INFO)


class ProgramTest(unittest.TestCase):
    def test_the_secret_is_required(self) -> None:
        environment = {key: value for key, value in os.environ.items() if key != "INFERENCE_SECRET"}
        for secret in [None, "", "  "]:
            if secret is not None:
                environment["INFERENCE_SECRET"] = secret
            with self.subTest(secret=secret):
                finished = subprocess.run(
                    [sys.executable, "-m", "glossa_inference", "--listen", "127.0.0.1:0", "--models", "/nonexistent"],
                    cwd=Service.ROOT,
                    env=environment,
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
                self.assertEqual(finished.returncode, 2)
                self.assertIn("INFERENCE_SECRET", finished.stderr)

    def test_serves_an_empty_folder_and_stops_cleanly(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            service = Service(folder, "--threads", "1")
            try:
                self.assertEqual(
                    service.request("GET", "/health"),
                    (200, {"status": "ok", "families": {"translation": {"models": 0}, "speech": {"models": 0}}}),
                )
                self.assertEqual(service.request("GET", "/v1/translation/models"), (200, {"models": []}))
            finally:
                status = service.stop()
        self.assertEqual(status, 0, service.lines)
        self.assertFalse([line for line in service.lines if "Traceback" in line or " ERROR " in line], service.lines)
        self.assertNotIn("test-secret", "\n".join(service.lines))


if __name__ == "__main__":
    unittest.main()
