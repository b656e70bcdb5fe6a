const fs = require("fs");

// Prints one step line: "@step " and the fields as one JSON object.
function step(fields) {
  console.log("@step " + JSON.stringify(fields));
}

function quickSort(array, lo, hi) {
  // TODO: if lo < hi, Lomuto-partition array[lo..hi] around array[hi], then sort both parts. Report:
  //   step({ action: "pivot", active: [hi], array: array });
  //   step({ action: "compare", active: [j, hi], array: array });
  //   step({ action: "swap", active: [i, j], array: array });
  //   step({ action: "place", active: [i], array: array });
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
