/**
 * Slow on purpose: the pattern is checked at every start, O(len(text) x len(pattern)).
 * @param {string} text
 * @param {string} pattern
 * @return {number[]}
 */
function findOccurrences(text, pattern) {
  let comparisons = 0;
  const same = (a, b) => {
    comparisons++;
    return a === b;
  };
  const found = [];
  for (let start = 0; start + pattern.length <= text.length; start++) {
    let j = 0;
    while (j < pattern.length && same(text[start + j], pattern[j])) j++;
    if (j === pattern.length) found.push(start);
  }
  console.log(`@count ${comparisons}`);
  return found;
}
