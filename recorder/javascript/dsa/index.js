'use strict';
// dsa-run's step recorder: an algorithm records what it does, one `@step {json}` line per step.
//
//   const { Recorder } = require('dsa');
//   const rec = new Recorder([5, 2, 4]);
//   rec.compare(0, 1);                       // @step {"action":"compare","active":[0,1],...}
//   rec.swap(0, 1, '2 is smaller: swap');
//   rec.done();
//
// The recorder keeps the elements with stable ids, writes every step to stdout at once and makes
// up a caption when none is given. docs/challenges.md ("Step recorder") has the whole API; the
// shape recorders below (ListRecorder ... UnionFindRecorder) write the other step shapes.

const MAX_STEPS = 100000;
let stepsWritten = 0; // per process, whatever the number of recorders

class RecorderError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RecorderError';
  }
}

function checkValue(value) {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RecorderError(`the recorder cannot write ${value}: JSON has no NaN or Infinity`);
  }
  if (typeof value === 'bigint' && (value > 9223372036854775807n || value < -9223372036854775808n)) {
    throw new RecorderError(`the recorder cannot write ${value}: it holds 64-bit integers`);
  }
  if (Array.isArray(value)) {
    value.forEach(checkValue);
  } else if (value !== null && typeof value === 'object') {
    Object.values(value).forEach(checkValue);
  }
  return value;
}

// JSON with BigInt as plain integers (64-bit values a Number cannot hold exactly).
function toJSON(value) {
  if (typeof value === 'bigint') return value.toString();
  // A Map keeps its names in insertion order, even names that look like integers.
  if (value instanceof Map) {
    return '{' + [...value].map(([key, item]) => JSON.stringify(String(key)) + ':' + toJSON(item)).join(',') + '}';
  }
  if (Array.isArray(value)) return '[' + value.map(toJSON).join(',') + ']';
  if (value !== null && typeof value === 'object') {
    return '{' + Object.keys(value).filter((key) => value[key] !== undefined)
      .map((key) => JSON.stringify(key) + ':' + toJSON(value[key])).join(',') + '}';
  }
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}

class Recorder {
  /** @param {Array<number|bigint|string>} [items] the elements; none for a search or a graph walk */
  constructor(items = []) {
    this._array = Array.from(items, checkValue);
    this._ids = this._array.map((_, index) => index);
    this._nextId = this._array.length;
    this._sorted = new Set();
    this._visited = [];
    this._frontier = [];
    this._current = null;
  }

  /**
   * The current values, in their current order: the recorder's own array, not a copy (reading it in
   * a loop costs nothing); change it only through swap and overwrite.
   */
  get array() { return this._array; }
  get items() { return this._array; }
  /** The current elements' ids, in the array's order. */
  get ids() { return this._ids.slice(); }
  get length() { return this._array.length; }
  get visited() { return this._visited.slice(); }
  get frontier() { return this._frontier.slice(); }

  _index(i) {
    if (!Number.isInteger(i) || i < 0 || i >= this._array.length) {
      throw new RangeError(`index ${i} is outside the recorder's ${this._array.length} elements`);
    }
    return i;
  }

  compare(i, j, caption) {
    this._index(i); this._index(j);
    this._arrayStep('compare', [i, j], caption ??
      `Compare index ${i} (${toJSON(this._array[i])}) with index ${j} (${toJSON(this._array[j])})`);
  }

  swap(i, j, caption) {
    this._index(i); this._index(j);
    [this._array[i], this._array[j]] = [this._array[j], this._array[i]];
    [this._ids[i], this._ids[j]] = [this._ids[j], this._ids[i]];
    this._arrayStep('swap', [i, j], caption ?? `Swap index ${i} and index ${j}`);
  }

  overwrite(i, value, caption) {
    this._index(i);
    checkValue(value);
    this._array[i] = value;
    this._ids[i] = this._nextId++;
    this._arrayStep('overwrite', [i], caption ?? `Write ${toJSON(value)} at index ${i}`);
  }

  /** Marks index i sorted; no step of its own (the next step shows it). */
  markSorted(i) {
    this._sorted.add(this._index(i));
  }

  done(caption) {
    this._array.forEach((_, index) => this._sorted.add(index));
    this._arrayStep('done', [], caption ?? 'Done');
  }

