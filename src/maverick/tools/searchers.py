"""The search's worker processes: a few long-lived processes that share a large search.

The interpreter lock lets one thread of a process run Python at a time, and a search spends
most of its time in per-file Python work between the system calls, so a second thread does
not help; a second process does. :class:`Searchers` is the pool of one server: each worker is
``python -m maverick.tools.searchers`` (it imports only :mod:`maverick.tools.scan` and RE2),
started on the first search that wants it and kept for the next ones.

One call borrows the idle workers, sends each the query and its budget left, then, while the
server's thread walks the folder and applies the secrets policy, the paths the walk allowed,
in chunks, in turn; nothing else reaches a worker, so no denied file is ever opened. Each
worker answers once, after the last chunk: the files that matched (by their index in the walk)
and the bytes it read. The caller sorts the files by index, so the result is the one a single
thread finds.

Budgets: a worker stops at its own deadline (the call's, sent with the job) and past the
bytes the call had left, and says which; the call then answers its budget error. The bytes the
workers read are charged to the call's budget together, so a call reads at most its budget
once per worker before it knows it is over. A worker that has not answered by the deadline
plus :data:`GRACE` (stopped by the system, say) is killed and replaced; so is one whose job a
failure interrupted. A worker that ends on its own (a crash) raises :class:`WorkerLost`, and
the caller searches again on its thread; after :data:`MAX_FAILURES` such losses in a row the
pool starts no more workers. Messages are ``marshal`` data behind a 4-byte length, on the
worker's standard input and output.
"""

from __future__ import annotations

import marshal
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from maverick.tools.base import Budget, BudgetExceeded, Limits
from maverick.tools.scan import Hit, Query, Scanner

__all__ = [
    "CHUNK",
    "GRACE",
    "MAX_FAILURES",
    "Searchers",
    "WorkerLost",
    "frame",
    "read_frames",
    "serve",
]

CHUNK = 256  # paths per message
GRACE = 0.5  # seconds past its deadline a worker may take to answer before it is killed
MAX_FAILURES = 3
_LENGTH = struct.Struct("<I")
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding maverick/


class WorkerLost(Exception):
    """A worker process ended in the middle of a job (it crashed, or was killed)."""


class _Stuck(Exception):
    """A worker did not read or answer by the deadline."""


