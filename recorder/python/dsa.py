"""dsa-run's step recorder: an algorithm records what it does, one `@step {json}` line per step.

    from dsa import Recorder

    rec = Recorder([5, 2, 4])
    rec.compare(0, 1)             # @step {"action":"compare","active":[0,1],...}
    rec.swap(0, 1, caption="2 is smaller: swap")
    rec.done()

The recorder keeps the elements with stable ids (so duplicates animate correctly), writes every
step to stdout at once (flushed), and makes up a caption when none is given. docs/challenges.md
("Step recorder") has the whole API; the step lines are the ones the steps checker reads. The shape
recorders (ListRecorder, TreeRecorder, HeapRecorder, StackRecorder, HashMapRecorder, TableRecorder,
MatchRecorder, UnionFindRecorder) write the other step shapes the same way ("Shape recorders").
"""

import math
import sys

# The C encoder behind json.dumps, without importing json: json imports re, and the two cost a
# program that imports the recorder about 6 ms of its start, on every run.
import _json as _c_json

__all__ = [
    "Recorder", "RecorderError", "MAX_STEPS", "ListRecorder", "TreeRecorder", "HeapRecorder", "StackRecorder",
    "HashMapRecorder", "TableRecorder", "MatchRecorder", "UnionFindRecorder",
]

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


def _unencodable(value):
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def _json(value):
    """json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")), made as json makes
    it: a new encoder each time, as its record of the containers it is inside is left behind by an error."""
    if isinstance(value, str):
        return _c_json.encode_basestring(value)
    encoder = _c_json.make_encoder({}, _unencodable, _c_json.encode_basestring, None, ":", ",", False, False, False)
    return "".join(encoder(value, 0))


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
        _write(body)


def _write(body):
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


# ---- shape recorders ---------------------------------------------------------------------------
# One object per structure (docs/challenges.md, "Step shapes"): it keeps the structure and its ids
# (given in creation order, never reused). A call that is one step by nature (push, pop, union,
# fill, probe...) writes it; an edit an algorithm makes several of before one picture (a relink, a
# rotation, a move) is silent, and `step(action)` writes the structure as it is then.


class _Nodes:
    """Nodes by id (ids are 0, 1, 2... in creation order, so a list indexed by id); removed ones are None."""

    def __init__(self, what):
        self._what = what
        self._nodes = []

    def add(self, node):
        self._nodes.append(node)
        return len(self._nodes) - 1

    def __getitem__(self, node_id):
        if not isinstance(node_id, int) or not 0 <= node_id < len(self._nodes) or self._nodes[node_id] is None:
            raise RecorderError(f"no {self._what} {node_id!r}: ids are the ones the recorder gave")
        return self._nodes[node_id]

    def check(self, node_id):
        if node_id is not None:
            self[node_id]
        return node_id

    def remove(self, node_id):
        self[node_id]
        self._nodes[node_id] = None

    def alive(self):
        return [(node_id, node) for node_id, node in enumerate(self._nodes) if node is not None]


