/**
 * @param {number} n
 * @param {number[][]} prerequisites
 * @return {number[]}
 */
function courseOrder(n, prerequisites) {
  const unlocks = Array.from({ length: n }, () => []);
  const waiting = new Array(n).fill(0); // unmet prerequisites of each course
  for (const [course, first] of prerequisites) {
    unlocks[first].push(course);
    waiting[course]++;
  }
  // Wrong on purpose: a FIFO queue, so a course freed later comes after bigger ones that waited.
  const queue = [];
  for (let c = 0; c < n; c++) if (waiting[c] === 0) queue.push(c);
  for (let head = 0; head < queue.length; head++) {
    for (const next of unlocks[queue[head]]) if (--waiting[next] === 0) queue.push(next);
  }
  return queue.length === n ? queue : [];
}