  _arrayStep(action, active, caption) {
    write({
      action, active, array: this._array, ids: this._ids,
      sorted: [...this._sorted].sort((a, b) => a - b), caption,
    });
  }

  /** A binary-search probe; mid null for an empty window. */
  probe(low, mid, high, found = false, caption) {
    if (caption === undefined || caption === null) {
      if (mid === null || mid === undefined) caption = `Empty window: low ${low}, high ${high}`;
      else if (found) caption = `Found at index ${mid}`;
      else caption = `Probe index ${mid}: low ${low}, high ${high}`;
    }
    write({ action: 'probe', low, high, mid: mid ?? null, found: Boolean(found), caption });
  }

  visit(node, caption) {
    checkValue(node);
    const at = this._frontier.indexOf(node);
    if (at >= 0) this._frontier.splice(at, 1);
    if (!this._visited.includes(node)) this._visited.push(node);
    this._current = node;
    this._graphStep('visit', caption ?? `Visit node ${toJSON(node)}`);
  }

  discover(node, caption) {
    checkValue(node);
    if (!this._visited.includes(node)) this._visited.push(node);
    this._frontier.push(node);
    this._graphStep('discover', caption ?? `Discover node ${toJSON(node)}`);
  }

  _graphStep(action, caption) {
    write({ action, current: this._current, visited: this._visited, frontier: this._frontier, caption });
  }

  /** Any step: rec.step('highlight', { cells: [1, 2] }). */
  step(action, fields = {}, caption) {
    const body = { action: String(action) };
    for (const [name, value] of Object.entries(fields ?? {})) {
      if (name !== 'action' && name !== 'caption') body[name] = checkValue(value);
    }
    body.caption = caption ?? String(action);
    write(body);
  }
}

function write(body) {
  if (stepsWritten >= MAX_STEPS) {
    throw new RecorderError(`too many steps: the recorder keeps at most ${MAX_STEPS}`);
  }
  if (typeof body.caption !== 'string') {
    throw new RecorderError('a caption is text: pass a string (or nothing, for the default)');
  }
  const line = '@step ' + toJSON(body) + '\n';
  stepsWritten += 1;
  // process.stdout.write looked up at each call: a function challenge's driver replaces it, and the
  // runner makes stdout blocking, so each step is out before the call returns.
  process.stdout.write(line);
}

// ---- shape recorders ------------------------------------------------------------------------
// One object per structure (docs/challenges.md, "Step shapes"): it keeps the structure and its ids
// (given in creation order, never reused). A call that is one step by nature (push, pop, union,
// fill, probe...) writes it; an edit an algorithm makes several of before one picture (a relink, a
// rotation, a move) is silent, and step(action) writes the structure as it is then.

function captionOr(caption, fallback) {
  return caption === undefined || caption === null ? fallback : caption;
}

/** Nodes by id (ids are 0, 1, 2... in creation order); removed ones are null. */
class Nodes {
  constructor(what) {
    this.what = what;
    this.nodes = [];
  }

  add(node) {
    this.nodes.push(node);
    return this.nodes.length - 1;
  }

  get(id) {
    if (!Number.isInteger(id) || id < 0 || id >= this.nodes.length || this.nodes[id] === null) {
      throw new RecorderError(`no ${this.what} ${id}: ids are the ones the recorder gave`);
    }
    return this.nodes[id];
  }

  check(id) {
    if (id !== null && id !== undefined) this.get(id);
    return id ?? null;
  }

  remove(id) {
    this.get(id);
    this.nodes[id] = null;
  }

  alive() {
    return this.nodes.flatMap((node, id) => (node === null ? [] : [[id, node]]));
  }
}

function clearPointers(pointers, id) {
  for (const [name, target] of pointers) if (target === id) pointers.set(name, null);
}

class ListRecorder {
  /**
   * new ListRecorder([1, 2, 3]) chains nodes 0 -> 1 -> 2 with the head at 0; with doubly true each
   * node has a prev too and the list a tail.
   */
  constructor(values = [], doubly = false) {
    this._nodes = new Nodes('node');
    this._head = null;
    this._doubly = Boolean(doubly);
    this._tail = null;
    this._pointers = new Map();
    let previous = null;
    for (const value of values) {
      const node = this.add(value);
      if (previous === null) {
        this._head = node;
      } else {
        this.link(previous, node);
        if (this._doubly) this.linkPrev(node, previous);
      }
      previous = node;
    }
    if (this._doubly) this._tail = previous;
  }

