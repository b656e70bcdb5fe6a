/**
 * @param {string} text
 * @param {string} pattern
 * @return {number[]}
 */
function findOccurrences(text, pattern) {
  let comparisons = 0; // character comparisons, for the growth grade
  const same = (a, b) => {
    comparisons++;
    return a === b;
  };
  // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
  const fail = new Array(pattern.length).fill(0);
  let k = 0;
  for (let i = 1; i < pattern.length; i++) {
    while (k > 0 && !same(pattern[i], pattern[k])) k = fail[k - 1];
    if (same(pattern[i], pattern[k])) k++;
    fail[i] = k;
  }
  const found = [];
  k = 0;
  for (let i = 0; i < text.length; i++) {
    while (k > 0 && !same(text[i], pattern[k])) k = fail[k - 1];
    if (same(text[i], pattern[k])) k++;
    if (k === pattern.length) {
      found.push(i - k + 1);
      k = fail[k - 1];
    }
  }
  console.log(`@count ${comparisons}`);
  return found;
}
