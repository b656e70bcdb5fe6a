const fs = require("fs");

// Prints one step line: "@step " and the fields as one JSON object (null prints as null).
function step(fields) {
  console.log("@step " + JSON.stringify(fields));
}

function search(array, target) {
  let low = 0;
  let high = array.length - 1;
  // Wrong on purpose: stops when low == high, before probing the last candidate.
  while (low < high) {
    const mid = low + Math.floor((high - low) / 2);
    const found = array[mid] === target;
    step({ low: low, high: high, mid: mid, found: found });
    if (found) return mid;
    if (array[mid] < target) low = mid + 1;
    else high = mid - 1;
  }
  step({ low: low, high: high, mid: null, found: false });
  return -1;
}

const numbers = fs
  .readFileSync(0, "utf8")
  .split(/\s+/)
  .filter((token) => token.length > 0)
  .map(Number);
const n = numbers[0];
const array = numbers.slice(1, 1 + n);
const target = numbers[1 + n];
console.log(search(array, target));
