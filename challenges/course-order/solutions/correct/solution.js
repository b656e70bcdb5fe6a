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
  const heap = []; // a min-heap: the smallest ready course comes first
  const push = (value) => {
    heap.push(value);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (heap[parent] <= heap[i]) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const pop = () => {
    const top = heap[0], last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1, right = left + 1;
        let smallest = i;
        if (left < heap.length && heap[left] < heap[smallest]) smallest = left;
        if (right < heap.length && heap[right] < heap[smallest]) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
        i = smallest;
      }
    }
    return top;
  };
  for (let c = 0; c < n; c++) if (waiting[c] === 0) push(c);
  const order = [];
  while (heap.length > 0) {
    const c = pop();
    order.push(c);
    for (const next of unlocks[c]) if (--waiting[next] === 0) push(next);
  }
  return order.length === n ? order : []; // fewer: the rest wait on each other
}
