"""dsa-run's step recorder: an algorithm records what it does, one `@step {json}` line per step.

    from dsa import Recorder

    rec = Recorder([5, 2, 4])
    rec.compare(0, 1)             # @step {"action":"compare","active":[0,1],...}
    rec.swap(0, 1, caption="2 is smaller: swap")
    rec.done()

The recorder keeps the elements with stable ids (so duplicates animate correctly), writes every
step to stdout at once (flushed), and makes up a caption when none is given. docs/challenges.md
("Step recorder") has the whole API; the step lines are the ones the steps checker reads.
"""

import json
import math
import sys

__all__ = ["Recorder", "RecorderError", "MAX_STEPS"]

MAX_STEPS = 100_000
_steps_written = 0  # per process, whatever the number of recorders


class RecorderError(Exception):
    """A call the recorder refuses: too many steps, or a value JSON cannot hold (NaN, Infinity)."""


def _check_value(value):
    if isinstance(value, float) and not math.isfinite(value):
        name = "NaN" if math.isnan(value) else "Infinity"
        raise RecorderError(f"the recorder cannot write {name}: JSON has no NaN or Infinity")
    if isinstance(value, (list, tuple)):
        for item in value:
            _check_value(item)
    elif isinstance(value, dict):
        for item in value.values():
            _check_value(item)
    return value


def _json(value):
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


class Recorder:
    """Records the steps of an algorithm over `items` (ints, floats or strings), or of a search or
    a graph walk when created with no items."""

    def __init__(self, items=()):
        self._array = [_check_value(item) for item in items]
        self._ids = list(range(len(self._array)))
        self._next_id = len(self._array)
        self._sorted = set()
        self._visited = []
        self._frontier = []
        self._current = None

    # ---- array form ----------------------------------------------------------------------

    @property
    def array(self):
        """The current values, in their current order: the recorder's own list, not a copy (reading
        it in a loop costs nothing); change it only through swap and overwrite."""
        return self._array

    items = array

    @property
    def ids(self):
        """The current elements' ids, in the array's order."""
        return list(self._ids)

    def __len__(self):
        return len(self._array)

    def __getitem__(self, index):
        return self._array[index]

    def compare(self, i, j, caption=None):
        if caption is None:
            caption = f"Compare index {i} ({_json(self._array[i])}) with index {j} ({_json(self._array[j])})"
        self._array_step("compare", [i, j], caption)

    def swap(self, i, j, caption=None):
        self._array[i], self._array[j] = self._array[j], self._array[i]
        self._ids[i], self._ids[j] = self._ids[j], self._ids[i]
        self._array_step("swap", [i, j], caption if caption is not None else f"Swap index {i} and index {j}")

    def overwrite(self, i, value, caption=None):
        _check_value(value)
        self._array[i] = value
        self._ids[i] = self._next_id
        self._next_id += 1
        self._array_step("overwrite", [i], caption if caption is not None else f"Write {_json(value)} at index {i}")

    def mark_sorted(self, i):
        """Marks index i sorted; no step of its own (the next step shows it)."""
        self._array[i]  # an index out of range fails here, not at the next step
        self._sorted.add(i if i >= 0 else len(self._array) + i)

    def done(self, caption=None):
        self._sorted = set(range(len(self._array)))
        self._array_step("done", [], caption if caption is not None else "Done")

    def _array_step(self, action, active, caption):
        self._write({
            "action": action, "active": active, "array": self._array, "ids": self._ids,
            "sorted": sorted(self._sorted), "caption": caption,
        })

    # ---- search form ---------------------------------------------------------------------

    def probe(self, low, mid, high, found=False, caption=None):
        if caption is None:
            if mid is None:
                caption = f"Empty window: low {low}, high {high}"
            elif found:
                caption = f"Found at index {mid}"
            else:
                caption = f"Probe index {mid}: low {low}, high {high}"
        self._write({"action": "probe", "low": low, "high": high, "mid": mid, "found": bool(found),
                     "caption": caption})

    # ---- graph form ----------------------------------------------------------------------

    def visit(self, node, caption=None):
        _check_value(node)
        if node in self._frontier:
            self._frontier.remove(node)
        if node not in self._visited:
            self._visited.append(node)
        self._current = node
        self._graph_step("visit", caption if caption is not None else f"Visit node {_json(node)}")

    def discover(self, node, caption=None):
        _check_value(node)
        if node not in self._visited:
            self._visited.append(node)
        self._frontier.append(node)
        self._graph_step("discover", caption if caption is not None else f"Discover node {_json(node)}")

    @property
    def visited(self):
        return list(self._visited)

    @property
    def frontier(self):
        return list(self._frontier)

    def _graph_step(self, action, caption):
        self._write({"action": action, "current": self._current, "visited": self._visited,
                     "frontier": self._frontier, "caption": caption})

    # ---- any step ------------------------------------------------------------------------

    def step(self, action, fields=None, caption=None, **more_fields):
        """Any step: `rec.step("highlight", cells=[1, 2])` or `rec.step("highlight", {"cells": [1, 2]})`."""
        body = {"action": action}
        for name, value in list((fields or {}).items()) + list(more_fields.items()):
            if name not in ("action", "caption"):
                body[name] = _check_value(value)
        body["caption"] = caption if caption is not None else str(action)
        self._write(body)

    # ---- output --------------------------------------------------------------------------

    def _write(self, body):
        global _steps_written
        if _steps_written >= MAX_STEPS:
            raise RecorderError(f"too many steps: the recorder keeps at most {MAX_STEPS}")
        if not isinstance(body["caption"], str):
            raise RecorderError("a caption is text: pass a str (or nothing, for the default)")
        try:
            line = "@step " + _json(body) + "\n"
        except ValueError as error:  # NaN or Infinity inside a field
            raise RecorderError(f"the recorder cannot write this step: {error}") from None
        _steps_written += 1
        # sys.stdout at call time: a function challenge's driver points it elsewhere.
        sys.stdout.write(line)
        sys.stdout.flush()
