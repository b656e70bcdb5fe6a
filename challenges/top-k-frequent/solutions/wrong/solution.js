/**
 * @param {number[]} items
 * @param {number} k
 * @return {number[]}
 */
function topKFrequent(items, k) {
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) || 0) + 1);
  // Wrong: a stable sort by count alone keeps tied values in the order they first appear.
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return ranked.slice(0, Number(k)).map(([value]) => value);
}
