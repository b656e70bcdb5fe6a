// The step player: one view per step shape of docs/challenges.md (array bars, a search window,
// a graph's visited/frontier/current here; the other shapes' views in shapes.js),
// play/pause/step/scrub/speed, the caption in an aria-live region. Steps may be appended while a
// program still runs.

import { EXTRA_VIEWS, SVG, clear, extraShapeOf, itemsOf, reducedMotion, setClass, setStyle } from "./shapes.js";

const BASE_STEP_MS = 700;

export function shapeOf(step) {
  if (!step || typeof step !== "object") return "json";
  const extra = extraShapeOf(step);
  if (extra) return extra;
  if (Array.isArray(step.array)) return "array";
  if ("low" in step && "high" in step) return "search";
  if (Array.isArray(step.visited) || Array.isArray(step.frontier)) return "graph";
  return "json";
}

// A caption for a step that has none (a learner's own step lines rarely do).
export function describe(step) {
  if (step.caption) return step.caption;
  const parts = [];
  if (step.action) parts.push(step.action);
  if (Array.isArray(step.active) && step.active.length) parts.push("at " + step.active.join(" and "));
  if ("mid" in step) parts.push(`low ${step.low}, mid ${step.mid}, high ${step.high}`);
  if ("current" in step && step.current !== null) parts.push("current " + step.current);
  if (step.moved && typeof step.moved === "object" && "value" in step.moved) parts.push(JSON.stringify(step.moved.value));
  if (Array.isArray(step.cell)) parts.push("cell " + step.cell.join(", "));
  if (typeof step.offset === "number") parts.push("offset " + step.offset);
  return parts.length ? parts.join(" ") : "(no caption)";
}

// Gives each array position the identity of the item that was there one step before, matching
// equal values in order, so a moved value keeps its bar.
function nextIdentities(previousArray, previousIds, array, fresh) {
  const byValue = new Map();
  if (previousArray) {
    previousArray.forEach((value, index) => {
      const key = String(value);
      if (!byValue.has(key)) byValue.set(key, []);
      byValue.get(key).push(previousIds[index]);
    });
  }
  const used = new Set();
  return array.map((value) => {
    const queue = byValue.get(String(value));
    while (queue && queue.length) {
      const id = queue.shift();
      if (!used.has(id)) { used.add(id); return id; }
    }
    const id = fresh();
    used.add(id);
    return id;
  });
}

class ArrayView {
  constructor(stage) {
    this.stage = stage;
    this.bars = new Map();
    this.root = document.createElement("div");
    this.root.className = "bars";
    stage.appendChild(this.root);
  }

  render(step, ids, range, previousIds) {
    const width = this.stage.clientWidth || 400;
    const height = (this.stage.clientHeight || 200) - 24;
    const n = step.array.length;
    const slot = width / Math.max(n, 1);
    const active = new Set(step.active || []);
    const sorted = new Set(step.sorted || []);
    const seen = new Set();
    const labels = n <= 24;
    const fade = reducedMotion.matches && previousIds;
    step.array.forEach((value, index) => {
      const id = ids[index];
      seen.add(id);
      let bar = this.bars.get(id);
      if (!bar) {
        bar = document.createElement("div");
        bar.className = "bar";
        bar.appendChild(document.createElement("span"));
        this.root.appendChild(bar);
        this.bars.set(id, bar);
      }
      const share = range.max === range.min ? 1 : (value - range.min) / (range.max - range.min);
      // Only what changed is written: at 4x a sort writes a few bars a frame, not every one.
      setStyle(bar, "width", Math.max(slot - 2, 1) + "px");
      setStyle(bar, "height", Math.round(8 + share * (height - 12)) + "px");
      const moved = previousIds && previousIds[index] !== id;
      if (fade && moved) {
        // Cross-fade: drop to transparent without a transition, then fade back in where it belongs.
        bar.classList.add("fading");
        requestAnimationFrame(() => bar.classList.remove("fading"));
      }
      setStyle(bar, "transform", `translateX(${(index * slot + 1).toFixed(1)}px)`);
      setClass(bar, "active", active.has(index));
      setClass(bar, "sorted", sorted.has(index));
      const label = labels ? String(value) : "";
      if (bar.firstChild.textContent !== label) bar.firstChild.textContent = label;
    });
    for (const [id, bar] of this.bars) {
      if (!seen.has(id)) { bar.remove(); this.bars.delete(id); }
    }
  }
}

