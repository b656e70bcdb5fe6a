// The views of the step shapes beyond array bars, search window and graph (docs/challenges.md,
// "Step shapes"): linked list, binary tree and heap, stack/queue/deque, hash map, DP table, string
// matching, union-find. Every element is keyed by its identity (a node's or item's id, a cell's
// position) and keeps its DOM element from step to step, so a relink, a rotation or a re-parent is
// seen as a movement; under reduced motion it fades in at its new place instead.

export const SVG = "http://www.w3.org/2000/svg";
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const written = new WeakMap();
export function setStyle(element, property, value) {
  let styles = written.get(element);
  if (!styles) written.set(element, (styles = {}));
  if (styles[property] === value) return false;
  styles[property] = value;
  element.style[property] = value;
  return true;
}

export function setClass(element, name, on) {
  if (element.classList.contains(name) !== on) element.classList.toggle(name, on);
}

export function clear(element) { while (element.firstChild) element.removeChild(element.firstChild); }

function make(tag, className, parent, svg) {
  const element = svg ? document.createElementNS(SVG, tag) : document.createElement(tag);
  if (className) element.setAttribute("class", className);
  if (parent) parent.appendChild(element);
  return element;
}

function setText(element, text) { if (element.textContent !== text) element.textContent = text; }
function setAttr(element, name, value) { if (element.getAttribute(name) !== String(value)) element.setAttribute(name, value); }
const show = (value) => (value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value));
const size = (stage) => [stage.clientWidth || 400, stage.clientHeight || 200];

// Elements by key: a render asks for every key it draws; sweep() removes the ones it did not.
class Keyed {
  constructor(parent, create) { this.parent = parent; this.create = create; this.map = new Map(); this.seen = new Set(); }
  get(key) {
    this.seen.add(key);
    let element = this.map.get(key);
    if (!element) {
      element = this.create();
      element.dataset.id = String(key);
      this.parent.appendChild(element);
      this.map.set(key, element);
    }
    return element;
  }
  sweep() {
    for (const [key, element] of this.map) if (!this.seen.has(key)) { element.remove(); this.map.delete(key); }
    this.seen = new Set();
  }
}

// Moves an element by a transform, which the stylesheet animates; under reduced motion nothing
// slides: the element shows at its new place and fades in there.
function moveTo(element, x, y) {
  const value = `translate(${x.toFixed(1)}px,${y.toFixed(1)}px)`;
  const before = written.get(element)?.transform;
  if (before === value) return;
  setStyle(element, "transform", value);
  if (before && reducedMotion.matches && element.animate) element.animate([{ opacity: 0 }, { opacity: 1 }], 200);
}

// Places `count` items in rows across a box, each as large as fits (at most `most`), centred.
function flow(count, width, height, most = 64) {
  let cell = Math.min(most, Math.sqrt((width * height) / Math.max(count, 1)));
  let perRow = Math.max(1, Math.floor(width / cell));
  while (Math.ceil(count / perRow) * cell > height && cell > 4) perRow = Math.max(1, Math.floor(width / (cell *= 0.9)));
  const rows = Math.ceil(count / perRow);
  const left = (width - Math.min(count, perRow) * cell) / 2;
  const top = (height - rows * cell) / 2;
  return { cell, perRow, at: (i) => [left + ((i % perRow) + 0.5) * cell, top + (Math.floor(i / perRow) + 0.5) * cell] };
}