class ListRecorder:
    """A linked list: `ListRecorder([1, 2, 3])` chains nodes 0 -> 1 -> 2 with the head at 0; with
    `doubly=True` each node has a `prev` too and the list a `tail`."""

    def __init__(self, values=(), doubly=False):
        self._nodes = _Nodes("node")
        self._head = None
        self._doubly = bool(doubly)
        self._tail = None
        self._pointers = {}
        previous = None
        for value in values:
            node = self.add(value)
            if previous is None:
                self._head = node
            else:
                self.link(previous, node)
                if self._doubly:
                    self.link_prev(node, previous)
            previous = node
        if self._doubly:
            self._tail = previous

    def add(self, value):
        """A new node, linked to nothing; returns its id."""
        return self._nodes.add({"value": _check_value(value), "next": None, "prev": None})

    def link(self, node, next_node):
        self._nodes[node]["next"] = self._nodes.check(next_node)

    def link_prev(self, node, prev_node):
        """A doubly linked list's back link."""
        self._check_doubly("link_prev")
        self._nodes[node]["prev"] = self._nodes.check(prev_node)

    def set_tail(self, node):
        self._check_doubly("set_tail")
        self._tail = self._nodes.check(node)

    def _check_doubly(self, call):
        if not self._doubly:
            raise RecorderError(f"{call} is for a doubly linked list: ListRecorder(values, doubly=True)")

    def set_head(self, node):
        self._head = self._nodes.check(node)

    def point(self, name, node):
        """Sets the algorithm's pointer `name` (prev, curr, slow...) to a node id or None."""
        self._pointers[str(name)] = self._nodes.check(node)

    def remove(self, node):
        """The node leaves the list; a link, the head or a pointer to it becomes None."""
        self._nodes.remove(node)
        for _, other in self._nodes.alive():
            for side in ("next", "prev"):
                if other[side] == node:
                    other[side] = None
        if self._head == node:
            self._head = None
        if self._tail == node:
            self._tail = None
        for name, target in self._pointers.items():
            if target == node:
                self._pointers[name] = None

    @property
    def head(self):
        return self._head

    def value(self, node):
        return self._nodes[node]["value"]

    def next(self, node):
        return self._nodes[node]["next"]

    @property
    def tail(self):
        return self._tail

    def prev(self, node):
        return self._nodes[node]["prev"]

    def step(self, action, active=None, caption=None):
        body = {"action": action, "head": self._head}
        if self._doubly:
            body["tail"] = self._tail
        body["nodes"] = []
        for node_id, node in self._nodes.alive():
            written = {"id": node_id, "value": node["value"], "next": node["next"]}
            if self._doubly:
                written["prev"] = node["prev"]
            body["nodes"].append(written)
        body["pointers"] = dict(self._pointers)
        if active is not None:
            body["active"] = [self._nodes.check(node) for node in active]
        body["caption"] = caption if caption is not None else str(action)
        _write(body)


class TreeRecorder:
    """A binary tree (search tree, AVL, segment tree): nodes made by `add`, linked by `set_left`/`set_right`."""

    def __init__(self):
        self._nodes = _Nodes("node")
        self._root = None
        self._pointers = {}

    def add(self, value):
        """A new node, linked to nothing; returns its id (the first node added becomes the root)."""
        node = self._nodes.add({"value": _check_value(value), "left": None, "right": None})
        if node == 0:
            self._root = node
        return node

    def set_left(self, node, child):
        self._nodes[node]["left"] = self._nodes.check(child)

    def set_right(self, node, child):
        self._nodes[node]["right"] = self._nodes.check(child)

    def set_root(self, node):
        self._root = self._nodes.check(node)

    def set_value(self, node, value):
        self._nodes[node]["value"] = _check_value(value)

    def set_height(self, node, height):
        """An AVL node's height, written beside the node from now on."""
        self._nodes[node]["height"] = height

    def set_range(self, node, low, high):
        """A segment tree node's range [low, high], written beside the node from now on."""
        self._nodes[node]["range"] = [low, high]

    def point(self, name, node):
        self._pointers[str(name)] = self._nodes.check(node)

    def remove(self, node):
        """The node leaves the tree; a link, the root or a pointer to it becomes None."""
        self._nodes.remove(node)
        for _, other in self._nodes.alive():
            for side in ("left", "right"):
                if other[side] == node:
                    other[side] = None
        if self._root == node:
            self._root = None
        for name, target in self._pointers.items():
            if target == node:
                self._pointers[name] = None

    @property
    def root(self):
        return self._root

    def value(self, node):
        return self._nodes[node]["value"]

    def left(self, node):
        return self._nodes[node]["left"]

    def right(self, node):
        return self._nodes[node]["right"]

    def step(self, action, active=None, visited=None, caption=None):
        body = {"action": action, "root": self._root, "nodes": []}
        for node_id, node in self._nodes.alive():
            written = {"id": node_id, "value": node["value"], "left": node["left"], "right": node["right"]}
            for extra in ("height", "range"):
                if extra in node:
                    written[extra] = node[extra]
            body["nodes"].append(written)
        if self._pointers:
            body["pointers"] = dict(self._pointers)
        if active is not None:
            body["active"] = [self._nodes.check(node) for node in active]
        if visited is not None:
            body["visited"] = [self._nodes.check(node) for node in visited]
        body["caption"] = caption if caption is not None else str(action)
        _write(body)