  /** A new node, linked to nothing; returns its id. */
  add(value) { return this._nodes.add({ value: checkValue(value), next: null, prev: null }); }
  link(node, next) { this._nodes.get(node).next = this._nodes.check(next); }
  /** A doubly linked list's back link. */
  linkPrev(node, prev) {
    this._checkDoubly('linkPrev');
    this._nodes.get(node).prev = this._nodes.check(prev);
  }
  setTail(node) {
    this._checkDoubly('setTail');
    this._tail = this._nodes.check(node);
  }
  _checkDoubly(call) {
    if (!this._doubly) {
      throw new RecorderError(`${call} is for a doubly linked list: new ListRecorder(values, true)`);
    }
  }
  setHead(node) { this._head = this._nodes.check(node); }
  /** Sets the algorithm's pointer name (prev, curr, slow...) to a node id or null. */
  point(name, node) { this._pointers.set(String(name), this._nodes.check(node)); }

  /** The node leaves the list; a link, the head or a pointer to it becomes null. */
  remove(node) {
    this._nodes.remove(node);
    for (const [, other] of this._nodes.alive()) {
      if (other.next === node) other.next = null;
      if (other.prev === node) other.prev = null;
    }
    if (this._head === node) this._head = null;
    if (this._tail === node) this._tail = null;
    clearPointers(this._pointers, node);
  }

  get head() { return this._head; }
  value(node) { return this._nodes.get(node).value; }
  next(node) { return this._nodes.get(node).next; }
  get tail() { return this._tail; }
  prev(node) { return this._nodes.get(node).prev; }

  step(action, active, caption) {
    const body = { action: String(action), head: this._head };
    if (this._doubly) body.tail = this._tail;
    body.nodes = this._nodes.alive().map(([id, node]) => (this._doubly
      ? { id, value: node.value, next: node.next, prev: node.prev } : { id, value: node.value, next: node.next }));
    body.pointers = new Map(this._pointers);
    if (active !== undefined && active !== null) body.active = active.map((node) => this._nodes.check(node));
    body.caption = captionOr(caption, String(action));
    write(body);
  }
}

class TreeRecorder {
  constructor() {
    this._nodes = new Nodes('node');
    this._root = null;
    this._pointers = new Map();
  }

  /** A new node, linked to nothing; returns its id (the first node added becomes the root). */
  add(value) {
    const node = this._nodes.add({ value: checkValue(value), left: null, right: null });
    if (node === 0) this._root = node;
    return node;
  }

  setLeft(node, child) { this._nodes.get(node).left = this._nodes.check(child); }
  setRight(node, child) { this._nodes.get(node).right = this._nodes.check(child); }
  setRoot(node) { this._root = this._nodes.check(node); }
  setValue(node, value) { this._nodes.get(node).value = checkValue(value); }
  /** An AVL node's height, written beside the node from now on. */
  setHeight(node, height) { this._nodes.get(node).height = height; }
  /** A segment tree node's range [low, high], written beside the node from now on. */
  setRange(node, low, high) { this._nodes.get(node).range = [low, high]; }
  point(name, node) { this._pointers.set(String(name), this._nodes.check(node)); }

  /** The node leaves the tree; a link, the root or a pointer to it becomes null. */
  remove(node) {
    this._nodes.remove(node);
    for (const [, other] of this._nodes.alive()) {
      if (other.left === node) other.left = null;
      if (other.right === node) other.right = null;
    }
    if (this._root === node) this._root = null;
    clearPointers(this._pointers, node);
  }

  get root() { return this._root; }
  value(node) { return this._nodes.get(node).value; }
  left(node) { return this._nodes.get(node).left; }
  right(node) { return this._nodes.get(node).right; }

  step(action, active, visited, caption) {
    const body = {
      action: String(action), root: this._root,
      nodes: this._nodes.alive().map(([id, node]) => {
        const written = { id, value: node.value, left: node.left, right: node.right };
        if (node.height !== undefined) written.height = node.height;
        if (node.range !== undefined) written.range = node.range;
        return written;
      }),
    };
    if (this._pointers.size > 0) body.pointers = new Map(this._pointers);
    if (active !== undefined && active !== null) body.active = active.map((node) => this._nodes.check(node));
    if (visited !== undefined && visited !== null) body.visited = visited.map((node) => this._nodes.check(node));
    body.caption = captionOr(caption, String(action));
    write(body);
  }
}