// Nodes, arrows between them and named pointers, in one SVG: the linked list, tree, heap and
// union-find views draw through it. An arrow is a quadratic path whose `d` the stylesheet
// animates, so it follows its two nodes as they move.
let diagrams = 0;
class Diagram {
  constructor(stage) {
    this.stage = stage;
    this.svg = make("svg", "diagram", stage, true);
    // An arrowhead of this diagram's own (several stages may be on the page at once).
    const marker = make("marker", null, make("defs", null, this.svg, true), true);
    marker.id = "arrow" + ++diagrams;
    for (const [name, value] of [["viewBox", "0 0 8 8"], ["refX", 7], ["refY", 4], ["markerWidth", 6], ["markerHeight", 6], ["orient", "auto"]]) marker.setAttribute(name, value);
    make("path", null, marker, true).setAttribute("d", "M0 0L8 4L0 8z");
    this.arrow = `url(#${marker.id})`;
    this.edgeLayer = make("g", "edges", this.svg, true);
    const nodes = make("g", "nodes", this.svg, true);
    this.edges = new Keyed(this.edgeLayer, () => make("path", null, null, true));
    this.nodes = new Keyed(nodes, () => {
      const group = make("g", "node", null, true);
      make("circle", null, group, true);
      make("text", null, group, true);
      make("text", "note", group, true);
      return group;
    });
    this.pointers = new Keyed(nodes, () => make("text", "pointer", null, true));
    this.cells = new Keyed(nodes, () => {
      const group = make("g", "slot", null, true);
      make("rect", null, group, true);
      make("text", null, group, true);
      return group;
    });
  }

  // nodes: [{key, x, y, text, note, classes: {name: bool}}]; edges: [{key, from, to, className, bend}];
  // pointers: [{name, key}]; radius: the nodes' radius.
  draw({ nodes, edges, pointers = [], radius }) {
    const [width, height] = size(this.stage);
    setAttr(this.svg, "viewBox", `0 0 ${width} ${height}`);
    // Many nodes: arrows redrawn at their new places and faded in, rather than each path animated
    // on the main thread every frame (nodes still slide).
    const many = nodes.length > 64;
    setClass(this.svg, "many", many);
    let relinked = false;
    const at = new Map();
    const r = Math.max(2, Math.min(16, radius));
    const labels = r >= 7;
    for (const node of nodes) {
      at.set(node.key, node);
      const group = this.nodes.get(node.key);
      moveTo(group, node.x, node.y);
      setAttr(group.firstChild, "r", r.toFixed(1));
      setText(group.childNodes[1], labels ? show(node.text).slice(0, r >= 12 ? 5 : 3) : "");
      setText(group.lastChild, labels ? show(node.note) : "");
      setAttr(group.lastChild, "x", (r * 0.7 + 2).toFixed(1));
      setAttr(group.lastChild, "y", (r * 0.7 + 6).toFixed(1));
      for (const name in node.classes) setClass(group, name, !!node.classes[name]);
    }
    for (const edge of edges) {
      const a = at.get(edge.from), b = at.get(edge.to);
      if (!a || !b) continue;
      const path = this.edges.get(edge.key);
      const dx = b.x - a.x, dy = b.y - a.y, length = Math.hypot(dx, dy) || 1;
      const ux = dx / length, uy = dy / length, bend = edge.bend || 0;
      const cx = (a.x + b.x) / 2 - uy * bend, cy = (a.y + b.y) / 2 + ux * bend;
      const end = Math.min(r + 2, length / 2);
      const f = (v) => v.toFixed(1);
      const d = `path("M ${f(a.x + ux * r)} ${f(a.y + uy * r)} Q ${f(cx)} ${f(cy)} ${f(b.x - ux * end)} ${f(b.y - uy * end)}")`;
      if (setStyle(path, "d", d)) relinked = true;
      setAttr(path, "class", edge.className || "");
      if (edge.className !== "left" && edge.className !== "right") setAttr(path, "marker-end", this.arrow);
    }
    if (many && relinked && this.edgeLayer.animate) {
      const ms = parseFloat(this.stage.style.getPropertyValue("--step-ms")) || 200;
      this.edgeLayer.animate([{ opacity: 0 }, { opacity: 0, offset: 0.7 }, { opacity: 1 }], ms);
    }
    const stacked = new Map();
    for (const { name, key } of pointers) {
      const node = at.get(key);
      const label = this.pointers.get(name);
      setText(label, name);
      setClass(label, "nowhere", !node);
      if (!node) continue;
      const level = stacked.get(key) || 0;
      stacked.set(key, level + 1);
      moveTo(label, node.x, node.y - r - 5 - level * 11);
    }
    this.edges.sweep();
    this.nodes.sweep();
    this.pointers.sweep();
  }

