/**
 * @param {number} n
 * @param {number[][]} edges
 * @return {number}
 */
function countComponents(n, edges) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const size = new Array(n).fill(1);
  let hops = 0; // parent pointers followed by find, for the growth grade
  const find = (x) => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]]; // path halving
      x = parent[x];
      hops++;
    }
    return x;
  };
  let components = n;
  for (const [u, v] of edges) {
    let a = find(u), b = find(v);
    if (a === b) continue;
    if (size[a] < size[b]) [a, b] = [b, a];
    parent[b] = a; // the smaller tree goes under the larger one's root
    size[a] += size[b];
    components--;
  }
  console.log(`@count ${hops}`);
  return components;
}
