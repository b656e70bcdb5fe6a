// The playground: run a program live, replay its steps, grade it on a challenge.
import { ApiError, connect, getJSON, plainWords, postJSON, postStream, setHooks, setToken, token } from "./api.js";
import { fillChallenges, showAbout } from "./catalogue.js";
import { firstFailingDialogue, hideDialogue, showDialogue } from "./dialogue.js";
import { drawGrowth } from "./growth.js";
import { HELLO, MODES } from "./hello.js";
import { Player, Stage, describe, rangeOf } from "./player.js";

const $ = (id) => document.getElementById(id);
const state = { mode: "run", runtimes: [], challenge: null, control: null, busy: false, edited: new Map() };

// ---- notices, errors, the token prompt ----

function showError(text) {
  const box = $("error");
  box.textContent = text || "";
  box.hidden = !text;
}

function showNotice(text) {
  const box = $("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

let tokenWaiters = [];
function askForToken(message) {
  const form = $("token-form");
  form.hidden = false;
  $("token-message").textContent = message || "";
  $("token-input").focus();
  return new Promise((resolve) => tokenWaiters.push(resolve));
}

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setToken($("token-input").value.trim());
  $("token-input").value = "";
  $("token-form").hidden = true;
  updateTokenState();
  const waiters = tokenWaiters;
  tokenWaiters = [];
  for (const resolve of waiters) resolve();
});

function updateTokenState() {
  $("token-state").textContent = token() ? "token set for this tab" : "";
}

setHooks({
  needToken: askForToken,
  busy: (seconds, attempt) =>
    showNotice(`The server is busy: every box slot is in use. Trying again in ${seconds} s (attempt ${attempt})…`),
  busyOver: () => showNotice(""),
});

// A library the first load does without (marked, Chart.js): fetched when first needed.
const scripts = new Map();
function loadScript(path) {
  if (!scripts.has(path)) {
    scripts.set(path, new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = path;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`${path} could not be loaded`));
      document.head.appendChild(script);
    }));
  }
  return scripts.get(path);
}

// ---- the editor ----

const editor = window.CodeMirror
  ? window.CodeMirror.fromTextArea($("editor"), {
    lineNumbers: true, indentUnit: 4, tabSize: 4, viewportMargin: 20, screenReaderLabel: "Source code",
    extraKeys: {
      "Ctrl-Enter": () => start(), "Cmd-Enter": () => start(),
      // Indentation as the language writes it: spaces, or a tab where the mode says so (Go).
      Tab: (cm) => cm.execCommand(cm.somethingSelected() ? "indentMore" : cm.getOption("indentWithTabs") ? "insertTab" : "insertSoftTab"),
    },
  })
  : null;
if (editor) {
  const input = editor.getInputField();
  input.setAttribute("aria-label", "Source code");
  input.setAttribute("aria-describedby", "editor-keys");
  // Tab indents, so it cannot also leave the editor (WCAG 2.1.2 asks for a way out): after Esc,
  // the next Tab or Shift+Tab is the browser's and moves the focus on.
  let escaped = false;
  editor.on("keydown", (_cm, event) => {
    if (event.key === "Escape") { escaped = true; return; }
    if (event.key === "Tab" && escaped) event.codemirrorIgnore = true;
    if (!["Shift", "Control", "Alt", "Meta"].includes(event.key)) escaped = event.key === "Escape";
  });
  editor.on("blur", () => { escaped = false; });
  editor.on("changes", () => remember());
}
const source = {
  get: () => (editor ? editor.getValue() : $("editor").value),
  set: (text) => (editor ? editor.setValue(text) : ($("editor").value = text)),
};
if (!editor) showError("The editor (CodeMirror, Debian's libjs-codemirror) could not be loaded; a plain text box is used.");

function language() { return $("language").value; }

// ---- what survives a reload: the code, the language, the challenge (localStorage), and the
// address, which names the challenge and language so a link opens them ----

const SAVED_KEY = "dsa-run-page";
// The sources kept: each language's and challenge's last code, newest last, within a budget that
// leaves localStorage's few MiB to the rest of the origin.
const SAVED_SOURCES = 40;
const SAVED_CHARS = 1 << 20;
const address = new URLSearchParams(location.search);
const embedded = address.get("embed") === "1";

function readSaved() {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED_KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {};
  }
}

