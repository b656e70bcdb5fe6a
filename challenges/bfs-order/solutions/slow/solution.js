const { Recorder } = require('dsa');

/**
 * @param {number[][]} graph
 * @param {number} source
 * @return {number[]}
 */
function bfsOrder(graph, source) {
  const neighbourSets = graph.map((adjacent) => new Set(adjacent));
  const rec = new Recorder();
  const seen = new Array(graph.length).fill(false);
  seen[source] = true;
  const queue = [source];
  rec.discover(source);
  let checks = 0;
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    rec.visit(node);
    // Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
    for (let neighbour = 0; neighbour < graph.length; neighbour++) {
      checks++;
      if (neighbourSets[node].has(neighbour) && !seen[neighbour]) {
        seen[neighbour] = true;
        queue.push(neighbour);
        rec.discover(neighbour);
      }
    }
  }
  console.log(`@count ${checks}`);
  return queue;
}
