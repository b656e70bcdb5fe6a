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
let low = 1;
let high = n;
while (low < high) {
  const middle = Math.floor((low + high) / 2);
  fs.writeSync(1, `? ${middle}\n`);
  const reply = readLine().trim();
  if (reply === "=") {
    low = high = middle;
  } else if (reply === "<") {
    high = middle - 1;
  } else {
    low = middle + 1;
  }
}
fs.writeSync(1, `! ${low}\n`);