class HeapRecorder {
  /** A binary heap in array order (index i's children at 2i+1 and 2i+2); element k gets id k. */
  constructor(values = []) {
    this._heap = Array.from(values, checkValue);
    this._ids = this._heap.map((_, index) => index);
    this._nextId = this._heap.length;
  }

  /** The recorder's own array of values; change it only through the recorder. */
  get heap() { return this._heap; }
  get ids() { return this._ids.slice(); }
  get length() { return this._heap.length; }

  _index(i) {
    if (!Number.isInteger(i) || i < 0 || i >= this._heap.length) {
      throw new RangeError(`index ${i} is outside the heap's ${this._heap.length} elements`);
    }
    return i;
  }

  /** Appends value (a fresh id) at the end; sifting it up is the algorithm's compares and swaps. */
  push(value, caption) {
    this._heap.push(checkValue(value));
    this._ids.push(this._nextId++);
    this.step('push', [this._heap.length - 1], captionOr(caption, `Push ${toJSON(value)}`));
  }

  /** Takes the root out and moves the last element to the root; returns the root's value. */
  pop(caption) {
    if (this._heap.length === 0) throw new RecorderError('pop from an empty heap');
    const value = this._heap[0];
    this._heap[0] = this._heap[this._heap.length - 1];
    this._ids[0] = this._ids[this._ids.length - 1];
    this._heap.pop();
    this._ids.pop();
    this.step('pop', this._heap.length > 0 ? [0] : [], captionOr(caption, `Pop ${toJSON(value)}`));
    return value;
  }

  compare(i, j, caption) {
    this._index(i); this._index(j);
    this.step('compare', [i, j], captionOr(caption,
      `Compare index ${i} (${toJSON(this._heap[i])}) with index ${j} (${toJSON(this._heap[j])})`));
  }

  swap(i, j, caption) {
    this._index(i); this._index(j);
    [this._heap[i], this._heap[j]] = [this._heap[j], this._heap[i]];
    [this._ids[i], this._ids[j]] = [this._ids[j], this._ids[i]];
    this.step('swap', [i, j], captionOr(caption, `Swap index ${i} and index ${j}`));
  }

  step(action, active = [], caption) {
    const indices = (active ?? []).map((i) => this._index(i));
    write({ action: String(action), heap: this._heap, ids: this._ids, active: indices,
      caption: captionOr(caption, String(action)) });
  }
}

class StackRecorder {
  /** A stack, queue or deque (kind, the step's list name): bottom to top, or front to back. */
  constructor(kind = 'stack', values = []) {
    if (!['stack', 'queue', 'deque'].includes(kind)) {
      throw new RecorderError(`kind is stack, queue or deque, not ${kind}`);
    }
    this._kind = kind;
    this._items = Array.from(values, checkValue);
    this._ids = this._items.map((_, index) => index);
    this._nextId = this._items.length;
  }

  /** The recorder's own array, bottom to top (front to back); change it only through the recorder. */
  get items() { return this._items; }
  get ids() { return this._ids.slice(); }
  get length() { return this._items.length; }

  _add(front, value, action, caption) {
    checkValue(value);
    const id = this._nextId++;
    if (front) { this._items.unshift(value); this._ids.unshift(id); } else { this._items.push(value); this._ids.push(id); }
    this._step(action, { id, value }, caption);
  }

  _take(front, action, caption, fallback) {
    if (this._items.length === 0) throw new RecorderError(`${action} from an empty ${this._kind}`);
    const value = front ? this._items.shift() : this._items.pop();
    const id = front ? this._ids.shift() : this._ids.pop();
    this._step(action, { id, value }, captionOr(caption, fallback(value)));
    return value;
  }