class HeapRecorder:
    """A binary heap in array order (index i's children at 2i+1 and 2i+2); element k of `values` gets id k."""

    def __init__(self, values=()):
        self._heap = [_check_value(value) for value in values]
        self._ids = list(range(len(self._heap)))
        self._next_id = len(self._heap)

    @property
    def heap(self):
        """The recorder's own list of values; change it only through the recorder."""
        return self._heap

    @property
    def ids(self):
        return list(self._ids)

    def __len__(self):
        return len(self._heap)

    def __getitem__(self, index):
        return self._heap[index]

    def push(self, value, caption=None):
        """Appends value (a fresh id) at the end; sifting it up is the algorithm's compares and swaps."""
        self._heap.append(_check_value(value))
        self._ids.append(self._next_id)
        self._next_id += 1
        self.step("push", [len(self._heap) - 1], caption if caption is not None else f"Push {_json(value)}")

    def pop(self, caption=None):
        """Takes the root out and moves the last element to the root (sifting it down is the algorithm's)."""
        if not self._heap:
            raise RecorderError("pop from an empty heap")
        value = self._heap[0]
        self._heap[0], self._ids[0] = self._heap[-1], self._ids[-1]
        self._heap.pop()
        self._ids.pop()
        self.step("pop", [0] if self._heap else [], caption if caption is not None else f"Pop {_json(value)}")
        return value

    def compare(self, i, j, caption=None):
        if caption is None:
            caption = f"Compare index {i} ({_json(self._heap[i])}) with index {j} ({_json(self._heap[j])})"
        self.step("compare", [i, j], caption)

    def swap(self, i, j, caption=None):
        self._heap[i], self._heap[j] = self._heap[j], self._heap[i]
        self._ids[i], self._ids[j] = self._ids[j], self._ids[i]
        self.step("swap", [i, j], caption if caption is not None else f"Swap index {i} and index {j}")

    def step(self, action, active=(), caption=None):
        for index in active:
            self._heap[index]
        _write({"action": action, "heap": self._heap, "ids": self._ids, "active": list(active),
                "caption": caption if caption is not None else str(action)})