const saved = readSaved();
if (saved.sources && typeof saved.sources === "object") {
  for (const [name, text] of Object.entries(saved.sources)) if (typeof text === "string") state.edited.set(name, text);
}
// A link's challenge and language win over the last visit's; a link naming only a language runs.
const wanted = address.has("challenge")
  ? { mode: "grade", challenge: address.get("challenge"), language: address.get("lang") || saved.language }
  : address.has("lang")
    ? { mode: "run", challenge: saved.challenge, language: address.get("lang") }
    : { mode: embedded ? "run" : saved.mode, challenge: saved.challenge, language: saved.language };

let saveTimer = 0;
function remember() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveNow, 300);
}

function saveNow() {
  clearTimeout(saveTimer);
  if (lastKey) state.edited.set(lastKey, source.get());
  const entries = [...state.edited].slice(-SAVED_SOURCES);
  let chars = 0;
  const sources = {};
  for (const [name, text] of entries.reverse()) {
    chars += text.length;
    if (chars > SAVED_CHARS) break;
    sources[name] = text;
  }
  const record = {
    mode: state.mode, language: $("language").disabled ? wanted.language : language(), challenge: state.challenge?.id ?? wanted.challenge, sources };
  try {
    localStorage.setItem(SAVED_KEY, JSON.stringify(record));
  } catch {
    // Storage full or refused (a private window): the code is only lost on reload, as before.
  }
}

window.addEventListener("pagehide", saveNow);

function updateAddress() {
  const next = new URLSearchParams();
  if (state.mode === "grade" && state.challenge) next.set("challenge", state.challenge.id);
  if (!$("language").disabled) next.set("lang", language());
  if (embedded) next.set("embed", "1");
  const search = "?" + next.toString();
  if (search !== location.search) history.replaceState(null, "", search + location.hash);
}

function setMode(languageName) {
  if (!editor) return;
  editor.setOption("mode", MODES[languageName] || null);
  editor.setOption("indentWithTabs", languageName === "go");
}

function key(mode, languageName) {
  return mode === "grade" ? `grade:${state.challenge?.id}:${languageName}` : `run:${languageName}`;
}

let lastKey = null;
function showSourceFor(languageName) {
  if (lastKey) state.edited.set(lastKey, source.get());
  lastKey = key(state.mode, languageName);
  const kept = state.edited.get(lastKey);
  if (kept !== undefined) source.set(kept);
  else if (state.mode === "grade") source.set(state.challenge?.starters?.[languageName] ?? HELLO[languageName] ?? "");
  else source.set(HELLO[languageName] ?? "");
  setMode(languageName);
  updateAddress();
  remember();
}

$("language").addEventListener("change", () => showSourceFor(language()));

async function loadRuntimes() {
  const { runtimes } = await getJSON("/v1/runtimes");
  state.runtimes = runtimes;
  const select = $("language");
  select.textContent = "";
  const seen = new Set();
  for (const runtime of runtimes) {
    if (seen.has(runtime.language)) continue;
    seen.add(runtime.language);
    const option = document.createElement("option");
    option.value = runtime.language;
    option.textContent = `${runtime.name} ${runtime.version}` + (runtime.available ? "" : " (not installed)");
    option.disabled = !runtime.available;
    select.appendChild(option);
  }
  const first = runtimes.find((runtime) => runtime.available && runtime.language === wanted.language) ||
    runtimes.find((runtime) => runtime.available && runtime.language === "python") ||
    runtimes.find((runtime) => runtime.available);
  if (first) select.value = first.language;
  select.disabled = false;
  showSourceFor(language());
}

// ---- the player ----

const player = new Player({
  stage: $("stage"), caption: $("caption"), counter: $("counter"), play: $("play"), pause: $("pause"),
  back: $("back"), forward: $("forward"), first: $("first"), scrub: $("scrub"), speed: $("speed"),
});
const expectedStage = new Stage($("expected-stage"));
const actualStage = new Stage($("actual-stage"));

// What the input says about the steps' data: the searched array, or the graph's nodes and edges.
function contextFromInput(text) {
  const numbers = text.trim().split(/\s+/).filter(Boolean).map(Number);
  const context = {};
  if (numbers.length && numbers.every(Number.isFinite)) {
    const [n, m] = numbers;
    if (numbers.length >= 1 + n && n > 0) context.array = numbers.slice(1, 1 + n);
    for (const width of [2, 3]) {
      if (n > 0 && m >= 0 && numbers.length === 3 + width * m) {
        context.nodeCount = n;
        context.edges = [];
        for (let index = 0; index < m; index++) context.edges.push([numbers[3 + width * index], numbers[4 + width * index]]);
      }
    }
  }
  return context;
}

