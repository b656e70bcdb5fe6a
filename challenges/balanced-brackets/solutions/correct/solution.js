/**
 * @param {string} s
 * @return {boolean}
 */
function isBalanced(s) {
  const opener = { ")": "(", "]": "[", "}": "{" };
  const stack = [];
  for (const bracket of s) {
    if ("([{".includes(bracket)) stack.push(bracket);
    else if (stack.length === 0 || stack.pop() !== opener[bracket]) return false;
  }
  return stack.length === 0;
}
