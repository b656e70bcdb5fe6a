const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0);
const count = Number(data[0]);
const opener = { ')': '(', ']': '[', '}': '{' };

function balanced(text) {
  // Mistake: one counter per kind checks the numbers of brackets but not how they nest.
  const openCount = { '(': 0, '[': 0, '{': 0 };
  for (const bracket of text) {
    if (bracket in openCount) openCount[bracket]++;
    else if (--openCount[opener[bracket]] < 0) return false;
  }
  return Object.values(openCount).every((open) => open === 0);
}

const answers = data.slice(1, 1 + count).map((text) => (balanced(text) ? 'YES' : 'NO'));
if (answers.length > 0) console.log(answers.join('\n'));
