const { Recorder } = require('dsa');

/**
 * @param {number[][]} graph
 * @param {number} source
 * @return {number[]}
 */
function bfsOrder(graph, source) {
  const neighbours = graph.map((adjacent) => [...adjacent].sort((a, b) => a - b));
  const rec = new Recorder();
  const seen = new Array(graph.length).fill(false);
  seen[source] = true;
  const queue = [source];
  rec.discover(source);
  // Every neighbour looked at is counted, for the growth grade (@count).
  let checks = 0;
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    rec.visit(node);
    for (const neighbour of neighbours[node]) {
      checks++;
      if (!seen[neighbour]) {
        seen[neighbour] = true;
        queue.push(neighbour);
        rec.discover(neighbour);
      }
    }
  }
  console.log(`@count ${checks}`);
  return queue;
}
