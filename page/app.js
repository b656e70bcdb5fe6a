// The playground: run a program live, replay its steps, grade it on a challenge.
import { ApiError, connect, getJSON, plainWords, postJSON, postStream, setHooks, setToken, token } from "./api.js";
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
  ? window.CodeMirror.fromTextArea($("editor"), { lineNumbers: true, indentUnit: 4, tabSize: 4, viewportMargin: 20 })
  : null;
const source = {
  get: () => (editor ? editor.getValue() : $("editor").value),
  set: (text) => (editor ? editor.setValue(text) : ($("editor").value = text)),
};
if (!editor) showError("The editor (CodeMirror, Debian's libjs-codemirror) could not be loaded; a plain text box is used.");

function language() { return $("language").value; }

function setMode(languageName) {
  if (editor) editor.setOption("mode", MODES[languageName] || null);
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
  const first = runtimes.find((runtime) => runtime.available && runtime.language === "python") ||
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

function appendOutput(text, className) {
  if (!text) return;
  const span = document.createElement("span");
  if (className) span.className = className;
  span.textContent = text;
  output.appendChild(span);
  output.scrollTop = output.scrollHeight;
}

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

function kib(kb) { return kb >= 1024 ? `${(kb / 1024).toFixed(1)} MiB` : `${kb} KiB`; }

function describeResult(result) {
  const run = result.run;
  const compile = result.compile;
  if (!run) {
    return `${compile?.status || "compile_error"}: the program did not compile. ${compile?.message || ""}`.trim();
  }
  const parts = [run.status];
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
  output.textContent = "";
  pendingLine = "";
  lineShown = false;
  const stdin = $("stdin").value;
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
            : `${event.stage} finished: ${event.status} (${event.wall_ms} ms)`;
        },
        stdout: streamStdout,
        stderr: (text) => appendOutput(text, "stderr"),
        step: (step) => player.append(step),
      });
    } catch (error) {
      if (error.code !== "no_live") throw error;
      // No /v1/connect here: one plain execute with the input box as the whole input.
      $("status").textContent = "Running (live runs are not available on this server)…";
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
  const { challenges } = await getJSON("/v1/challenges");
  const select = $("challenge");
  select.textContent = "";
  for (const challenge of challenges) {
    const option = document.createElement("option");
    option.value = challenge.id;
    option.textContent = challenge.title;
    select.appendChild(option);
  }
  if (challenges.length) await chooseChallenge(challenges[0].id);
}

async function chooseChallenge(id) {
  if (lastKey) state.edited.set(lastKey, source.get());
  lastKey = null;
  state.challenge = await getJSON("/v1/challenges/" + encodeURIComponent(id));
  $("challenge").value = id;
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
    row.className = "pending";
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
  let row = body.rows[index];
  if (!row) {
    row = document.createElement("tr");
    body.appendChild(row);
  }
  row.textContent = "";
  row.className = test.verdict === "accepted" ? "accepted" : test.verdict === "skipped" ? "pending" : "failed";
  row.dataset.index = String(index);
  cell(row, test.name + (test.hidden ? " (hidden)" : ""));
  cell(row, test.verdict);
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
  fillPendingTests();
  $("growth").hidden = true;
  testSteps = [];
  collecting = [];
  $("grade-status").textContent = "Grading…";
  setRunning(true);
  try {
    const body = { language: language(), source: source.get(), challenge: state.challenge.id };
    const { result } = await postStream("/v1/grade", body, {
      stage: (event) => {
        $("grade-status").textContent = event.state === "started" ? `${event.stage}…` : `${event.stage}: ${event.status}`;
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
    const parts = [`${result.verdict}`, `score ${Math.round(result.score * 1000) / 10}%`, `${result.wall_ms} ms`];
    $("grade-status").textContent = parts.join(" · ") + (result.message ? ` · ${result.message}` : "");
    if (result.compile && result.compile.status !== "ok") {
      showError("The program did not compile: " + (result.compile.stderr || result.compile.message || ""));
    }
    showGrowth(result.growth);
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

function setPageMode(mode) {
  if (state.busy) return;
  state.mode = mode;
  const grading = mode === "grade";
  $("tab-run").setAttribute("aria-pressed", String(!grading));
  $("tab-grade").setAttribute("aria-pressed", String(grading));
  $("grade-tools").hidden = !grading;
  $("statement").hidden = !grading;
  $("grade-io").hidden = !grading;
  $("run-tools").hidden = grading;
  $("run-io").hidden = grading;
  closeComparison();
  if (grading && !state.challenge) {
    loadChallenges().catch(reportError);
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

updateTokenState();
loadRuntimes()
  .then(() => {
    document.body.dataset.ready = "true";
    performance.mark("dsa-interactive");
  })
  .catch(reportError);
