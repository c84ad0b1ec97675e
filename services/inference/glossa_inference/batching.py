"""A bounded job queue with one worker thread that runs jobs in dynamic batches.

Models answer a batch of inputs in little more time than one input, so requests that arrive
together are run together. A :class:`Batcher` knows nothing about models: a job is a *key* (which
model, with which settings), a list of *items* (inputs to that model) and a *weight* (what it counts
against the queue's limit), and a *runner* function turns one key and a list of items into as many
outputs. Each model family (translation, speech) owns one batcher.

* :meth:`Batcher.submit` never blocks: when the queue already holds ``limit`` weight it raises
  :class:`Busy` at once (the HTTP layer answers 503). An empty queue takes any job, so a request
  larger than the limit can still be served when nothing waits.
* The worker takes the oldest job, waits up to ``gather_wait`` seconds for company, then adds the
  queued jobs with the same key, oldest first, while the items still fit in ``max_batch``. Jobs with
  other keys keep their places. A single job larger than ``max_batch`` runs in several calls.
* Each job's future receives exactly its own outputs, in order, or the exception of the call that
  failed: a failing batch fails only the jobs in it.
* :meth:`Batcher.close` lets the running batch finish and fails the jobs still waiting with
  :class:`Closed`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Item = TypeVar("Item")
Output = TypeVar("Output")

GATHER_WAIT = 0.002

log = logging.getLogger(__name__)


class Busy(Exception):
    """The queue is full; the caller should try again shortly."""


class Closed(Exception):
    """The batcher is shutting down and takes no more work."""


@dataclass
class _Job(Generic[Key, Item, Output]):
    key: Key
    items: Sequence[Item]
    weight: int
    future: Future[list[Output]]


class Batcher(Generic[Key, Item, Output]):
    """Runs submitted jobs on one worker thread, gathering jobs with the same key into batches."""

    def __init__(
        self,
        name: str,
        run: Callable[[Key, list[Item]], Sequence[Output]],
        limit: int,
        max_batch: int,
        gather_wait: float = GATHER_WAIT,
    ) -> None:
        if limit < 1 or max_batch < 1:
            raise ValueError("the queue limit and the batch size must be positive")
        self._name = name
        self._run = run
        self._limit = limit
        self._max_batch = max_batch
        self._gather_wait = gather_wait
        self._queue: deque[_Job[Key, Item, Output]] = deque()
        self._waiting = 0
        self._closed = False
        self._condition = threading.Condition()
        self._worker = threading.Thread(target=self._work, name=f"{name}-batcher", daemon=True)
        self._worker.start()

    def submit(self, key: Key, items: Sequence[Item], weight: int | None = None) -> Future[list[Output]]:
        """Queues ``items`` for the model named by ``key``; the future resolves to one output per item.

        Raises :class:`Busy` when the queue is full and :class:`Closed` after :meth:`close`.
        """
        weight = len(items) if weight is None else weight
        future: Future[list[Output]] = Future()
        if not items:
            future.set_result([])
            return future
        with self._condition:
            if self._closed:
                raise Closed("the service is shutting down")
            if self._waiting and self._waiting + weight > self._limit:
                raise Busy(f"the queue holds {self._waiting} of at most {self._limit}")
            self._queue.append(_Job(key, items, weight, future))
            self._waiting += weight
            self._condition.notify()
        return future

    def close(self, timeout: float | None = None) -> None:
        """Stops taking jobs, fails the waiting ones, and waits for the running batch to finish."""
        with self._condition:
            self._closed = True
            abandoned = list(self._queue)
            self._queue.clear()
            self._waiting = 0
            self._condition.notify_all()
        for job in abandoned:
            job.future.set_exception(Closed("the service is shutting down"))
        self._worker.join(timeout)

    def _work(self) -> None:
        while (jobs := self._next_batch()) is not None:
            self._execute(jobs)

    def _next_batch(self) -> list[_Job[Key, Item, Output]] | None:
        with self._condition:
            while not self._queue:
                if self._closed:
                    return None
                self._condition.wait()
            first = self._queue.popleft()
            deadline = time.monotonic() + self._gather_wait
            while not self._closed and self._gathered(first) < self._max_batch:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._condition.wait(remaining)
            jobs = [first, *self._take_same_key(first.key, self._max_batch - len(first.items))]
            self._waiting -= sum(job.weight for job in jobs)
            return jobs

    def _gathered(self, first: _Job[Key, Item, Output]) -> int:
        """How many items the batch starting with ``first`` could hold with the jobs queued now."""
        return len(first.items) + sum(len(job.items) for job in self._queue if job.key == first.key)

    def _take_same_key(self, key: Key, room: int) -> list[_Job[Key, Item, Output]]:
        """Removes the oldest queued jobs with ``key`` while they fit in ``room`` items (in order:
        a job that does not fit stops the gathering, so it is not overtaken by younger ones)."""
        taken: list[_Job[Key, Item, Output]] = []
        kept: deque[_Job[Key, Item, Output]] = deque()
        gathering = True
        for job in self._queue:
            if job.key != key:
                kept.append(job)
            elif gathering and len(job.items) <= room:
                taken.append(job)
                room -= len(job.items)
            else:
                gathering = False
                kept.append(job)
        self._queue = kept
        return taken

    def _execute(self, jobs: list[_Job[Key, Item, Output]]) -> None:
        items = [item for job in jobs for item in job.items]
        outputs: list[Output] = []
        started = time.monotonic()
        try:
            for start in range(0, len(items), self._max_batch):
                chunk = items[start : start + self._max_batch]
                answered = self._run(jobs[0].key, chunk)
                if len(answered) != len(chunk):
                    raise RuntimeError(f"the runner answered {len(answered)} outputs for {len(chunk)} items")
                outputs.extend(answered)
        except Exception as error:
            for job in jobs:
                job.future.set_exception(error)
            return
        log.debug("%s: %d items of %d jobs in %.3f s", self._name, len(items), len(jobs), time.monotonic() - started)
        offset = 0
        for job in jobs:
            job.future.set_result(outputs[offset : offset + len(job.items)])
            offset += len(job.items)
