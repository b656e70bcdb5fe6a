/**
 * @param {string} s
 * @return {boolean}
 */
function isBalanced(s) {
  // Wrong on purpose: one counter per kind checks how many brackets there are, not how they nest.
  const opener = { ")": "(", "]": "[", "}": "{" };
  const openCount = { "(": 0, "[": 0, "{": 0 };
  for (const bracket of s) {
    if (bracket in openCount) openCount[bracket]++;
    else if (--openCount[opener[bracket]] < 0) return false;
  }
  return Object.values(openCount).every((count) => count === 0);
}
