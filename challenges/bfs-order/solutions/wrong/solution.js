const { Recorder } = require('dsa');

/**
 * @param {number[][]} graph
 * @param {number} source
 * @return {number[]}
 */
function bfsOrder(graph, source) {
  const neighbours = graph.map((adjacent) => [...adjacent].sort((a, b) => a - b));
  const rec = new Recorder();
  // Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
  const seen = new Array(graph.length).fill(false);
  const queue = [source];
  rec.discover(source);
  const order = [];
  let checks = 0;
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    if (seen[node]) continue;
    seen[node] = true;
    rec.visit(node);
    order.push(node);
    for (const neighbour of neighbours[node]) {
      checks++;
      if (!seen[neighbour]) {
        queue.push(neighbour);
        rec.discover(neighbour);
      }
    }
  }
  console.log(`@count ${checks}`);
  return order;
}