class StackRecorder:
    """A stack, queue or deque (`kind`, the step's list name): bottom to top, or front to back."""

    def __init__(self, kind="stack", values=()):
        if kind not in ("stack", "queue", "deque"):
            raise RecorderError(f"kind is stack, queue or deque, not {kind!r}")
        self._kind = kind
        self._items = [_check_value(value) for value in values]
        self._ids = list(range(len(self._items)))
        self._next_id = len(self._items)

    @property
    def items(self):
        """The recorder's own list, bottom to top (front to back); change it only through the recorder."""
        return self._items

    @property
    def ids(self):
        return list(self._ids)

    def __len__(self):
        return len(self._items)

    def _add(self, front, value, action, caption):
        _check_value(value)
        at = 0 if front else len(self._items)
        self._items.insert(at, value)
        self._ids.insert(at, self._next_id)
        self._next_id += 1
        self._step(action, {"id": self._ids[at], "value": value}, caption)

    def _take(self, front, action, caption):
        if not self._items:
            raise RecorderError(f"{action} from an empty {self._kind}")
        at = 0 if front else len(self._items) - 1
        value, node_id = self._items.pop(at), self._ids.pop(at)
        self._step(action, {"id": node_id, "value": value}, caption(value))
        return value

    def push(self, value, caption=None):
        self._add(False, value, "push", caption if caption is not None else f"Push {_json(value)}")

    def pop(self, caption=None):
        return self._take(False, "pop", lambda value: caption if caption is not None else f"Pop {_json(value)}")

    def enqueue(self, value, caption=None):
        self._add(False, value, "enqueue", caption if caption is not None else f"Enqueue {_json(value)}")

    def dequeue(self, caption=None):
        return self._take(True, "dequeue",
                          lambda value: caption if caption is not None else f"Dequeue {_json(value)}")

    def push_front(self, value, caption=None):
        self._add(True, value, "push_front", caption if caption is not None else f"Push {_json(value)} at the front")

    def push_back(self, value, caption=None):
        self._add(False, value, "push_back", caption if caption is not None else f"Push {_json(value)} at the back")

    def pop_front(self, caption=None):
        return self._take(True, "pop_front",
                          lambda value: caption if caption is not None else f"Pop {_json(value)} from the front")

    def pop_back(self, caption=None):
        return self._take(False, "pop_back",
                          lambda value: caption if caption is not None else f"Pop {_json(value)} from the back")

    def peek(self, caption=None):
        """The top of a stack, the front of a queue or deque; `moved` is null."""
        if not self._items:
            raise RecorderError(f"peek at an empty {self._kind}")
        value = self._items[-1] if self._kind == "stack" else self._items[0]
        self._step("peek", None, caption if caption is not None else f"Peek {_json(value)}")
        return value

    def step(self, action, caption=None):
        self._step(action, None, caption if caption is not None else str(action))

    def _step(self, action, moved, caption):
        _write({"action": action, self._kind: self._items, "ids": self._ids, "moved": moved, "caption": caption})


class HashMapRecorder:
    """A hash table of `bucket_count` buckets; each entry gets an id when inserted."""

    def __init__(self, bucket_count):
        self._buckets = [[] for _ in range(bucket_count)]
        self._entries = _Nodes("entry")
        self._key = None
        self._hash = None
        self._probe = []

    def start(self, key, hash_value):
        """An operation on key begins: its key and hash are written from now on, the probe starts empty."""
        self._key, self._hash, self._probe = _check_value(key), hash_value, []

    def probe(self, bucket, caption=None):
        self._buckets[bucket]
        self._probe.append(bucket)
        self.step("probe", None, caption if caption is not None else f"Probe bucket {bucket}")

    def insert(self, bucket, key, value, caption=None):
        """Adds the entry at the end of bucket; returns its id."""
        entry = self._entries.add({"key": _check_value(key), "value": _check_value(value), "bucket": bucket})
        self._buckets[bucket].append(entry)
        self.step("insert", [entry], caption if caption is not None else f"Put {_json(key)} in bucket {bucket}")
        return entry

    def remove(self, entry, caption=None):
        key = self._entries[entry]["key"]
        self._buckets[self._entries[entry]["bucket"]].remove(entry)
        self.step("remove", [entry], caption if caption is not None else f"Remove {_json(key)}")
        self._entries.remove(entry)

    def set_value(self, entry, value):
        self._entries[entry]["value"] = _check_value(value)

    def mark_deleted(self, entry, caption=None):
        """Open addressing's delete: the entry stays in its bucket as a tombstone (`"deleted": true`)."""
        self._entries[entry]["deleted"] = True
        key = self._entries[entry]["key"]
        self.step("delete", [entry], caption if caption is not None else f"Delete {_json(key)}: a tombstone stays")

    def resize(self, bucket_count):
        """More buckets (entries stay where they are until moved)."""
        if bucket_count < len(self._buckets):
            raise RecorderError("a hash map grows: move the entries, then resize to more buckets")
        self._buckets.extend([] for _ in range(bucket_count - len(self._buckets)))

    def move(self, entry, bucket):
        """Moves the entry to the end of bucket (a rehash); no step."""
        self._buckets[bucket]
        self._buckets[self._entries[entry]["bucket"]].remove(entry)
        self._buckets[bucket].append(entry)
        self._entries[entry]["bucket"] = bucket

    def key(self, entry):
        return self._entries[entry]["key"]

    def value(self, entry):
        return self._entries[entry]["value"]

    def bucket(self, index):
        """The ids of bucket index's entries, in order."""
        return list(self._buckets[index])

    def _entry_json(self, entry):
        written = {"id": entry, "key": self._entries[entry]["key"], "value": self._entries[entry]["value"]}
        if self._entries[entry].get("deleted"):
            written["deleted"] = True
        return written

    def step(self, action, active=None, caption=None):
        buckets = [[self._entry_json(entry) for entry in bucket] for bucket in self._buckets]
        body = {"action": action, "buckets": buckets, "key": self._key, "hash": self._hash,
                "probe": list(self._probe)}
        if active is not None:
            body["active"] = [self._entries.check(entry) for entry in active]
        body["caption"] = caption if caption is not None else str(action)
        _write(body)


