/**
 * @param {number[]} items
 * @param {number} k
 * @return {number[]}
 */
function topKFrequent(items, k) {
  // A value beyond 2^53 arrives as a BigInt; a Map finds a BigInt key by its value, and < compares
  // BigInts with numbers.
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) || 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return ranked.slice(0, Number(k)).map(([value]) => value);
}
