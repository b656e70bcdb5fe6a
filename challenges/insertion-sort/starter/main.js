const fs = require("fs");

// Prints one step line: "@step " and the fields as one JSON object.
function step(fields) {
  console.log("@step " + JSON.stringify(fields));
}

const numbers = fs
  .readFileSync(0, "utf8")
  .split(/\s+/)
  .filter((token) => token.length > 0)
  .map(Number);
const n = numbers[0];
const array = numbers.slice(1, 1 + n);
// TODO: insertion sort by adjacent swaps. Report each comparison and swap, then the end:
//   step({ action: "compare", active: [j - 1, j], array: array });
//   step({ action: "swap", active: [j - 1, j], array: array });
//   step({ action: "done", active: [], array: array });
console.log(array.join(" "));
