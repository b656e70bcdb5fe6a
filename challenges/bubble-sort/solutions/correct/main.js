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
for (let donePasses = 0; donePasses < n - 1; donePasses++) {
  let swapped = false;
  for (let j = 0; j < n - 1 - donePasses; j++) {
    step({ action: "compare", active: [j, j + 1], array: array });
    if (array[j] > array[j + 1]) {
      [array[j], array[j + 1]] = [array[j + 1], array[j]];
      swapped = true;
      step({ action: "swap", active: [j, j + 1], array: array });
    }
  }
  if (!swapped) break;
}
step({ action: "done", active: [], array: array });
console.log(array.join(" "));