class _Worker:
    """One worker process and the two ends of its pipes (non-blocking, polled)."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-m", "maverick.tools.searchers"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            bufsize=0,
        )
        stdin, stdout = self.process.stdin, self.process.stdout
        if stdin is None or stdout is None:  # pragma: no cover - Popen made both pipes
            raise OSError("a search worker has no pipes")
        self._pipes = (stdin, stdout)
        self._to, self._from = stdin.fileno(), stdout.fileno()
        os.set_blocking(self._to, False)
        os.set_blocking(self._from, False)

    def send(self, message: Any, until: float) -> None:
        data = memoryview(frame(message))
        while data:
            try:
                data = data[os.write(self._to, data) :]
            except BlockingIOError:
                _wait(self._to, select.POLLOUT, until)
            except BrokenPipeError:
                raise WorkerLost(self._gone()) from None

    def receive(self, until: float) -> Any:
        head = self._read(_LENGTH.size, until)
        return marshal.loads(self._read(_LENGTH.unpack(head)[0], until))

    def _read(self, size: int, until: float) -> bytes:
        parts, left = [], size
        while left:
            try:
                part = os.read(self._from, left)
            except BlockingIOError:
                _wait(self._from, select.POLLIN, until)
                continue
            if not part:
                raise WorkerLost(self._gone())
            parts.append(part)
            left -= len(part)
        return b"".join(parts)

    def _gone(self) -> str:
        return f"search worker {self.process.pid} ended (exit code {self.process.wait()})"

    def stop(self, kill: bool) -> None:
        """End the process (kill it, or close its input and let it finish) and reap it."""
        if kill:
            self.process.kill()
        self._pipes[0].close()
        try:
            self.process.wait(timeout=None if kill else 1.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._pipes[1].close()


class Searchers:
    """At most ``processes`` worker processes, started when a search first wants them."""

    def __init__(self, processes: int) -> None:
        if processes < 0:
            raise ValueError(f"processes must be at least 0, not {processes}")
        usable = hasattr(select, "poll") and hasattr(os, "set_blocking")
        self.processes = processes if usable else 0
        self.failures = 0  # workers lost in a row
        self._idle: list[_Worker] = []
        self._started = 0
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _stop_all, self._idle)

    def borrow(self) -> list[_Worker]:
        """The idle workers (started now up to ``processes``); empty when there is none."""
        with self._lock:
            if self.failures >= MAX_FAILURES:
                return []
            while self._started < self.processes:
                try:
                    self._idle.append(_Worker())
                except OSError:  # no interpreter to start: search on the caller's thread
                    self.failures = MAX_FAILURES
                    break
                self._started += 1
            taken, self._idle[:] = list(self._idle), []
        return taken

    def search(
        self, workers: list[_Worker], query: Query, limit: int, budget: Budget, files: Iterator[str]
    ) -> list[Hit]:
        """The hits of ``files`` (paths, in the walk's order) shared among ``workers``, sorted
        by index; the bytes read are charged to ``budget``. Raises BudgetExceeded or
        WorkerLost, and gives the workers back (or replaces them)."""
        until = budget.deadline + GRACE
        seconds = budget.deadline - time.monotonic()
        try:
            for worker in workers:
                worker.send(("job", query.text, query.regex, seconds, budget.left, limit), until)
            for n, (first, chunk) in enumerate(_chunks(files)):
                workers[n % len(workers)].send(("files", first, chunk), until)
            for worker in workers:
                worker.send(("end",), until)
            replies = [worker.receive(until) for worker in workers]
        except BaseException as exc:
            self._replace(workers, lost=isinstance(exc, WorkerLost))
            if isinstance(exc, _Stuck):
                raise BudgetExceeded(budget.timed_out_message()) from None
            raise
        self._give_back(workers)
        for kind, *rest in replies:
            if kind == "error":
                raise RuntimeError(f"a search worker failed: {rest[0]}")
        budget.charge(sum(reply[1] for reply in replies))  # raises past the size budget
        if any(reply[0] == "time" for reply in replies):
            raise BudgetExceeded(budget.timed_out_message())
        return sorted((hit for reply in replies for hit in reply[2]), key=_first)

    def idle(self) -> list[int]:
        """The process ids of the idle workers."""
        with self._lock:
            return [worker.process.pid for worker in self._idle]

    def close(self) -> None:
        """Stop the idle workers; a busy one stops when its job ends (its input closes)."""
        with self._lock:
            self.processes = 0
            idle, self._idle[:] = list(self._idle), []
        _stop_all(idle)

    def _give_back(self, workers: list[_Worker]) -> None:
        with self._lock:
            self.failures = 0
            if self.processes:
                self._idle.extend(workers)
                return
        _stop_all(workers)

    def _replace(self, workers: list[_Worker], lost: bool) -> None:
        for worker in workers:
            worker.stop(kill=True)
        with self._lock:
            self._started -= len(workers)
            self.failures += lost


def _first(hit: Hit) -> int:
    return hit[0]


def _stop_all(workers: list[_Worker]) -> None:
    for worker in workers:
        worker.stop(kill=False)
    workers.clear()


def frame(message: Any) -> bytes:
    """One message as sent on a pipe: its length (4 bytes, little-endian), then its marshal."""
    data = marshal.dumps(message)
    return _LENGTH.pack(len(data)) + data


def _wait(fd: int, event: int, until: float) -> None:
    """Wait until ``fd`` is ready for ``event``; raise _Stuck at ``until``."""
    left = until - time.monotonic()
    if left <= 0:
        raise _Stuck
    poller = select.poll()
    poller.register(fd, event)
    poller.poll(left * 1000)


def _chunks(files: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """``(index of the first, paths)`` of consecutive chunks of ``files``."""
    chunk: list[str] = []
    first = 0
    for path in files:
        chunk.append(path)
        if len(chunk) == CHUNK:
            yield first, chunk
            first += CHUNK
            chunk = []
    if chunk:
        yield first, chunk


def _job(header: Any, messages: Iterator[Any]) -> tuple[Any, ...]:
    """Run one job: search the chunks until ``("end",)``; the answer to send back."""
    _, text, regex, seconds, left, limit = header
    limits = Limits(max(seconds, 1e-6), max(left, 1))
    budget = Budget("search_codebase", limits)
    outcome: tuple[Any, ...] | None = None
    scanner: Scanner | None = None
    for message in messages:
        if message[0] == "end":
            break
        if outcome is not None:
            continue  # drained: the job ends at its "end"
        try:
            scanner = scanner or Scanner(Query.compile(text, regex), budget, limit)
            scanner.scan(enumerate(message[2], message[1]))
        except BudgetExceeded:
            outcome = ("size" if budget.left < 0 else "time",)
        except Exception as exc:  # a bug (the caller compiled the query first): say so
            outcome = ("error", f"{type(exc).__name__}: {exc}")
    read = limits.read_budget - budget.left
    if outcome is None:
        return ("ok", read, scanner.hits if scanner else [])
    return (*outcome, read)


def read_frames(stream: BinaryIO) -> Iterator[Any]:
    """The messages of ``stream`` (see :func:`frame`), until its end."""
    while len(head := stream.read(_LENGTH.size)) == _LENGTH.size:
        yield marshal.loads(stream.read(_LENGTH.unpack(head)[0]))


def serve(source: BinaryIO, sink: BinaryIO) -> None:
    """A worker's loop: answer each job read from ``source`` on ``sink``, until its end."""
    messages = read_frames(source)
    for header in messages:
        sink.write(frame(_job(header, messages)))
        sink.flush()


def _main() -> None:
    # Ctrl-C in a terminal reaches the whole process group: it is the server's to act on; a
    # worker ends when its input does (the server closed it, or exited).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:  # the server went away while this worker answered
        os._exit(0)


if __name__ == "__main__":
    _main()