  // A row of cells under the diagram (a heap's array beside its tree), keyed like the nodes.
  row(items, y, width, active) {
    const cell = Math.min(36, width / Math.max(items.length, 1));
    const left = (width - cell * items.length) / 2;
    items.forEach(({ key, text }, index) => {
      const group = this.cells.get(key);
      moveTo(group, left + index * cell, y);
      const [rect, label] = group.childNodes;
      setAttr(rect, "width", Math.max(cell - 1, 1).toFixed(1));
      setAttr(rect, "height", 18);
      setAttr(label, "x", (cell / 2).toFixed(1));
      setAttr(label, "y", 9);
      setText(label, cell >= 14 ? show(text).slice(0, 4) : "");
      setClass(group, "active", active.has(key));
    });
    this.cells.sweep();
  }
}

function pointerList(pointers) {
  return pointers && typeof pointers === "object" ? Object.entries(pointers).map(([name, key]) => ({ name, key })) : [];
}

// A singly or doubly linked list in one flow of rows: the nodes along `next` from `head`, then the
// nodes not reached from it chain by chain (another list being built, the reversed part of a list
// being reversed), so a relink flips an arrow and only a new order of the head's list moves nodes.
export class ListView extends Diagram {
  render(step) {
    const [width, height] = size(this.stage);
    const byId = new Map(step.nodes.map((node) => [node.id, node]));
    const order = [];
    const slot = new Map();
    const chain = (start) => { for (let id = start; byId.has(id) && !slot.has(id); id = byId.get(id).next) slot.set(id, order.push(id) - 1); };
    chain(step.head);
    const reached = new Set(order);
    const pointedAt = new Set(step.nodes.filter((node) => !slot.has(node.id)).map((node) => node.next));
    for (const node of step.nodes) if (!pointedAt.has(node.id)) chain(node.id);
    for (const node of step.nodes) chain(node.id);
    const grid = flow(order.length, width - 16, height - 30);
    const active = new Set(step.active || []);
    const nodes = step.nodes.map((node) => {
      const [x, y] = grid.at(slot.get(node.id));
      return { key: node.id, x: x + 8, y: y + 28, text: node.value, classes: { active: active.has(node.id), detached: !reached.has(node.id) } };
    });
    const edges = [];
    for (const node of step.nodes) {
      const next = slot.get(node.next), prev = slot.get(node.prev), here = slot.get(node.id);
      if (next !== undefined) edges.push({ key: "n" + node.id, from: node.id, to: node.next, className: "next", bend: next === here + 1 ? -3 * ("prev" in node) : 14 });
      if (prev !== undefined) edges.push({ key: "p" + node.id, from: node.id, to: node.prev, className: "prev", bend: prev === here - 1 ? -3 : 14 });
    }
    const pointers = [{ name: "head", key: step.head }, ...pointerList(step.pointers)];
    if ("tail" in step) pointers.push({ name: "tail", key: step.tail });
    this.draw({ nodes, edges, pointers, radius: grid.cell * 0.3 });
  }
}

