const { Recorder } = require('dsa');

const BASE = 256, MODULUS = 1000000007;
const STEPS_UP_TO = 100; // a longer text records only the done step

const mod = (x) => ((x % MODULUS) + MODULUS) % MODULUS;

/**
 * @param {string} text
 * @param {string} pattern
 * @return {number[]}
 */
function findAll(text, pattern) {
  const rec = new Recorder();
  const recording = text.length <= STEPS_UP_TO;
  const n = text.length, m = pattern.length;
  const found = [];
  let patternHash = 0, windowHash = 0;
  const step = (action, offset, index, hash, caption) =>
    rec.step(action, { text, pattern, offset, index, found: [...found], window_hash: hash, pattern_hash: patternHash }, caption);

  for (let i = 0; i < m; i++) patternHash = mod(patternHash * BASE + pattern.charCodeAt(i));
  let high = 1; // the weight of a window's first character: BASE^(m-1)
  for (let i = 1; i < m; i++) high = mod(high * BASE);
  for (let offset = 0; offset + m <= n; offset++) {
    if (offset === 0) {
      for (let i = 0; i < m; i++) windowHash = mod(windowHash * BASE + text.charCodeAt(i));
      if (recording) step('hash', 0, null, windowHash, `Hash of the first window: ${windowHash}`);
    } else {
      windowHash = mod((windowHash - mod(text.charCodeAt(offset - 1) * high)) * BASE + text.charCodeAt(offset + m - 1));
      if (recording) step('roll', offset, null, windowHash, `Roll the hash to offset ${offset}: ${windowHash}`);
    }
    if (windowHash !== patternHash) continue;
    found.push(offset); // Wrong on purpose: a hash hit is taken as a match, without comparing the characters.
  }
  step('done', null, null, null, `Found at ${found}`);
  return found;
}
