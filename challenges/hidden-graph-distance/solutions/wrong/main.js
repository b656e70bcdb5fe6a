const fs = require("fs");

// Lines read straight from descriptor 0: a dialogue needs each reply before the next question.
let pending = "";
function readLine() {
  const chunk = Buffer.alloc(4096);
  while (!pending.includes("\n")) {
    let count;
    try {
      count = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error.code === "EAGAIN") continue;
      if (error.code === "EOF") count = 0;
      else throw error;
    }
    if (count === 0) {
      const rest = pending;
      pending = "";
      return rest.length > 0 ? rest : null;
    }
    pending += chunk.toString("utf8", 0, count);
  }
  const end = pending.indexOf("\n");
  const line = pending.slice(0, end);
  pending = pending.slice(end + 1);
  return line;
}

// A depth-first search: it finds a path to node n, but not always a shortest one.
const n = Number(readLine().trim());
const seen = new Array(n + 1).fill(false);
const stack = [[1, 0]];
seen[1] = true;
let answer = -1;
while (stack.length > 0) {
  const [node, depth] = stack.pop();
  if (node === n) {
    answer = depth;
    break;
  }
  fs.writeSync(1, `? ${node}\n`);
  const neighbours = readLine().trim().split(" ").map(Number).slice(1);
  for (const neighbour of neighbours.reverse()) {
    if (seen[neighbour]) continue;
    seen[neighbour] = true;
    stack.push([neighbour, depth + 1]);
  }
}
fs.writeSync(1, `! ${answer}\n`);