// A binary tree from `root` and `nodes` (left/right ids), or a heap from its array (`heap`, the
// children of index i at 2i+1 and 2i+2) with that array drawn beside it. x is a node's in-order
// rank, y its depth; nodes not reached from the root are laid out as trees of their own after it.
export class TreeView extends Diagram {
  render(step, ids) {
    const [width, full] = size(this.stage);
    const heap = Array.isArray(step.heap) ? step.heap : null;
    let list = step.nodes;
    let active = new Set(step.active || []);
    let root = step.root;
    if (heap) {
      const key = (index) => (index < heap.length ? ids[index] : null);
      list = heap.map((value, index) => ({ id: ids[index], value, left: key(2 * index + 1), right: key(2 * index + 2) }));
      active = new Set([...active].map((index) => ids[index]));
      root = heap.length ? ids[0] : null;
    }
    const height = heap ? full - 28 : full;
    const byId = new Map(list.map((node) => [node.id, node]));
    const depth = new Map();
    const rank = new Map();
    let deepest = 0;
    const visit = (id, level) => {
      if (!byId.has(id) || depth.has(id)) return;
      depth.set(id, level);
      deepest = Math.max(deepest, level);
      visit(byId.get(id).left, level + 1);
      rank.set(id, rank.size);
      visit(byId.get(id).right, level + 1);
    };
    visit(root, 0);
    for (const node of list) visit(node.id, 0);
    const across = Math.min(64, width / Math.max(list.length, 1));
    const left = (width - across * list.length) / 2;
    const down = Math.min(48, (height - 34) / Math.max(deepest, 1));
    const visited = new Set(step.visited || []);
    const nodes = list.map((node) => ({
      key: node.id, x: left + (rank.get(node.id) + 0.5) * across, y: 22 + depth.get(node.id) * down, text: node.value,
      note: Array.isArray(node.range) ? `[${node.range.join(",")}]` : "height" in node ? "h" + node.height : "",
      classes: { active: active.has(node.id), visited: visited.has(node.id) },
    }));
    const edges = [];
    for (const node of list) {
      for (const side of ["left", "right"]) {
        if (byId.has(node[side])) edges.push({ key: "c" + node[side], from: node.id, to: node[side], className: side });
      }
    }
    this.draw({ nodes, edges, pointers: pointerList(step.pointers), radius: Math.min(across * 0.42, down * 0.4) });
    this.row(heap ? heap.map((value, index) => ({ key: ids[index], text: value })) : [], full - 22, width, active);
  }
}

// Union-find: the parent array as a forest (roots are their own parent), each node's arrow to its
// parent, its rank under it; a node whose parent changed since the step shown before (a union, a
// path compression) is marked as re-parented.
export class ForestView extends Diagram {
  render(step) {
    const [width, height] = size(this.stage);
    const parent = step.parent;
    const children = parent.map(() => []);
    const roots = [];
    parent.forEach((up, index) => (up === index || !(up >= 0 && up < parent.length) ? roots.push(index) : children[up].push(index)));
    const x = new Map(), depth = new Map(), treeOf = new Map();
    const trees = [];
    let slots = 0, deepest = 0;
    const place = (index, level) => {
      depth.set(index, level);
      treeOf.set(index, trees.length);
      deepest = Math.max(deepest, level);
      const kids = children[index].filter((kid) => !depth.has(kid));
      kids.forEach((kid) => place(kid, level + 1));
      x.set(index, kids.length ? (x.get(kids[0]) + x.get(kids[kids.length - 1])) / 2 : slots++);
    };
    // Roots first; then any node a parent cycle left out starts a tree of its own.
    for (const index of [...roots, ...parent.keys()]) {
      if (depth.has(index)) continue;
      slots = deepest = 0;
      place(index, 0);
      trees.push({ slots, deepest });
    }
    // Trees side by side in bands as wide as the stage, so 200 sets of one are rows, not a line.
    const perBand = Math.max(1, Math.floor(width / 18));
    const bands = [];
    for (const tree of trees) {
      let band = bands[bands.length - 1];
      if (!band || (band.slots > 0 && band.slots + tree.slots > perBand)) bands.push((band = { slots: 0, deepest: 0, level: 0 }));
      tree.band = band;
      tree.offset = band.slots;
      band.slots += tree.slots;
      band.deepest = Math.max(band.deepest, tree.deepest);
    }
    let levels = 0;
    for (const band of bands) { band.level = levels; levels += band.deepest + 1; }
    const across = Math.min(64, width / Math.max(1, ...bands.map((band) => band.slots)));
    const down = Math.min(48, (height - 34) / Math.max(levels - 1, 1));
    const active = new Set(step.active || []);
    const before = this.parent;
    const nodes = parent.map((up, index) => {
      const tree = trees[treeOf.get(index)];
      const left = (width - tree.band.slots * across) / 2;
      return {
        key: index, x: left + (tree.offset + x.get(index) + 0.5) * across, y: 20 + (tree.band.level + depth.get(index)) * down,
        text: step.labels?.[index] ?? index, note: step.rank ? "r" + step.rank[index] : "",
        classes: { active: active.has(index), root: up === index, moved: !!before && before.length === parent.length && before[index] !== up },
      };
    });
    const edges = parent.flatMap((up, index) => (up !== index && up >= 0 && up < parent.length ? [{ key: "u" + index, from: index, to: up, className: "up" }] : []));
    this.parent = parent;
    this.draw({ nodes, edges, radius: Math.min(across * 0.42, down * 0.4) });
  }
}

