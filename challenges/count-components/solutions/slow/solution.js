/**
 * Slow on purpose: no union by size and no path compression, so the trees can grow as tall as a
 * chain and each find walks all of it.
 * @param {number} n
 * @param {number[][]} edges
 * @return {number}
 */
function countComponents(n, edges) {
  const parent = Array.from({ length: n }, (_, i) => i);
  let hops = 0;
  const find = (x) => {
    while (parent[x] !== x) {
      x = parent[x];
      hops++;
    }
    return x;
  };
  let components = n;
  for (const [u, v] of edges) {
    const a = find(u), b = find(v);
    if (a !== b) {
      parent[a] = b;
      components--;
    }
  }
  console.log(`@count ${hops}`);
  return components;
}