  push(value, caption) { this._add(false, value, 'push', captionOr(caption, `Push ${toJSON(value)}`)); }
  pop(caption) { return this._take(false, 'pop', caption, (value) => `Pop ${toJSON(value)}`); }
  enqueue(value, caption) { this._add(false, value, 'enqueue', captionOr(caption, `Enqueue ${toJSON(value)}`)); }
  dequeue(caption) { return this._take(true, 'dequeue', caption, (value) => `Dequeue ${toJSON(value)}`); }
  pushFront(value, caption) {
    this._add(true, value, 'push_front', captionOr(caption, `Push ${toJSON(value)} at the front`));
  }
  pushBack(value, caption) {
    this._add(false, value, 'push_back', captionOr(caption, `Push ${toJSON(value)} at the back`));
  }
  popFront(caption) { return this._take(true, 'pop_front', caption, (value) => `Pop ${toJSON(value)} from the front`); }
  popBack(caption) { return this._take(false, 'pop_back', caption, (value) => `Pop ${toJSON(value)} from the back`); }

  /** The top of a stack, the front of a queue or deque; moved is null. */
  peek(caption) {
    if (this._items.length === 0) throw new RecorderError(`peek at an empty ${this._kind}`);
    const value = this._kind === 'stack' ? this._items[this._items.length - 1] : this._items[0];
    this._step('peek', null, captionOr(caption, `Peek ${toJSON(value)}`));
    return value;
  }

  step(action, caption) { this._step(String(action), null, captionOr(caption, String(action))); }

  _step(action, moved, caption) {
    write({ action, [this._kind]: this._items, ids: this._ids, moved, caption });
  }
}

class HashMapRecorder {
  /** A hash table of bucketCount buckets; each entry gets an id when inserted. */
  constructor(bucketCount) {
    this._buckets = Array.from({ length: bucketCount }, () => []);
    this._entries = new Nodes('entry');
    this._key = null;
    this._hash = null;
    this._probe = [];
  }

  _bucket(index) {
    if (!Number.isInteger(index) || index < 0 || index >= this._buckets.length) {
      throw new RangeError(`bucket ${index} is outside the map's ${this._buckets.length} buckets`);
    }
    return this._buckets[index];
  }

  /** An operation on key begins: its key and hash are written from now on, the probe starts empty. */
  start(key, hash) {
    this._key = checkValue(key);
    this._hash = hash;
    this._probe = [];
  }

  probe(bucket, caption) {
    this._bucket(bucket);
    this._probe.push(bucket);
    this.step('probe', null, captionOr(caption, `Probe bucket ${bucket}`));
  }

  /** Adds the entry at the end of bucket; returns its id. */
  insert(bucket, key, value, caption) {
    this._bucket(bucket);
    const entry = this._entries.add({ key: checkValue(key), value: checkValue(value), bucket });
    this._buckets[bucket].push(entry);
    this.step('insert', [entry], captionOr(caption, `Put ${toJSON(key)} in bucket ${bucket}`));
    return entry;
  }

  remove(entry, caption) {
    const { key, bucket } = this._entries.get(entry);
    this._buckets[bucket].splice(this._buckets[bucket].indexOf(entry), 1);
    this.step('remove', [entry], captionOr(caption, `Remove ${toJSON(key)}`));
    this._entries.remove(entry);
  }

  setValue(entry, value) { this._entries.get(entry).value = checkValue(value); }

  /** Open addressing's delete: the entry stays in its bucket as a tombstone ("deleted": true). */
  markDeleted(entry, caption) {
    const node = this._entries.get(entry);
    node.deleted = true;
    this.step('delete', [entry], captionOr(caption, `Delete ${toJSON(node.key)}: a tombstone stays`));
  }

  /** More buckets (entries stay where they are until moved). */
  resize(bucketCount) {
    if (bucketCount < this._buckets.length) {
      throw new RecorderError('a hash map grows: move the entries, then resize to more buckets');
    }
    while (this._buckets.length < bucketCount) this._buckets.push([]);
  }

  /** Moves the entry to the end of bucket (a rehash); no step. */
  move(entry, bucket) {
    this._bucket(bucket);
    const node = this._entries.get(entry);
    this._buckets[node.bucket].splice(this._buckets[node.bucket].indexOf(entry), 1);
    this._buckets[bucket].push(entry);
    node.bucket = bucket;
  }

  key(entry) { return this._entries.get(entry).key; }
  value(entry) { return this._entries.get(entry).value; }
  /** The ids of a bucket's entries, in order. */
  bucket(index) { return this._bucket(index).slice(); }