function closeComparison() {
  $("compare").hidden = true;
  player.captionFor = null;
}

// ---- output ----

const output = $("output");
let pendingLine = "";
let lineShown = false;

// Output is drawn at most once a frame, each frame's text as one node, and only its last
// OUTPUT_LINE_CAP lines stay on the page until "Show all": a program printing a megabyte, or
// printing forever, costs the page one small update a frame and never holds up typing.
const OUTPUT_LINE_CAP = 1000;
// What "Show all" can show: the output a run may print (limits.output_kb, 4 MiB a stream by
// default) with room to spare; past it the oldest text is let go.
const OUTPUT_KEPT_CHARS = 16 << 20;
const outputView = {
  queued: [], frame: 0, nodes: [], shownLines: 0, hiddenLines: 0, kept: [], keptChars: 0, forgotten: 0,
  showAll: false,
};

function countLines(text) {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

function clearOutput() {
  if (outputView.frame) cancelAnimationFrame(outputView.frame);
  Object.assign(outputView, {
    queued: [], frame: 0, nodes: [], shownLines: 0, hiddenLines: 0, kept: [], keptChars: 0, forgotten: 0,
    showAll: false,
  });
  output.textContent = "";
  $("output-cap").hidden = true;
}

function appendOutput(text, className) {
  if (!text) return;
  const view = outputView;
  view.queued.push([text, className || ""]);
  view.kept.push([text, className || ""]);
  view.keptChars += text.length;
  while (view.keptChars > OUTPUT_KEPT_CHARS && view.kept.length > 1) {
    const [dropped] = view.kept.shift();
    view.keptChars -= dropped.length;
    view.forgotten += countLines(dropped);
  }
  if (!view.frame) view.frame = requestAnimationFrame(drawOutput);
}

function outputNode(text, className) {
  if (!className) return document.createTextNode(text);
  const span = document.createElement("span");
  span.className = className;
  span.textContent = text;
  return span;
}

// One frame's output: the queued pieces joined by class into a few nodes, then the oldest lines
// let go past the cap.
function drawOutput() {
  const view = outputView;
  view.frame = 0;
  const runs = [];
  for (const [text, className] of view.queued) {
    const last = runs[runs.length - 1];
    if (last && last.className === className) last.parts.push(text);
    else runs.push({ className, parts: [text] });
  }
  view.queued = [];
  const nearBottom = output.scrollHeight - output.scrollTop - output.clientHeight < 40;
  const fragment = document.createDocumentFragment();
  for (const run of runs) {
    const text = run.parts.join("");
    const node = outputNode(text, run.className);
    const lines = countLines(text);
    view.nodes.push({ node, lines });
    view.shownLines += lines;
    fragment.appendChild(node);
  }
  output.appendChild(fragment);
  if (!view.showAll) trimOutput();
  if (nearBottom) output.scrollTop = output.scrollHeight;
}

function trimOutput() {
  const view = outputView;
  while (view.shownLines > OUTPUT_LINE_CAP && view.nodes.length > 1 &&
      view.shownLines - view.nodes[0].lines >= OUTPUT_LINE_CAP) {
    const { node, lines } = view.nodes.shift();
    node.remove();
    view.shownLines -= lines;
    view.hiddenLines += lines;
  }
  const first = view.nodes[0];
  if (view.shownLines > OUTPUT_LINE_CAP && first) {
    // The oldest node holds more than the excess: keep only its tail.
    let excess = view.shownLines - OUTPUT_LINE_CAP;
    const text = first.node.textContent;
    let cut = 0;
    while (excess > 0) { cut = text.indexOf("\n", cut) + 1; excess--; }
    first.node.textContent = text.slice(cut);
    const removed = view.shownLines - OUTPUT_LINE_CAP;
    first.lines -= removed;
    view.shownLines -= removed;
    view.hiddenLines += removed;
  }
  if (view.hiddenLines) {
    $("output-cap-text").textContent =
      `Showing the last ${OUTPUT_LINE_CAP.toLocaleString("en")} lines; ${view.hiddenLines.toLocaleString("en")} earlier lines are hidden.`;
    $("output-cap").hidden = false;
  }
}

// Everything kept, as one node: the learner asked for it, once.
$("output-all").addEventListener("click", () => {
  const view = outputView;
  view.showAll = true;
  output.textContent = "";
  view.nodes = [];
  const fragment = document.createDocumentFragment();
  if (view.forgotten) {
    fragment.appendChild(outputNode(`(the first ${view.forgotten.toLocaleString("en")} lines were too many to keep)\n`, "echo"));
  }
  for (const [text, className] of view.kept) fragment.appendChild(outputNode(text, className));
  output.appendChild(fragment);
  view.queued = [];
  view.shownLines += view.hiddenLines;
  view.hiddenLines = 0;
  $("output-cap").hidden = true;
  output.focus();
});

function couldBeStepLine(text) {
  for (const marker of ["@step ", "@count "]) {
    if (text.length < marker.length ? marker.startsWith(text) : text.startsWith(marker)) return true;
  }
  return false;
}

// Streamed stdout without its @step/@count lines (the player shows those); a prompt without a
// newline is shown at once.
function streamStdout(text) {
  let rest = text;
  while (rest) {
    const newline = rest.indexOf("\n");
    const piece = newline < 0 ? rest : rest.slice(0, newline + 1);
    rest = newline < 0 ? "" : rest.slice(newline + 1);
    if (lineShown) {
      appendOutput(piece);
      if (newline >= 0) lineShown = false;
      continue;
    }
    pendingLine += piece;
    if (newline >= 0) {
      if (!couldBeStepLine(pendingLine)) appendOutput(pendingLine);
      pendingLine = "";
    } else if (!couldBeStepLine(pendingLine)) {
      appendOutput(pendingLine);
      pendingLine = "";
      lineShown = true;
    }
  }
}

function withoutStepLines(text) {
  return text.split("\n").filter((line) => !couldBeStepLine(line + "\n")).join("\n");
}

// Status words and verdicts as a learner reads them.
const PLAIN = {
  ok: "Finished", accepted: "Accepted", wrong_answer: "Wrong answer", compile_error: "Compile error",
  runtime_error: "Runtime error", time_limit: "Time limit exceeded", memory_limit: "Memory limit exceeded",
  output_limit: "Output limit exceeded", forbidden: "Stopped: a forbidden system call",
  internal_error: "Internal error (the server's fault, not your program's)", skipped: "Skipped (not run)",
};
function plain(word) { return PLAIN[word] || String(word || "").replace(/_/g, " "); }

function kib(kb) { return kb >= 1024 ? `${(kb / 1024).toFixed(1)} MiB` : `${kb} KiB`; }

function describeResult(result) {
  const run = result.run;
  const compile = result.compile;
  if (!run) {
    return `${plain(compile?.status || "compile_error")}: the program did not compile. ${compile?.message || ""}`.trim();
  }
  const parts = [plain(run.status)];
  if (run.message) parts.push(run.message);
  if (run.exit_code !== null && run.exit_code !== undefined) parts.push(`exit ${run.exit_code}`);
  parts.push(`${run.wall_ms} ms`, `${run.cpu_ms} ms CPU`, kib(run.memory_kb));
  if (result.steps_message) parts.push(result.steps_message);
  return parts.join(" · ");
}

function requestLimits() {
  const limits = {};
  const wall = Number.parseInt($("limit-wall").value, 10);
  const memory = Number.parseInt($("limit-memory").value, 10);
  if (Number.isFinite(wall)) limits.wall_ms = wall;
  if (Number.isFinite(memory)) limits.memory_mb = memory;
  return Object.keys(limits).length ? limits : undefined;
}

// ---- run ----

function showLiveUnavailable(stdin) {
  const note = $("live-unavailable");
  note.textContent = "Typing into your program is not available: the live connection to the server could not be " +
    "opened (a proxy or firewall may block WebSockets). It runs once with " +
    (stdin ? "the Input box as its whole input." : "no input; put what it should read in the Input box first.");
  note.hidden = false;
}

function setRunning(running) {
  state.busy = running;
  $("run").disabled = running;
  $("grade").disabled = running;
  // Only a live run can be stopped: a plain execute has no channel to say so.
  $("stop").disabled = !running || !state.control;
  $("live-form").hidden = !running || !state.control;
}

async function run() {
  showError("");
  closeComparison();
  clearOutput();
  pendingLine = "";
  lineShown = false;
  const stdin = $("stdin").value;
  $("live-unavailable").hidden = true;
  const body = { language: language(), source: source.get() };
  const limits = requestLimits();
  if (limits) body.limits = limits;
  player.load([], contextFromInput(stdin), 0);
  $("status").textContent = "Starting…";
  state.control = null;
  setRunning(true);
  try {
    let answer;
    try {
      answer = await connect(body, {
        open(control) {
          state.control = control;
          $("stop").disabled = false;
          if (stdin) {
            // Given input is the whole input, as for a batch run.
            control.send(stdin);
            control.eof();
          } else {
            $("live-form").hidden = false;
            $("live-input").focus();
          }
        },
        stage(event) {
          $("status").textContent = event.state === "started"
            ? (event.stage === "compile" ? "Compiling…" : "Running…")
            : `${event.stage === "compile" ? "Compile" : "Run"} finished: ${plain(event.status)} (${event.wall_ms} ms)`;
        },
        stdout: streamStdout,
        stderr: (text) => appendOutput(text, "stderr"),
        step: (step) => player.append(step),
      });
    } catch (error) {
      if (error.code !== "no_live") throw error;
      // No /v1/connect here (not served, or a proxy refuses WebSockets): one plain execute with
      // the input box as the whole input, and the learner told that typing to it cannot work.
      showLiveUnavailable(stdin);
      $("status").textContent = "Running without live input…";
      answer = { result: await postJSON("/v1/execute", { ...body, stdin }), live: false };
    }
    const result = answer.result;
    if (!answer.live) {
      appendOutput(withoutStepLines(result.run?.stdout || ""));
      appendOutput(result.run?.stderr || "", "stderr");
      player.load(result.steps || [], contextFromInput(stdin), 0);
    } else if (pendingLine) {
      if (!couldBeStepLine(pendingLine)) appendOutput(pendingLine);
      pendingLine = "";
    }
    if (result.compile && result.compile.status !== "ok") {
      appendOutput((result.compile.stderr || "") + (result.compile.stdout || ""), "stderr");
    }
    $("status").textContent = describeResult(result);
  } catch (error) {
    $("status").textContent = "";
    reportError(error);
  } finally {
    state.control = null;
    setRunning(false);
  }
}

$("run").addEventListener("click", run);

// Ctrl+Enter (⌘+Enter) runs or grades, whatever has the focus (the editor binds it itself).
function start() {
  if (state.busy) return;
  if (state.mode === "grade") grade(); else run();
}
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
  if (event.target.closest?.(".CodeMirror")) return;
  event.preventDefault();
  start();
});
$("stop").addEventListener("click", () => state.control?.kill());
$("live-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("live-input").value + "\n";
  $("live-input").value = "";
  if (!state.control) return;
  // No tty in the box, so the program does not echo: the page shows what was typed.
  appendOutput(text, "echo");
  lineShown = false;
  state.control.send(text);
});
$("live-eof").addEventListener("click", () => state.control?.eof());