class TableRecorder:
    """A DP table: `TableRecorder(rows, cols)` (2-D) or `TableRecorder(n)` (1-D), every cell None."""

    def __init__(self, rows, cols=None, row_labels=None, col_labels=None):
        self._flat = cols is None
        self._table = [None] * rows if self._flat else [[None] * cols for _ in range(rows)]
        self._row_labels = None if row_labels is None else [str(label) for label in row_labels]
        self._col_labels = None if col_labels is None else [str(label) for label in col_labels]

    @property
    def table(self):
        """The recorder's own table (a list, or a list of rows); change it only through the recorder."""
        return self._table

    def _cell(self, cell):
        cell = [cell] if isinstance(cell, int) else list(cell)
        if len(cell) != (1 if self._flat else 2):
            raise RecorderError(f"a cell of this table is {'[i]' if self._flat else '[row, column]'}, not {cell!r}")
        self.get(cell)
        return cell

    def get(self, cell):
        cell = [cell] if isinstance(cell, int) else list(cell)
        return self._table[cell[0]] if self._flat else self._table[cell[0]][cell[1]]

    def set(self, cell, value):
        """Sets a cell without a step (base cases before the first step)."""
        cell = self._cell(cell)
        if self._flat:
            self._table[cell[0]] = _check_value(value)
        else:
            self._table[cell[0]][cell[1]] = _check_value(value)

    def fill(self, cell, value, reads=(), caption=None):
        """Sets `cell` (i, or (row, column)) to value, computed from the cells `reads`."""
        self.set(cell, value)
        cell = self._cell(cell)
        where = ",".join(str(index) for index in cell)
        self._step("fill", cell, [self._cell(read) for read in reads],
                   caption if caption is not None else f"Cell ({where}) = {_json(value)}")

    def step(self, action, caption=None):
        self._step(action, None, [], caption if caption is not None else str(action))

    def _step(self, action, cell, reads, caption):
        body = {"action": action, "table": self._table}
        if self._row_labels is not None:
            body["row_labels"] = self._row_labels
        if self._col_labels is not None:
            body["col_labels"] = self._col_labels
        body.update({"cell": cell, "reads": reads, "caption": caption})
        _write(body)


