const fs = require("fs");

// Prints one step line: "@step " and the fields as one JSON object.
function step(fields) {
  console.log("@step " + JSON.stringify(fields));
}

function quickSort(array, lo, hi) {
  if (lo >= hi) return;
  const pivot = array[hi];
  step({ action: "pivot", active: [hi], array: array });
  let i = lo;
  for (let j = lo; j < hi; j++) {
    step({ action: "compare", active: [j, hi], array: array });
    if (array[j] <= pivot) {
      if (i !== j) {
        [array[i], array[j]] = [array[j], array[i]];
        step({ action: "swap", active: [i, j], array: array });
      }
      i++;
    }
  }
  [array[i], array[hi]] = [array[hi], array[i]];
  step({ action: "place", active: [i], array: array });
  quickSort(array, lo, i - 1);
  quickSort(array, i + 1, hi);
}

const numbers = fs
  .readFileSync(0, "utf8")
  .split(/\s+/)
  .filter((token) => token.length > 0)
  .map(Number);
const n = numbers[0];
const array = numbers.slice(1, 1 + n);
quickSort(array, 0, n - 1);
step({ action: "done", active: [], array: array });
console.log(array.join(" "));