// ---- grade ----

async function loadChallenges() {
  const { challenges, topics } = await getJSON("/v1/challenges");
  fillChallenges($("challenge"), challenges, topics);
  // Else the list's first, which is the first of the first topic, not the first id.
  const chosen = challenges.find((challenge) => challenge.id === wanted.challenge)?.id || $("challenge").options[0]?.value;
  if (chosen) await chooseChallenge(chosen);
}

async function chooseChallenge(id) {
  if (lastKey) state.edited.set(lastKey, source.get());
  lastKey = null;
  state.challenge = await getJSON("/v1/challenges/" + encodeURIComponent(id));
  $("challenge").value = id;
  showAbout($("challenge-about"), state.challenge);
  // The player showed another challenge's steps, the pane another challenge's dialogue.
  hideDialogue();
  closeComparison();
  player.load([], {}, 0);
  const statement = $("statement");
  statement.textContent = "";
  await loadScript("/vendor/marked/marked.min.js").catch(() => null);
  if (window.marked) {
    // The statement is the operator's own file; the policy forbids any script it might hold.
    statement.innerHTML = window.marked.parse(state.challenge.statement || "");
  } else {
    const pre = document.createElement("pre");
    pre.textContent = state.challenge.statement || "";
    statement.appendChild(pre);
  }
  fillPendingTests();
  $("grade-status").textContent = "";
  $("growth").hidden = true;
  showSourceFor(language());
}