class SearchView {
  constructor(stage, context) {
    this.stage = stage;
    this.context = context;
    this.root = document.createElement("div");
    this.root.className = "cells";
    stage.appendChild(this.root);
    this.cells = [];
  }

  ensure(count) {
    while (this.cells.length < count) {
      const cell = document.createElement("div");
      cell.className = "cell";
      const mark = document.createElement("span");
      mark.className = "mark";
      cell.appendChild(mark);
      cell.appendChild(document.createTextNode(""));
      this.root.appendChild(cell);
      this.cells.push(cell);
    }
  }

  render(step, _ids, range) {
    const values = this.context.array;
    const count = values ? values.length : range.searchSize;
    this.ensure(count);
    this.cells.forEach((cell, index) => {
      const inWindow = index >= step.low && index <= step.high;
      const isMid = step.mid === index;
      cell.classList.toggle("window", inWindow);
      cell.classList.toggle("mid", isMid && !step.found);
      cell.classList.toggle("found", isMid && !!step.found);
      const marks = [];
      if (index === step.low) marks.push("low");
      if (isMid) marks.push("mid");
      if (index === step.high) marks.push("high");
      cell.firstChild.textContent = marks.join("/");
      cell.lastChild.textContent = values ? String(values[index]) : String(index);
    });
  }
}

class GraphView {
  constructor(stage, context) {
    this.stage = stage;
    this.context = context;
    this.svg = document.createElementNS(SVG, "svg");
    this.svg.setAttribute("class", "graph");
    stage.appendChild(this.svg);
    const legend = document.createElement("div");
    legend.className = "legend";
    for (const name of ["visited", "frontier", "current"]) {
      const key = document.createElement("span");
      key.className = "key " + name;
      key.textContent = name;
      legend.appendChild(key);
    }
    stage.appendChild(legend);
    this.nodes = [];
  }

  layout(count) {
    if (this.nodes.length === count) return;
    clear(this.svg);
    const width = this.stage.clientWidth || 400;
    const height = this.stage.clientHeight || 200;
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const radius = Math.min(width, height) / 2 - 18;
    const at = (index) => {
      const angle = (2 * Math.PI * index) / count - Math.PI / 2;
      return [width / 2 + radius * Math.cos(angle), height / 2 + radius * Math.sin(angle)];
    };
    for (const [u, v] of this.context.edges || []) {
      if (u >= count || v >= count) continue;
      const line = document.createElementNS(SVG, "line");
      const [x1, y1] = at(u);
      const [x2, y2] = at(v);
      line.setAttribute("x1", x1); line.setAttribute("y1", y1);
      line.setAttribute("x2", x2); line.setAttribute("y2", y2);
      this.svg.appendChild(line);
    }
    this.nodes = [];
    for (let index = 0; index < count; index++) {
      const group = document.createElementNS(SVG, "g");
      const [x, y] = at(index);
      const circle = document.createElementNS(SVG, "circle");
      circle.setAttribute("cx", x); circle.setAttribute("cy", y); circle.setAttribute("r", 13);
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", x); label.setAttribute("y", y);
      label.textContent = String(index);
      group.appendChild(circle);
      group.appendChild(label);
      this.svg.appendChild(group);
      this.nodes.push(group);
    }
  }

  render(step, _ids, range) {
    this.layout(this.context.nodeCount || range.nodeCount);
    const visited = new Set(step.visited || []);
    const frontier = new Set(step.frontier || []);
    this.nodes.forEach((group, index) => {
      const names = [];
      if (visited.has(index)) names.push("visited");
      if (frontier.has(index)) names.push("frontier");
      if (step.current === index) names.push("current");
      group.setAttribute("class", names.join(" "));
    });
  }
}

class JsonView {
  constructor(stage) {
    this.pre = document.createElement("pre");
    this.pre.className = "json";
    stage.appendChild(this.pre);
  }