  step(action, active, caption) {
    const body = {
      action: String(action),
      buckets: this._buckets.map((bucket) => bucket.map((entry) => {
        const { key, value, deleted } = this._entries.get(entry);
        return deleted ? { id: entry, key, value, deleted: true } : { id: entry, key, value };
      })),
      key: this._key, hash: this._hash, probe: this._probe.slice(),
    };
    if (active !== undefined && active !== null) body.active = active.map((entry) => this._entries.check(entry));
    body.caption = captionOr(caption, String(action));
    write(body);
  }
}

class TableRecorder {
  /** A DP table: new TableRecorder(rows, cols) (2-D) or new TableRecorder(n) (1-D), every cell null. */
  constructor(rows, cols, rowLabels, colLabels) {
    this._flat = cols === undefined || cols === null;
    this._table = this._flat ? new Array(rows).fill(null)
      : Array.from({ length: rows }, () => new Array(cols).fill(null));
    this._rowLabels = rowLabels ? rowLabels.map(String) : null;
    this._colLabels = colLabels ? colLabels.map(String) : null;
  }

  /** The recorder's own table (an array, or an array of rows); change it only through the recorder. */
  get table() { return this._table; }

  _cell(cell) {
    const at = typeof cell === 'number' ? [cell] : Array.from(cell);
    const rows = this._table.length;
    const inside = this._flat ? at.length === 1 && at[0] >= 0 && at[0] < rows
      : at.length === 2 && at[0] >= 0 && at[0] < rows && at[1] >= 0 && at[1] < this._table[at[0]].length;
    if (!inside || !at.every(Number.isInteger)) {
      throw new RecorderError(`no cell ${JSON.stringify(cell)} in this table`);
    }
    return at;
  }

  get(cell) {
    const at = this._cell(cell);
    return this._flat ? this._table[at[0]] : this._table[at[0]][at[1]];
  }

  /** Sets a cell without a step (base cases before the first step). */
  set(cell, value) {
    const at = this._cell(cell);
    if (this._flat) this._table[at[0]] = checkValue(value); else this._table[at[0]][at[1]] = checkValue(value);
  }

  /** Sets cell (i, or [row, column]) to value, computed from the cells reads. */
  fill(cell, value, reads = [], caption) {
    this.set(cell, value);
    const at = this._cell(cell);
    this._step('fill', at, reads.map((read) => this._cell(read)),
      captionOr(caption, `Cell (${at.join(',')}) = ${toJSON(value)}`));
  }

  step(action, caption) { this._step(String(action), null, [], captionOr(caption, String(action))); }

  _step(action, cell, reads, caption) {
    const body = { action, table: this._table };
    if (this._rowLabels !== null) body.row_labels = this._rowLabels;
    if (this._colLabels !== null) body.col_labels = this._colLabels;
    Object.assign(body, { cell, reads, caption });
    write(body);
  }
}

class MatchRecorder {
  /** String matching of pattern in text (naive, KMP, Rabin-Karp), indexed by character. */
  constructor(text, pattern) {
    this._text = String(text);
    this._pattern = String(pattern);
    this._textChars = Array.from(this._text);
    this._patternChars = Array.from(this._pattern);
    this._offset = 0;
    this._index = null;
    this._found = [];
    this._failure = null;
    this._hashes = null;
  }

  get found() { return this._found.slice(); }

  /** KMP's failure table: written with every step from now on (with failure_at). */
  setFailure(failure) { this._failure = Array.from(failure); }

  /** Compares text[offset + index] with pattern[index]. */
  compare(offset, index, caption) {
    const fallback = () => `Compare text[${offset + index}] (${toJSON(this._textChars[offset + index])}) ` +
      `with pattern[${index}] (${toJSON(this._patternChars[index])})`;
    this._offset = offset;
    this._index = index;
    this._step('compare', null, captionOr(caption, fallback()));
  }

  /** Slides the pattern to offset, going on at pattern[index]. */
  shift(offset, index, caption) {
    this._offset = offset;
    this._index = index;
    this._step('shift', null, captionOr(caption, `Shift the pattern to offset ${offset}`));
  }

