/**
 * @param {number} n
 * @param {number[][]} edges
 * @return {number}
 */
function mstWeight(n, edges) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x) => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]]; // path halving
      x = parent[x];
    }
    return x;
  };
  let total = 0, joined = 0;
  for (const [u, v, w] of [...edges].sort((a, b) => a[2] - b[2])) { // Kruskal: cheapest edges first
    const a = find(u), b = find(v);
    if (a !== b) { // joins two components, so it makes no cycle
      parent[a] = b;
      total += w;
      joined++;
    }
  }
  return joined === n - 1 ? total : -1;
}
