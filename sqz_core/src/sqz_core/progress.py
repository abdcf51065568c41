"""A rich progress bar on stderr for work that may take long (never on the hot path).

Shown only when its stream is a terminal, and only once the work has run a second: a quick run, a
pipe or a log gets nothing. ``rich`` is imported when the bar is first drawn.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any


class Progress:
    """A rich progress bar on stderr for long work: only when stderr is a terminal, and only once the
    work has run ``after`` seconds (a quick run prints nothing). Call it with ``(done, total)``; use it
    as a context manager (the bar disappears at the end, the result lines follow)."""

    def __init__(self, label: str, *, after: float = 1.0, stream=None) -> None:
        import threading

        self.label, self.after = label, after
        self.stream = sys.stderr if stream is None else stream
        self.done, self.closed = 0, False
        self.total: int | None = None
        self.bar: Any = None  # a rich Progress once shown
        self.task: Any = None
        self.lock = threading.Lock()
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError, OSError):
            self.tty = False
        self.timer = threading.Timer(after, self._show) if self.tty and after > 0 else None
        if self.timer is not None:
            self.timer.daemon = True

    def __enter__(self) -> "Progress":
        if self.timer is not None:
            self.timer.start()
        elif self.tty:
            self._show()
        return self

    def _show(self) -> None:
        with self.lock:
            if self.closed or self.bar is not None:
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=Console(file=self.stream), transient=True)
            self.task = self.bar.add_task(self.label, total=self.total, completed=self.done)
            self.bar.start()

    def __call__(self, done: int, total: int | None = None) -> None:
        with self.lock:
            self.done, self.total = done, total
            if self.bar is not None:
                self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc) -> None:
        with self.lock:
            self.closed = True
        if self.timer is not None:
            self.timer.cancel()
        if self.bar is not None:
            self.bar.stop()