  render(step) {
    const { caption: _caption, ...fields } = step;
    this.pre.textContent = JSON.stringify(fields, null, 1);
  }
}

const VIEWS = { array: ArrayView, search: SearchView, graph: GraphView, json: JsonView, ...EXTRA_VIEWS };

// The identities of a step's items: its own `ids` when it has them for every item (the recorder's),
// else the items' positions.
function ownIds(step) {
  const items = itemsOf(step);
  if (!items) return null;
  return Array.isArray(step.ids) && step.ids.length === items.length ? step.ids : items.map((_, index) => index);
}

// Draws single steps on one stage; keeps its view while the shape stays the same.
export class Stage {
  constructor(element) {
    this.element = element;
    this.view = null;
    this.shape = null;
    this.context = {};
  }

  reset(context = {}) {
    clear(this.element);
    this.view = null;
    this.shape = null;
    this.context = context;
  }

  draw(step, ids, range, previousIds) {
    const shape = shapeOf(step);
    if (shape !== this.shape) {
      clear(this.element);
      this.view = new VIEWS[shape](this.element, this.context);
      this.shape = shape;
      previousIds = null;
    }
    try {
      this.view.render(step, ids || ownIds(step), range || rangeOf([step]), previousIds);
    } catch {
      // Fields that name a shape but do not fit it (a learner's own step lines): the step as JSON.
      clear(this.element);
      this.view = new JsonView(this.element);
      this.shape = "json";
      this.view.render(step);
    }
  }
}

export function rangeOf(steps) {
  let min = Infinity, max = -Infinity, searchSize = 0, nodeCount = 0;
  for (const step of steps) {
    if (Array.isArray(step.array)) for (const value of step.array) { if (value < min) min = value; if (value > max) max = value; }
    if ("high" in step) searchSize = Math.max(searchSize, (step.high ?? 0) + 1, (step.mid ?? 0) + 1, (step.low ?? 0));
    for (const key of ["visited", "frontier"]) for (const node of step[key] || []) nodeCount = Math.max(nodeCount, node + 1);
    if (typeof step.current === "number") nodeCount = Math.max(nodeCount, step.current + 1);
  }
  return { min: Math.min(min, 0), max, searchSize, nodeCount };
}

export class Player {
  constructor(elements) {
    this.el = elements;
    this.stage = new Stage(elements.stage);
    this.steps = [];
    this.ids = [];
    this.index = -1;
    this.speed = 1;
    this.playing = false;
    this.lastTick = 0;
    this.nextId = 0;
    this.range = rangeOf([]);
    this.shownIndex = -1;
    // Set while showing a grade's difference: the first loaded step is step numberOffset + 1.
    this.numberOffset = 0;
    this.captionFor = null;
    const { play, pause, back, forward, first, scrub, speed } = elements;
    play.addEventListener("click", () => this.play());
    pause.addEventListener("click", () => this.pause());
    back.addEventListener("click", () => { this.pause(); this.seek(this.index - 1); });
    forward.addEventListener("click", () => { this.pause(); this.seek(this.index + 1); });
    first.addEventListener("click", () => { this.pause(); this.seek(0); });
    scrub.addEventListener("input", () => { this.pause(); this.seek(Number(scrub.value) - 1); });
    speed.addEventListener("change", () => this.setSpeed(Number(speed.value)));
    document.addEventListener("keydown", (event) => this.key(event));
    this.setSpeed(Number(speed.value) || 1);
    this.tick = this.tick.bind(this);
  }