$("challenge").addEventListener("change", () => chooseChallenge($("challenge").value).catch(reportError));
$("starter").addEventListener("click", () => {
  const starter = state.challenge?.starters?.[language()];
  if (starter === undefined) showError(`This challenge has no starter code for ${language()}.`);
  else source.set(starter);
});

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.appendChild(td);
  return td;
}

function fillPendingTests() {
  const body = $("tests").tBodies[0];
  body.textContent = "";
  (state.challenge?.tests || []).forEach((test, index) => {
    const row = document.createElement("tr");
    row.className = "test pending";
    row.dataset.index = String(index);
    cell(row, test.name + (test.hidden ? " (hidden)" : ""));
    cell(row, "waiting");
    cell(row, `– / ${test.points}`);
    cell(row, ""); cell(row, ""); cell(row, "");
    body.appendChild(row);
  });
}

let testSteps = [];
let collecting = [];

function showTest(test, index) {
  const body = $("tests").tBodies[0];
  let row = body.querySelector(`tr.test[data-index="${index}"]`);
  if (!row) {
    row = document.createElement("tr");
    body.appendChild(row);
  }
  row.nextElementSibling?.classList.contains("details") && row.nextElementSibling.remove();
  row.textContent = "";
  row.className = "test " + (test.verdict === "accepted" ? "accepted" : test.verdict === "skipped" ? "pending" : "failed");
  row.dataset.index = String(index);
  cell(row, test.name + (test.hidden ? " (hidden)" : ""));
  cell(row, plain(test.verdict));
  const earned = Math.round(test.score * test.points * 100) / 100;
  cell(row, `${earned} / ${test.points}`);
  // A hidden test has buckets ("under 1 s") in place of its figures.
  cell(row, test.time ?? `${test.wall_ms} ms`);
  cell(row, test.memory ?? kib(test.memory_kb));
  const message = cell(row, test.message || "");
  if (test.first_difference) {
    const button = document.createElement("button");
    button.type = "button";
    const step = test.first_difference.step;
    button.textContent = step === undefined ? "Show the expected step" : `Show step ${step}`;
    button.addEventListener("click", () => showDifference(test, index));
    message.appendChild(document.createTextNode(" "));
    message.appendChild(button);
  }
  // An interactive test's dialogue, on request; the first failing one's is shown by grade().
  if (test.transcript && !test.hidden) {
    const button = element("button", "Show the dialogue");
    button.type = "button";
    button.addEventListener("click", () => {
      showDialogue(test);
      $("dialogue-lines").focus();
    });
    message.append(" ", button);
  }
  // A hidden test has no details: nothing of its data is shown.
  if (test.details && !test.hidden && test.verdict !== "accepted") row.after(detailsRow(test));
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function shown(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

// What a failed visible test's details say, under its row: its input, then where the steps part
// (each differing field, both captions, the last step that matched) or where the output does.
function detailsRow(test) {
  const details = test.details;
  const row = element("tr", undefined, "details");
  const cellNode = element("td");
  cellNode.colSpan = 6;
  row.appendChild(cellNode);
  cellNode.appendChild(element("h4", "Input" + (details.input_truncated ? " (its start)" : "")));
  cellNode.appendChild(element("pre", details.input || "(empty)", "io"));
  const difference = test.first_difference;
  if (difference && difference.step !== undefined) {
    cellNode.appendChild(element("h4", `Step ${difference.step} differs`));
    const list = element("ul", undefined, "fields");
    const expected = difference.expected;
    const actual = difference.actual;
    if (expected && actual) {
      const names = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].filter((name) => name !== "caption");
      for (const name of names) {
        if (JSON.stringify(expected[name]) === JSON.stringify(actual[name])) continue;
        const item = element("li");
        item.append(element("code", name), `: expected ${shown(expected[name] ?? "nothing")}, yours ${shown(actual[name] ?? "nothing")}`);
        list.appendChild(item);
      }
    } else if (expected) {
      list.appendChild(element("li", "Your program printed no step here: it had fewer steps than expected."));
    } else {
      list.appendChild(element("li", "Your program printed a step here, after the expected steps had ended."));
    }
    cellNode.appendChild(list);
    const expectedCaption = difference.caption || expected?.caption;
    if (expectedCaption) cellNode.appendChild(element("p", `Expected step: ${expectedCaption}`));
    if (actual?.caption) cellNode.appendChild(element("p", `Your step: ${actual.caption}`));
    const matched = details.last_matching_step;
    if (matched) {
      const { caption, ...fields } = matched;
      cellNode.appendChild(element("p", `Step ${difference.step - 1}, the last that matched: ${JSON.stringify(fields)}` +
        (caption ? ` (${caption})` : "")));
    } else if (difference.step === 1) {
      cellNode.appendChild(element("p", "The very first step differs."));
    }
  } else if (typeof details.expected_output === "string") {
    cellNode.appendChild(element("h4", "Expected output (-) and yours (+)"));
    cellNode.appendChild(outputDifference(details.expected_output, details.output || "", details.output_truncated));
  } else if (details.output !== undefined) {
    cellNode.appendChild(element("h4", "Your output" + (details.output_truncated ? " (its start)" : "")));
    cellNode.appendChild(element("pre", details.output || "(empty)", "io"));
  }
  return row;
}

function linesOf(text) {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// Expected against yours from a little before the first line that differs, as the CLI shows it
// (outputDifference in Sources/dsa-run/ChallengeShell.swift): two lines before, five from it.
function outputDifference(expectedText, yoursText, truncated = false) {
  const want = linesOf(expectedText);
  const got = linesOf(yoursText);
  let first = 0;
  while (first < want.length && first < got.length && want[first] === got[first]) first++;
  const pre = element("pre", undefined, "io diff");
  const add = (text, className) => pre.appendChild(element("span", text + "\n", className));
  add(`From line ${first + 1}:`, "note");
  for (let index = Math.max(0, first - 2); index < first; index++) add("    " + want[index], "same");
  const end = first + 5;
  for (let index = first; index < Math.min(Math.max(want.length, got.length), end); index++) {
    if (index < want.length && index < got.length && want[index] === got[index]) { add("    " + want[index], "same"); continue; }
    if (index < want.length) add("  - " + want[index], "minus");
    if (index < got.length) add("  + " + got[index], "plus");
  }
  if (first >= want.length) add("  (the expected output ends here; yours goes on)", "note");
  if (first >= got.length) add(truncated ? "  (your output is cut here: it was too long to send whole)" : "  (your output ends here)", "note");
  if (Math.max(want.length, got.length) > end) add("    ...", "note");
  return pre;
}

// Opens the player at a test's first differing step, expected and the learner's side by side.
function showDifference(test, index) {
  const difference = test.first_difference;
  const number = difference.step;
  $("compare").hidden = false;
  if (number === undefined) {
    // A hidden test's difference has no number and no fields: the step's kind and a caption
    // without the test's data are all there is to show.
    for (const [stage, captionId, text] of [
      [expectedStage, "expected-caption", `${difference.kind}: ${difference.caption}`],
      [actualStage, "actual-caption", ""],
    ]) {
      stage.reset({});
      stage.element.textContent = "A hidden test's steps are not shown.";
      $(captionId).textContent = text;
    }
    player.captionFor = null;
    player.load([], {}, 0);
    return;
  }
  for (const [stage, step, captionId, fallback] of [
    [expectedStage, difference.expected, "expected-caption", difference.caption],
    [actualStage, difference.actual, "actual-caption", null],
  ]) {
    stage.reset({});
    if (step) {
      const range = rangeOf([difference.expected, difference.actual].filter(Boolean));
      stage.draw(step, null, range, null);
      $(captionId).textContent = step.caption || fallback || describe(step);
    } else {
      stage.element.textContent = test.hidden ? "A hidden test's steps are not shown." : "No step here.";
      $(captionId).textContent = fallback || (test.hidden ? "" : "Your program ended before this step.");
    }
  }
  const mine = testSteps[index] || [];
  let steps = mine;
  let offset = 0;
  if (mine.length < number) {
    // Only the differing step is known (the server did not stream this test's steps).
    steps = difference.actual ? [difference.actual] : difference.expected ? [difference.expected] : [];
    offset = number - 1;
  }
  player.captionFor = null;
  player.load(steps, {}, offset);
  player.captionFor = (step, at) =>
    at + offset === number - 1 ? `Step ${number} differs. Expected: ${difference.caption || describe(difference.expected || {})}` : describe(step);
  player.seek(number - 1 - offset);
  $("player").focus();
}

function showGrowth(growth) {
  const box = $("growth");
  if (!growth) { box.hidden = true; return; }
  box.hidden = false;
  $("growth-message").textContent = growth.message || "";
  const select = $("growth-case");
  select.textContent = "";
  const cases = growth.cases?.length ? growth.cases : [{ name: "growth", ...growth, expect: [] }];
  cases.forEach((growthCase, index) => {
    const option = document.createElement("option");
    option.value = String(index);
    option.textContent = `${growthCase.name}: ${growthCase.verdict}${growthCase.class ? `, O(${growthCase.class})` : ""}`;
    select.appendChild(option);
  });
  const deciding = Math.max(0, cases.findIndex((growthCase) => growthCase.verdict !== "accepted"));
  select.value = String(deciding);
  const draw = () => {
    const growthCase = cases[Number(select.value)];
    $("growth-message").textContent = growthCase.message || growth.message || "";
    drawGrowth($("growth-chart"), growthCase).catch((error) => showError(String(error.message || error)));
  };
  select.onchange = draw;
  draw();
}

async function grade() {
  if (!state.challenge) return;
  showError("");
  closeComparison();
  player.load([], {}, 0);
  fillPendingTests();
  hideDialogue();
  $("growth").hidden = true;
  testSteps = [];
  collecting = [];
  $("grade-status").textContent = "Grading…";
  setRunning(true);
  try {
    const body = { language: language(), source: source.get(), challenge: state.challenge.id };
    const { result } = await postStream("/v1/grade", body, {
      stage: (event) => {
        $("grade-status").textContent = event.state === "started"
          ? (event.stage === "compile" ? "Compiling…" : "Running the tests…")
          : `${event.stage === "compile" ? "Compile" : "Tests"}: ${plain(event.status)}`;
      },
      step: (step) => collecting.push(step),
      test: (test) => {
        const index = test.index ?? 0;
        testSteps[index] = collecting;
        collecting = [];
        showTest(test, index);
      },
    });
    result.tests.forEach((test, index) => showTest(test, index));
    $("grade-status").textContent = `${plain(result.verdict)}. Score ${Math.round(result.score * 1000) / 10}%, ` +
      `${result.wall_ms} ms.` + (result.message ? ` ${result.message}` : "");
    if (result.compile && result.compile.status !== "ok") {
      showError("The program did not compile: " + (result.compile.stderr || result.compile.message || ""));
    }
    showGrowth(result.growth);
    const talking = firstFailingDialogue(result.tests);
    if (talking) showDialogue(talking);
    const failing = result.tests.findIndex((test) => test.first_difference);
    if (failing >= 0) showDifference(result.tests[failing], failing);
  } catch (error) {
    $("grade-status").textContent = "";
    reportError(error);
  } finally {
    setRunning(false);
  }
}

$("grade").addEventListener("click", grade);

// ---- modes ----

let challengesLoaded = Promise.resolve();
function setPageMode(mode) {
  if (state.busy) return;
  state.mode = mode;
  const grading = mode === "grade";
  $("tab-run").setAttribute("aria-pressed", String(!grading));
  $("tab-grade").setAttribute("aria-pressed", String(grading));
  $("grade-tools").hidden = !grading;
  $("statement").hidden = !grading;
  $("challenge-about").hidden = !grading || !state.challenge;
  $("grade-io").hidden = !grading;
  $("run-tools").hidden = grading;
  $("run-io").hidden = grading;
  closeComparison();
  if (grading && !state.challenge) {
    challengesLoaded = loadChallenges().catch(reportError);
  } else {
    showSourceFor(language());
  }
  editor?.refresh();
}

$("tab-run").addEventListener("click", () => setPageMode("run"));
$("tab-grade").addEventListener("click", () => setPageMode("grade"));

function reportError(error) {
  const known = [...new Set(state.runtimes.filter((runtime) => runtime.available).map((runtime) => runtime.language))];
  showError(plainWords(error instanceof ApiError ? error : new ApiError("internal", String(error.message || error)),
    { language: language(), known }));
}

// ?embed=1: the editor, Run, the output and the player, for a frame in another site's page.
if (embedded) document.body.classList.add("embed");
updateTokenState();
loadRuntimes()
  .then(async () => {
    if (wanted.mode === "grade" && !embedded) {
      setPageMode("grade");
      await challengesLoaded;
    }
    document.body.dataset.ready = "true";
    performance.mark("dsa-interactive");
  })
  .catch(reportError);