// Stack, queue or deque: the items in a row (bottom to top, front to back), ends named; the item a
// step moved is marked, and a popped one shown leaving beside the end it left from.
export class LineView {
  constructor(stage) {
    this.stage = stage;
    this.root = make("div", "line", stage);
    this.items = new Keyed(this.root, () => make("div", "item"));
    this.ends = new Keyed(this.root, () => make("span", "end"));
  }

  render(step, ids) {
    const [width, height] = size(this.stage);
    const kind = extraShapeOf(step);
    const values = itemsOf(step);
    const moved = step.moved && typeof step.moved === "object" ? step.moved : null;
    const gone = moved && "id" in moved && !ids.includes(moved.id);
    // Room for the longest list so far: a push or pop then moves one item, not every item's size.
    this.room = Math.max(this.room || 0, values.length + 2);
    const grid = flow(this.room, width - 8, height - 40, 56);
    const box = grid.cell * 0.86;
    const place = (element, slot, lift) => {
      const [x, y] = grid.at(slot);
      setStyle(element, "width", box.toFixed(1) + "px");
      setStyle(element, "height", box.toFixed(1) + "px");
      moveTo(element, x - box / 2 + 4, y - box / 2 + 20 - lift);
    };
    const active = new Set(step.active || []);
    values.forEach((value, index) => {
      const item = this.items.get(ids[index]);
      place(item, index + 1, 0);
      setText(item, box >= 14 ? show(value).slice(0, 6) : "");
      setClass(item, "moved", !!moved && moved.id === ids[index]);
      setClass(item, "active", active.has(index));
      setClass(item, "out", false);
    });
    if (gone) {
      // Left from the front (dequeue, pop_front) or from the back/top (pop, pop_back).
      const front = kind === "queue" || /front/.test(step.action || "");
      const item = this.items.get(moved.id);
      place(item, front ? 0 : values.length + 1, box * 0.6);
      setText(item, box >= 14 ? show(moved.value).slice(0, 6) : "");
      setClass(item, "out", true);
    }
    const names = kind === "stack" ? [["top", values.length]] : [["front", 1], ["back", values.length]];
    for (const [name, slot] of names) {
      const end = this.ends.get(name);
      setText(end, name);
      setClass(end, "nowhere", !values.length);
      const [x, y] = grid.at(slot);
      moveTo(end, x - 14, y + box / 2 + 22);
    }
    this.items.sweep();
    this.ends.sweep();
  }
}

// A hash map: its buckets side by side (the index on top), each bucket's entries stacked under it
// (a chain; one entry a slot under open addressing); the probe sequence marked on the buckets.
export class HashView {
  constructor(stage) {
    this.stage = stage;
    this.root = make("div", "hash", stage);
    this.heads = new Keyed(this.root, () => make("div", "bucket"));
    this.entries = new Keyed(this.root, () => make("div", "entry"));
    this.info = make("div", "info", this.root);
  }

