const lines = [];

// One step line per item looked at.
function probe(index) {
  lines.push('@step {"action": "probe", "index": ' + index + "}");
}

// A scan from the start: right answers, about n probes.
const numbers = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
const n = numbers[0];
const items = numbers.slice(1, 1 + n);
const target = numbers[1 + n];
let answer = -1;
for (let index = 0; index < n; index++) {
  probe(index);
  if (items[index] === target) {
    answer = index;
    break;
  }
  if (items[index] > target) break;
}
lines.push(String(answer));
process.stdout.write(lines.join("\n") + "\n");
