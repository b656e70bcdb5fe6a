const data = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter((token) => token.length > 0);
const count = Number(data[0]);
const opener = { ')': '(', ']': '[', '}': '{' };

function balanced(text) {
  const stack = [];
  for (const bracket of text) {
    if ('([{'.includes(bracket)) stack.push(bracket);
    else if (stack.length === 0 || stack.pop() !== opener[bracket]) return false;
  }
  return stack.length === 0;
}

const answers = data.slice(1, 1 + count).map((text) => (balanced(text) ? 'YES' : 'NO'));
if (answers.length > 0) console.log(answers.join('\n'));
