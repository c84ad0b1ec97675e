"""The batcher with a stand-in runner: order, batch sizes, the queue limit, failures, closing."""

from __future__ import annotations

import threading
import unittest
from concurrent.futures import Future

from glossa_inference.batching import Batcher, Busy, Closed

WAIT = 10.0


class Runner:
    """Doubles numbers, recording each call; can be held at its next call, or fail for one key."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[int]]] = []
        self.entered = threading.Event()
        self.release = threading.Event()
        self.release.set()
        self.failing: str | None = None

    def hold(self) -> None:
        self.entered.clear()
        self.release.clear()

    def __call__(self, key: str, items: list[int]) -> list[int]:
        self.calls.append((key, list(items)))
        self.entered.set()
        self.release.wait(WAIT)
        if key == self.failing:
            raise ValueError(f"cannot run {key}")
        return [item * 2 for item in items]


class BatcherTest(unittest.TestCase):
    def make(self, limit: int = 100, max_batch: int = 8) -> tuple[Batcher[str, int, int], Runner]:
        runner = Runner()
        batcher: Batcher[str, int, int] = Batcher("test", runner, limit, max_batch)
        self.addCleanup(batcher.close, WAIT)
        self.addCleanup(runner.release.set)
        return batcher, runner

    def blocked(self, batcher: Batcher[str, int, int], runner: Runner) -> Future[list[int]]:
        """Submits a job the runner holds on to, so that the next jobs wait in the queue."""
        runner.hold()
        future = batcher.submit("first", [0])
        self.assertTrue(runner.entered.wait(WAIT))
        return future

    def test_concurrent_submitters_each_get_their_own_outputs_in_order(self) -> None:
        batcher, runner = self.make(limit=10_000, max_batch=8)
        results: dict[int, list[int]] = {}
        expected: dict[int, list[int]] = {}

        def submitter(number: int) -> None:
            for job in range(25):
                items = [number * 1000 + job * 10 + k for k in range(1 + (number + job) % 5)]
                expected[number * 100 + job] = [item * 2 for item in items]
                results[number * 100 + job] = batcher.submit("model", items).result(WAIT)

        threads = [threading.Thread(target=submitter, args=(number,)) for number in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT)
        self.assertEqual(results, expected)
        self.assertTrue(all(len(items) <= 8 for _, items in runner.calls))

    def test_waiting_jobs_of_one_key_are_gathered_up_to_max_batch(self) -> None:
        batcher, runner = self.make(max_batch=8)
        first = self.blocked(batcher, runner)
        futures = [batcher.submit("a", [10 * job, 10 * job + 1, 10 * job + 2]) for job in range(4)]
        other = batcher.submit("b", [7])
        runner.release.set()
        self.assertEqual(first.result(WAIT), [0])
        self.assertEqual(
            [future.result(WAIT) for future in futures], [[0, 2, 4], [20, 22, 24], [40, 42, 44], [60, 62, 64]]
        )
        self.assertEqual(other.result(WAIT), [14])
        self.assertEqual(
            [(key, len(items)) for key, items in runner.calls], [("first", 1), ("a", 6), ("a", 6), ("b", 1)]
        )

    def test_a_job_larger_than_max_batch_runs_in_several_calls(self) -> None:
        batcher, runner = self.make(max_batch=8)
        self.assertEqual(batcher.submit("a", list(range(20))).result(WAIT), [2 * k for k in range(20)])
        self.assertEqual([len(items) for _, items in runner.calls], [8, 8, 4])

    def test_a_full_queue_refuses_at_once(self) -> None:
        batcher, runner = self.make(limit=10)
        self.blocked(batcher, runner)
        waiting = batcher.submit("a", [1] * 3, weight=6)
        batcher.submit("a", [1] * 4)
        with self.assertRaises(Busy):
            batcher.submit("a", [1])
        runner.release.set()
        self.assertEqual(waiting.result(WAIT), [2, 2, 2])

    def test_an_empty_queue_takes_a_job_over_the_limit(self) -> None:
        batcher, _ = self.make(limit=10, max_batch=50)
        self.assertEqual(len(batcher.submit("a", [1] * 30).result(WAIT)), 30)

    def test_a_failing_batch_fails_only_its_own_jobs(self) -> None:
        batcher, runner = self.make()
        runner.failing = "bad"
        self.blocked(batcher, runner)
        bad = [batcher.submit("bad", [1]), batcher.submit("bad", [2])]
        good = batcher.submit("good", [3])
        runner.release.set()
        for future in bad:
            with self.assertRaisesRegex(ValueError, "cannot run bad"):
                future.result(WAIT)
        self.assertEqual(good.result(WAIT), [6])
        self.assertEqual(batcher.submit("good", [4]).result(WAIT), [8], "the worker goes on")

    def test_a_runner_answering_the_wrong_count_fails_its_jobs(self) -> None:
        batcher: Batcher[str, int, int] = Batcher("short", lambda key, items: items[:-1], 10, 4)
        self.addCleanup(batcher.close, WAIT)
        with self.assertRaisesRegex(RuntimeError, "answered 1 outputs for 2 items"):
            batcher.submit("a", [1, 2]).result(WAIT)

    def test_no_items_needs_no_worker(self) -> None:
        batcher, runner = self.make()
        self.assertEqual(batcher.submit("a", []).result(0), [])
        self.assertEqual(runner.calls, [])

    def test_closing_fails_the_waiting_jobs_and_refuses_new_ones(self) -> None:
        batcher, runner = self.make()
        running = self.blocked(batcher, runner)
        waiting = batcher.submit("a", [1])
        closer = threading.Thread(target=batcher.close, args=(WAIT,))
        closer.start()
        with self.assertRaises(Closed):
            waiting.result(WAIT)
        with self.assertRaises(Closed):
            batcher.submit("a", [1])
        runner.release.set()
        closer.join(WAIT)
        self.assertEqual(running.result(WAIT), [0], "the running batch finishes")


if __name__ == "__main__":
    unittest.main()
