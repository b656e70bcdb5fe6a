function topologicalOrder(n, edges) {
  const successors = Array.from({ length: n + 1 }, () => []);
  const inDegree = new Array(n + 1).fill(0);
  for (const [u, v] of edges) {
    successors[u].push(v);
    inDegree[v]++;
  }
  const ready = [];
  for (let task = 1; task <= n; task++) if (inDegree[task] === 0) ready.push(task);
  const order = [];
  for (let head = 0; head < ready.length; head++) {
    const task = ready[head];
    order.push(task);
    for (const after of successors[task]) if (--inDegree[after] === 0) ready.push(after);
  }
  // Tasks left out lie on a cycle: no order exists.
  return order.length === n ? order : [];
}