  /** KMP after a mismatch at pattern[j]: goes on at failure[failureAt] (j - 1), the offset moving with it. */
  shiftByFailure(failureAt, caption) {
    if (this._failure === null) {
      throw new RecorderError('shiftByFailure needs the failure table: call setFailure first');
    }
    const resume = this._failure[failureAt];
    this._offset += (this._index ?? 0) - resume;
    this._index = resume;
    this._step('shift', failureAt,
      captionOr(caption, `failure[${failureAt}] is ${resume}: shift the pattern to offset ${this._offset}`));
  }

  /** The pattern occurs at offset: it joins found. */
  match(offset, caption) {
    this._offset = offset;
    this._found.push(offset);
    this._step('found', null, captionOr(caption, `Found the pattern at offset ${offset}`));
  }

  /** Rabin-Karp: the window at offset has windowHash; both hashes are written from now on. */
  hash(offset, windowHash, patternHash, caption) {
    this._offset = offset;
    this._index = null;
    this._hashes = [windowHash, patternHash];
    this._step('hash', null,
      captionOr(caption, `Offset ${offset}: window hash ${windowHash}, pattern hash ${patternHash}`));
  }

  step(action, caption) { this._step(String(action), null, captionOr(caption, String(action))); }

  _step(action, failureAt, caption) {
    const body = {
      action, text: this._text, pattern: this._pattern, offset: this._offset, index: this._index,
      found: this._found.slice(),
    };
    if (this._failure !== null) {
      body.failure = this._failure;
      body.failure_at = failureAt;
    }
    if (this._hashes !== null) [body.window_hash, body.pattern_hash] = this._hashes;
    body.caption = caption;
    write(body);
  }
}

class UnionFindRecorder {
  /** Union-find over elements 0..n-1, with union by rank unless byRank is false. */
  constructor(n, byRank = true, labels) {
    this._parent = Array.from({ length: n }, (_, index) => index);
    this._rank = byRank ? new Array(n).fill(0) : null;
    this._labels = labels ? labels.map(String) : null;
  }

  get parent() { return this._parent.slice(); }
  get rank() { return this._rank === null ? null : this._rank.slice(); }

  _element(x) {
    if (!Number.isInteger(x) || x < 0 || x >= this._parent.length) {
      throw new RangeError(`element ${x} is outside the union-find's ${this._parent.length} elements`);
    }
    return x;
  }

  /** x's root, changing nothing and writing no step. */
  root(x) {
    let at = this._element(x);
    while (this._parent[at] !== at) at = this._parent[at];
    return at;
  }

  /** x's root, with path compression (every element on the way then points at the root). */
  find(x, caption) {
    const root = this.root(x);
    let at = x;
    while (this._parent[at] !== root) [this._parent[at], at] = [root, this._parent[at]];
    this.step('find', [x], captionOr(caption, `Find ${x}: its root is ${root}`));
    return root;
  }

  /**
   * Joins a's and b's sets (the root of lower rank goes under the other; without ranks, b's root
   * under a's); returns false when they were one set already.
   */
  union(a, b, caption) {
    const rootA = this.root(a);
    const rootB = this.root(b);
    const fallback = rootA !== rootB ? `Union ${a} and ${b}` : `${a} and ${b} are already in one set`;
    if (rootA !== rootB) {
      let [upper, lower] = [rootA, rootB];
      if (this._rank !== null) {
        if (this._rank[upper] < this._rank[lower]) [upper, lower] = [lower, upper];
        if (this._rank[upper] === this._rank[lower]) this._rank[upper] += 1;
      }
      this._parent[lower] = upper;
    }
    this.step('union', [rootA, rootB], captionOr(caption, fallback));
    return rootA !== rootB;
  }

  setParent(x, parent) { this._parent[this._element(x)] = this._element(parent); }

  setRank(x, rank) {
    if (this._rank === null) throw new RecorderError('this union-find has no ranks (byRank false)');
    this._rank[this._element(x)] = rank;
  }

  step(action, active, caption) {
    const body = { action: String(action), parent: this._parent };
    if (this._rank !== null) body.rank = this._rank;
    if (this._labels !== null) body.labels = this._labels;
    if (active !== undefined && active !== null) body.active = active.map((x) => this._element(x));
    body.caption = captionOr(caption, String(action));
    write(body);
  }
}

module.exports = {
  Recorder, RecorderError, MAX_STEPS, ListRecorder, TreeRecorder, HeapRecorder, StackRecorder,
  HashMapRecorder, TableRecorder, MatchRecorder, UnionFindRecorder,
};
