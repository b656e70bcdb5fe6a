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
// up a caption when none is given. docs/challenges.md ("Step recorder") has the whole API.

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

module.exports = { Recorder, RecorderError, MAX_STEPS };