class MatchRecorder:
    """String matching of `pattern` in `text` (naive, KMP, Rabin-Karp), indexed by character."""

    def __init__(self, text, pattern):
        self._text, self._pattern = str(text), str(pattern)
        self._offset, self._index = 0, None
        self._found = []
        self._failure = None
        self._hashes = None

    @property
    def found(self):
        return list(self._found)

    def set_failure(self, failure):
        """KMP's failure table: written with every step from now on (with `failure_at`)."""
        self._failure = list(failure)

    def compare(self, offset, index, caption=None):
        """Compares text[offset + index] with pattern[index]."""
        if caption is None:
            caption = (f"Compare text[{offset + index}] ({_json(self._text[offset + index])}) "
                       f"with pattern[{index}] ({_json(self._pattern[index])})")
        self._offset, self._index = offset, index
        self._step("compare", None, caption)

    def shift(self, offset, index, caption=None):
        """Slides the pattern to `offset`, going on at pattern[index]."""
        self._offset, self._index = offset, index
        self._step("shift", None, caption if caption is not None else f"Shift the pattern to offset {offset}")

    def shift_by_failure(self, failure_at, caption=None):
        """KMP after a mismatch at pattern[j]: goes on at failure[failure_at] (j - 1), the offset moving with it."""
        if self._failure is None:
            raise RecorderError("shift_by_failure needs the failure table: call set_failure first")
        resume = self._failure[failure_at]
        self._offset += (self._index or 0) - resume
        self._index = resume
        self._step("shift", failure_at, caption if caption is not None else
                   f"failure[{failure_at}] is {resume}: shift the pattern to offset {self._offset}")

    def match(self, offset, caption=None):
        """The pattern occurs at offset: it joins `found`."""
        self._offset = offset
        self._found.append(offset)
        self._step("found", None, caption if caption is not None else f"Found the pattern at offset {offset}")

    def hash(self, offset, window_hash, pattern_hash, caption=None):
        """Rabin-Karp: the window at offset has window_hash; both hashes are written from now on."""
        self._offset, self._index = offset, None
        self._hashes = (window_hash, pattern_hash)
        self._step("hash", None, caption if caption is not None else
                   f"Offset {offset}: window hash {window_hash}, pattern hash {pattern_hash}")

    def step(self, action, caption=None):
        self._step(action, None, caption if caption is not None else str(action))

    def _step(self, action, failure_at, caption):
        body = {"action": action, "text": self._text, "pattern": self._pattern, "offset": self._offset,
                "index": self._index, "found": list(self._found)}
        if self._failure is not None:
            body["failure"] = self._failure
            body["failure_at"] = failure_at
        if self._hashes is not None:
            body["window_hash"], body["pattern_hash"] = self._hashes
        body["caption"] = caption
        _write(body)


class UnionFindRecorder:
    """Union-find over elements 0..n-1, with union by rank unless `by_rank` is False."""

    def __init__(self, n, by_rank=True, labels=None):
        self._parent = list(range(n))
        self._rank = [0] * n if by_rank else None
        self._labels = None if labels is None else [str(label) for label in labels]

    @property
    def parent(self):
        return list(self._parent)

    @property
    def rank(self):
        return None if self._rank is None else list(self._rank)

    def root(self, x):
        """x's root, changing nothing and writing no step."""
        while self._parent[x] != x:
            x = self._parent[x]
        return x

    def find(self, x, caption=None):
        """x's root, with path compression (every element on the way then points at the root)."""
        root, at = self.root(x), x
        while self._parent[at] != root:
            self._parent[at], at = root, self._parent[at]
        self.step("find", [x], caption if caption is not None else f"Find {x}: its root is {root}")
        return root

    def union(self, a, b, caption=None):
        """Joins a's and b's sets (the root of lower rank goes under the other; without ranks, b's root
        under a's); returns False when they were one set already."""
        root_a, root_b = self.root(a), self.root(b)
        if caption is None:
            caption = f"Union {a} and {b}" if root_a != root_b else f"{a} and {b} are already in one set"
        if root_a != root_b:
            upper, lower = root_a, root_b
            if self._rank is not None:
                if self._rank[upper] < self._rank[lower]:
                    upper, lower = lower, upper
                if self._rank[upper] == self._rank[lower]:
                    self._rank[upper] += 1
            self._parent[lower] = upper
        self.step("union", [root_a, root_b], caption)
        return root_a != root_b

    def set_parent(self, x, parent):
        self._parent[x]
        self._parent[parent]
        self._parent[x] = parent

    def set_rank(self, x, rank):
        if self._rank is None:
            raise RecorderError("this union-find has no ranks (by_rank=False)")
        self._rank[x] = rank

    def step(self, action, active=None, caption=None):
        body = {"action": action, "parent": self._parent}
        if self._rank is not None:
            body["rank"] = self._rank
        if self._labels is not None:
            body["labels"] = self._labels
        if active is not None:
            body["active"] = list(active)
        body["caption"] = caption if caption is not None else str(action)
        _write(body)
