// An interactive test's dialogue (a visible test's `transcript`, docs/api.md): who wrote what, in
// the order the server read it. The program's lines and the judge's (the interactor's) differ in
// colour and in a written prefix, "program:" or "judge:", which a screen reader reads too, since a
// colour alone says nothing to it.

// As the output pane: the last LINE_CAP lines until "Show all" (a transcript is at most 16 KiB,
// so all of it is cheap to draw once asked for). The end is kept, as that is where a dialogue
// goes wrong; the CLI shows the end too.
export const LINE_CAP = 1000;

const WHO = { program: "program:", interactor: "judge:" };

// The transcript as lines, each with its side; a turn's final newline ends its last line.
export function dialogueLines(transcript) {
  const lines = [];
  for (const turn of transcript?.turns || []) {
    const written = turn.text.split("\n");
    if (written[written.length - 1] === "") written.pop();
    // A side this page does not know is shown as the program's, as the CLI reads it.
    const from = turn.from === "interactor" ? "interactor" : "program";
    for (const text of written) lines.push({ from, text });
  }
  return lines;
}

function lineNode(line) {
  const item = document.createElement("li");
  item.className = line.from;
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = WHO[line.from];
  item.append(who, " ", line.text);
  return item;
}

// Shows `test`'s dialogue in the pane (ids dialogue, dialogue-title, dialogue-lines, dialogue-cap,
// dialogue-cap-text, dialogue-all); `all` lifts the cap.
export function showDialogue(test, all = false) {
  const $ = (id) => document.getElementById(id);
  const lines = dialogueLines(test.transcript);
  const hidden = all ? 0 : Math.max(0, lines.length - LINE_CAP);
  $("dialogue-title").textContent = `The dialogue of test ${test.name}`;
  const list = $("dialogue-lines");
  list.textContent = "";
  const fragment = document.createDocumentFragment();
  for (const line of lines.slice(hidden)) fragment.appendChild(lineNode(line));
  if (!lines.length) fragment.appendChild(Object.assign(document.createElement("li"), { className: "note", textContent: "Neither side wrote anything." }));
  if (test.transcript?.truncated) {
    fragment.appendChild(Object.assign(document.createElement("li"), {
      className: "note", textContent: "The rest was not kept: a dialogue is kept up to 16 KiB." }));
  }
  list.appendChild(fragment);
  $("dialogue-cap-text").textContent = hidden
    ? `Showing the last ${LINE_CAP.toLocaleString("en")} lines; ${hidden.toLocaleString("en")} earlier lines are hidden.` : "";
  $("dialogue-cap").hidden = !hidden;
  $("dialogue-all").onclick = () => { showDialogue(test, true); list.focus(); };
  $("dialogue").hidden = false;
  // The end of a long dialogue is where it went wrong.
  list.scrollTop = list.scrollHeight;
}

export function hideDialogue() {
  document.getElementById("dialogue").hidden = true;
  document.getElementById("dialogue-lines").textContent = "";
}

// The test whose dialogue is shown after a grade: the first visible one that did not pass.
export function firstFailingDialogue(tests) {
  return tests.find((test) => test.transcript && !test.hidden && !["accepted", "skipped"].includes(test.verdict));
}
