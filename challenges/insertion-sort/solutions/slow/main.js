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
for (let i = 1; i < n; i++) {
  for (let j = i; j > 0; j--) {
    step({ action: "compare", active: [j - 1, j], array: array });
    // Too slow: no stop once the item is in place, so a sorted array costs n²/2 compares.
    if (array[j - 1] <= array[j]) continue;
    [array[j - 1], array[j]] = [array[j], array[j - 1]];
    step({ action: "swap", active: [j - 1, j], array: array });
  }
}
step({ action: "done", active: [], array: array });
console.log(array.join(" "));
