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

const n = Number(readLine().trim());
if (n === 1) {
  fs.writeSync(1, "! 0\n");
} else {
  const distance = new Array(n + 1).fill(-1);
  const frontier = [1];
  distance[1] = 0;
  let answer = -1;
  for (let head = 0; head < frontier.length && answer < 0; head++) {
    const node = frontier[head];
    fs.writeSync(1, `? ${node}\n`);
    const reply = readLine().trim().split(" ").map(Number);
    for (const neighbour of reply.slice(1)) {
      if (distance[neighbour] >= 0) continue;
      distance[neighbour] = distance[node] + 1;
      if (neighbour === n) {
        answer = distance[neighbour];
        break;
      }
      frontier.push(neighbour);
    }
  }
  fs.writeSync(1, `! ${answer}\n`);
}
