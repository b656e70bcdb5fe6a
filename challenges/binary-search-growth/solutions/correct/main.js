const lines = [];

// One step line per item looked at.
function probe(index) {
  lines.push('@step {"action": "probe", "index": ' + index + "}");
}

const numbers = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
const n = numbers[0];
const items = numbers.slice(1, 1 + n);
const target = numbers[1 + n];
let answer = -1;
let low = 0;
let high = n - 1;
while (low <= high) {
  const middle = Math.floor((low + high) / 2);
  probe(middle);
  if (items[middle] === target) {
    answer = middle;
    break;
  }
  if (items[middle] < target) low = middle + 1;
  else high = middle - 1;
}
lines.push(String(answer));
process.stdout.write(lines.join("\n") + "\n");
