/**
 * @param {number[]} nums
 * @param {number} k
 * @return {number}
 */
function kthLargest(nums, k) {
  // A min-heap of the k largest values seen so far; `<` because values beyond 2^53 arrive as BigInt.
  const heap = [];
  let comparisons = 0; // comparisons of two values, for the growth grade
  const less = (a, b) => {
    comparisons++;
    return a < b;
  };
  const push = (value) => {
    heap.push(value);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const pop = () => {
    const last = heap.pop();
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1, right = left + 1;
      let smallest = i;
      if (left < heap.length && less(heap[left], heap[smallest])) smallest = left;
      if (right < heap.length && less(heap[right], heap[smallest])) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
      i = smallest;
    }
  };
  for (const value of nums) {
    push(value);
    if (heap.length > Number(k)) pop();
  }
  console.log(`@count ${comparisons}`);
  return heap[0];
}
