/**
 * @param {number} n
 * @param {number[][]} edges
 * @return {number}
 */
function countComponents(n, edges) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x) => {
    while (parent[x] !== x) x = parent[x];
    return x;
  };
  // Wrong on purpose: links the node v, not v's root, so v's old set loses its link to it.
  for (const [u, v] of edges) parent[v] = find(u);
  let roots = 0;
  for (let x = 0; x < n; x++) if (parent[x] === x) roots++;
  return roots;
}