  render(step) {
    const [width, height] = size(this.stage);
    const buckets = step.buckets.map((bucket) => (Array.isArray(bucket) ? bucket : bucket ? [bucket] : []));
    const column = Math.min(72, (width - 8) / Math.max(buckets.length, 1));
    const deepest = Math.max(1, ...buckets.map((bucket) => bucket.length));
    const row = Math.min(24, (height - 48) / deepest);
    const probe = Array.isArray(step.probe) ? step.probe : [];
    const active = new Set(step.active || []);
    buckets.forEach((bucket, index) => {
      const head = this.heads.get(index);
      setStyle(head, "width", (column - 2).toFixed(1) + "px");
      moveTo(head, 4 + index * column, 4);
      setText(head, column >= 14 ? String(index) : "");
      const order = probe.lastIndexOf(index);
      setClass(head, "probed", order >= 0);
      setClass(head, "probing", order >= 0 && order === probe.length - 1);
      bucket.forEach((entry, depth) => {
        const element = this.entries.get(entry.id ?? `${index}/${depth}`);
        setStyle(element, "width", (column - 2).toFixed(1) + "px");
        setStyle(element, "height", (row - 2).toFixed(1) + "px");
        moveTo(element, 4 + index * column, 26 + depth * row);
        const text = column >= 40 && "value" in entry ? `${show(entry.key)}: ${show(entry.value)}` : show(entry.key);
        setText(element, column >= 14 && row >= 10 ? text : "");
        setClass(element, "active", active.has(entry.id));
        setClass(element, "deleted", !!entry.deleted);
      });
    });
    const info = [];
    if ("key" in step) info.push("key " + show(step.key));
    if ("hash" in step) info.push("hash " + show(step.hash));
    if (probe.length) info.push("probed " + probe.join(" → "));
    setText(this.info, info.join(" · "));
    this.heads.sweep();
    this.entries.sweep();
  }
}

// A DP table, one row or a grid: the cell being filled and the cells it reads marked, labels for
// rows and columns when the step has them.
export class TableView {
  constructor(stage) {
    this.stage = stage;
    this.root = make("div", "table", stage);
    this.cells = new Keyed(this.root, () => make("div", "tcell"));
    this.labels = new Keyed(this.root, () => make("div", "tlabel"));
  }

  render(step) {
    const [width, height] = size(this.stage);
    const grid = step.table.length && Array.isArray(step.table[0]) ? step.table : [step.table];
    const oneRow = grid !== step.table;
    const columns = Math.max(1, ...grid.map((row) => (Array.isArray(row) ? row.length : 0)));
    const rowLabels = Array.isArray(step.row_labels) ? step.row_labels : null;
    const columnLabels = Array.isArray(step.col_labels) ? step.col_labels : null;
    const left = rowLabels ? 1 : 0, top = columnLabels ? 1 : 0;
    const cell = Math.min(40, (width - 8) / (columns + left), (height - 8) / (grid.length + top));
    const key = (cellAt) => (Array.isArray(cellAt) ? (oneRow ? "0," + cellAt[0] : cellAt.join(",")) : "");
    const current = key(step.cell);
    const reads = new Set((step.reads || []).map(key));
    const put = (element, row, column, text) => {
      setStyle(element, "width", (cell - 2).toFixed(1) + "px");
      setStyle(element, "height", (cell - 2).toFixed(1) + "px");
      setStyle(element, "lineHeight", (cell - 2).toFixed(1) + "px");
      moveTo(element, 4 + (column + left) * cell, 4 + (row + top) * cell);
      setText(element, cell >= 14 ? show(text).slice(0, 5) : "");
    };
    grid.forEach((row, r) => (Array.isArray(row) ? row : []).forEach((value, c) => {
      const name = r + "," + c;
      const element = this.cells.get(name);
      put(element, r, c, value);
      setClass(element, "filled", value !== null && value !== undefined);
      setClass(element, "current", name === current);
      setClass(element, "read", reads.has(name));
    }));
    rowLabels?.forEach((text, r) => put(this.labels.get("r" + r), r, -1, text));
    columnLabels?.forEach((text, c) => put(this.labels.get("c" + c), -1, c, text));
    this.cells.sweep();
    this.labels.sweep();
  }
}

