const lines = [];

// One step line per comparison of two items.
function compare() {
  lines.push('@step {"action": "compare"}');
}

// Insertion sort: right answers, but about n²/4 comparisons on random input.
const numbers = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
const n = numbers[0];
const items = numbers.slice(1, 1 + n);
for (let i = 1; i < n; i++) {
  for (let j = i; j > 0; j--) {
    compare();
    if (items[j - 1] <= items[j]) break;
    [items[j - 1], items[j]] = [items[j], items[j - 1]];
  }
}
lines.push(items.join(" "));
process.stdout.write(lines.join("\n") + "\n");