  // Keyboard shortcuts, unless the learner is typing somewhere.
  key(event) {
    const target = event.target;
    if (target.closest && target.closest(".CodeMirror, input, textarea, select")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const actions = {
      " ": () => (this.playing ? this.pause() : this.play()),
      k: () => (this.playing ? this.pause() : this.play()),
      ArrowLeft: () => { this.pause(); this.seek(this.index - 1); },
      ArrowRight: () => { this.pause(); this.seek(this.index + 1); },
      j: () => { this.pause(); this.seek(this.index - 1); },
      l: () => { this.pause(); this.seek(this.index + 1); },
      Home: () => { this.pause(); this.seek(0); },
      End: () => { this.pause(); this.seek(this.steps.length - 1); },
    };
    const action = actions[event.key];
    if (!action || target.tagName === "BUTTON" && event.key === " ") return;
    event.preventDefault();
    action();
  }

  load(steps, context = {}, numberOffset = this.numberOffset) {
    this.pause();
    this.numberOffset = numberOffset;
    this.steps = [];
    this.ids = [];
    this.index = -1;
    this.shownIndex = -1;
    this.nextId = 0;
    this.stage.reset(context);
    this.range = rangeOf([]);
    for (const step of steps) this.append(step, false);
    this.range = rangeOf(this.steps);
    if (this.steps.length) this.seek(0); else this.update();
  }

  append(step, show = true) {
    const previous = this.steps[this.steps.length - 1];
    this.steps.push(step);
    const items = itemsOf(step);
    if (items && Array.isArray(step.ids) && step.ids.length === items.length) {
      this.ids.push(step.ids);
    } else if (items) {
      // No ids from the program: equal values are matched in order with the step before.
      const previousIds = this.ids[this.ids.length - 1];
      const before = previous && itemsOf(previous);
      const usable = before && previousIds && shapeOf(previous) === shapeOf(step);
      this.ids.push(nextIdentities(usable ? before : null, usable ? previousIds : null, items, () => "~" + this.nextId++));
    } else {
      this.ids.push(null);
    }
    if (!show) return;
    // A streamed step widens the value range only when it must, so bars do not jump.
    const widened = rangeOf([step]);
    if (widened.min < this.range.min || widened.max > this.range.max || widened.searchSize > this.range.searchSize ||
        widened.nodeCount > this.range.nodeCount) {
      this.range = rangeOf(this.steps);
    }
    if (this.index < 0) this.seek(0); else this.update();
  }

  setSpeed(speed) {
    this.speed = speed > 0 ? speed : 1;
    const ms = Math.max(40, Math.min(400, (BASE_STEP_MS / this.speed) * 0.8));
    this.el.stage.style.setProperty("--step-ms", ms + "ms");
    if (this.el.speed.value !== String(speed)) this.el.speed.value = String(speed);
  }

  play() {
    if (!this.steps.length) return;
    if (this.index >= this.steps.length - 1) this.seek(0);
    this.playing = true;
    this.lastTick = performance.now();
    this.update();
    requestAnimationFrame(this.tick);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.update();
  }

  tick(now) {
    if (!this.playing) return;
    const interval = BASE_STEP_MS / this.speed;
    if (now - this.lastTick >= interval) {
      this.lastTick = now - ((now - this.lastTick) % interval);
      if (this.index >= this.steps.length - 1) {
        this.pause();
        return;
      }
      this.seek(this.index + 1);
    }
    requestAnimationFrame(this.tick);
  }

  seek(index) {
    if (!this.steps.length) return;
    this.index = Math.max(0, Math.min(this.steps.length - 1, index));
    this.draw();
    this.update();
  }

  draw() {
    const step = this.steps[this.index];
    const previousIds = this.shownIndex >= 0 ? this.ids[this.shownIndex] : null;
    this.stage.draw(step, this.ids[this.index], this.range, previousIds);
    this.shownIndex = this.index;
    const caption = this.captionFor ? this.captionFor(step, this.index) : describe(step);
    if (this.el.caption.textContent !== caption) this.el.caption.textContent = caption;
  }

  update() {
    const { scrub, counter, play, pause, back, forward, first } = this.el;
    const total = this.steps.length;
    if (scrub.max !== String(Math.max(total, 1))) scrub.max = String(Math.max(total, 1));
    if (scrub.value !== String(this.index + 1)) scrub.value = String(this.index + 1);
    scrub.disabled = total === 0;
    const offset = this.numberOffset;
    const count = total ? `Step ${this.index + 1 + offset} of ${total + offset}` : "No steps yet";
    if (counter.textContent !== count) counter.textContent = count;
    play.disabled = total === 0 || this.playing;
    pause.disabled = !this.playing;
    back.disabled = first.disabled = this.index <= 0;
    forward.disabled = this.index >= total - 1;
    if (!total) this.el.caption.textContent = "";
  }
}