// String matching: the text in a row, the pattern under it shifted to the window's offset (one
// element, so a shift is seen as the pattern sliding), the compared characters marked equal or
// not, matches found so far; the KMP failure table under the pattern; the Rabin-Karp hashes.
export class MatchView {
  constructor(stage) {
    this.stage = stage;
    this.root = make("div", "match", stage);
    this.strip = make("div", "strip", this.root);
    this.text = new Keyed(this.strip, () => make("div", "ch"));
    this.window = make("div", "window", this.strip);
    this.pattern = new Keyed(this.window, () => make("div", "ch"));
    this.failure = new Keyed(this.window, () => make("div", "ch fail"));
    this.info = make("div", "info", this.root);
  }

  render(step) {
    const [width] = size(this.stage);
    const text = Array.from(step.text), pattern = Array.from(step.pattern);
    const cell = Math.max(16, Math.min(32, (width - 8) / Math.max(text.length, 1)));
    const offset = Number.isInteger(step.offset) ? step.offset : 0;
    const index = Number.isInteger(step.index) ? step.index : null;
    const equal = index !== null && text[offset + index] === pattern[index];
    const found = new Set();
    for (const start of step.found || []) for (let k = 0; k < pattern.length; k++) found.add(start + k);
    const put = (element, position, y, value) => {
      setStyle(element, "width", cell - 2 + "px");
      moveTo(element, position * cell, y);
      setText(element, show(value));
    };
    text.forEach((character, position) => {
      const element = this.text.get(position);
      put(element, position, 0, character);
      setClass(element, "inside", position >= offset && position < offset + pattern.length);
      setClass(element, "found", found.has(position));
      setClass(element, "same", equal && position === offset + index);
      setClass(element, "differs", index !== null && !equal && position === offset + index);
    });
    pattern.forEach((character, position) => {
      const element = this.pattern.get(position);
      put(element, position, 0, character);
      setClass(element, "same", equal && position === index);
      setClass(element, "differs", index !== null && !equal && position === index);
    });
    (Array.isArray(step.failure) ? step.failure : []).forEach((value, position) => {
      const element = this.failure.get(position);
      put(element, position, 30, value);
      setClass(element, "active", position === step.failure_at);
    });
    moveTo(this.window, offset * cell, 34);
    // A text wider than the stage scrolls so that the window stays in sight.
    const shift = Math.max(0, Math.min(text.length * cell - width + 8, (offset + pattern.length / 2) * cell - width / 2));
    moveTo(this.strip, 4 - shift, 8);
    const info = [];
    if ("window_hash" in step) info.push("window hash " + show(step.window_hash));
    if ("pattern_hash" in step) info.push("pattern hash " + show(step.pattern_hash));
    if (Array.isArray(step.found) && step.found.length) info.push("found at " + step.found.join(", "));
    setText(this.info, info.join(" · "));
    this.text.sweep();
    this.pattern.sweep();
    this.failure.sweep();
  }
}

// The shape of a step beyond array, search and graph, by the field that names it; null if none.
export function extraShapeOf(step) {
  const nodes = Array.isArray(step.nodes) && step.nodes.every((node) => node && typeof node === "object");
  if (nodes && "head" in step) return "list";
  if ((nodes && "root" in step) || Array.isArray(step.heap)) return "tree";
  for (const name of ["stack", "queue", "deque"]) if (Array.isArray(step[name]) || typeof step[name] === "string") return name;
  if (Array.isArray(step.buckets)) return "hash";
  if (Array.isArray(step.table)) return "table";
  if (typeof step.text === "string" && typeof step.pattern === "string") return "match";
  if (Array.isArray(step.parent)) return "forest";
  return null;
}

export const EXTRA_VIEWS = {
  list: ListView, tree: TreeView, stack: LineView, queue: LineView, deque: LineView, hash: HashView,
  table: TableView, match: MatchView, forest: ForestView,
};

// The item list whose elements the player keeps identities for (from `ids`, or by matching values).
// A stack, queue or deque may be a string, one item a character ("stack": "{[").
export function itemsOf(step) {
  for (const name of ["array", "heap", "stack", "queue", "deque"]) {
    if (Array.isArray(step[name])) return step[name];
    if (name !== "array" && name !== "heap" && typeof step[name] === "string") return Array.from(step[name]);
  }
  return null;
}
