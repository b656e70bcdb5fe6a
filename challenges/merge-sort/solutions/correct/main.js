const lines = [];

// One step line per comparison of two items.
function compare() {
  lines.push('@step {"action": "compare"}');
}

function mergeSort(items) {
  if (items.length < 2) return items;
  const middle = Math.floor(items.length / 2);
  const left = mergeSort(items.slice(0, middle));
  const right = mergeSort(items.slice(middle));
  const merged = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    compare();
    merged.push(left[i] <= right[j] ? left[i++] : right[j++]);
  }
  return merged.concat(left.slice(i), right.slice(j));
}

const numbers = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
const n = numbers[0];
lines.push(mergeSort(numbers.slice(1, 1 + n)).join(" "));
process.stdout.write(lines.join("\n") + "\n");
