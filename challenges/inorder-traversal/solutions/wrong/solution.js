const { Recorder } = require('dsa');

/**
 * @param {TreeNode|null} root
 * @return {number[]}
 */
function inorder(root) {
  const rec = new Recorder();
  // Ids in level order (root 0, then each level left to right), as the test's array lists them.
  const ids = new Map();
  const order = [];
  const queue = root ? [root] : [];
  while (queue.length > 0) {
    const node = queue.shift();
    ids.set(node, order.length);
    order.push(node);
    for (const child of [node.left, node.right]) if (child) queue.push(child);
  }
  const idOf = (node) => (node ? ids.get(node) : null);
  const nodes = order.map((node, id) => ({ id, value: node.val, left: idOf(node.left), right: idOf(node.right) }));
  const rootId = idOf(root);
  const visited = [];
  const values = [];
  const walk = (node) => {
    if (!node) return;
    // Wrong on purpose: the node is visited before its left subtree (pre-order).
    visited.push(ids.get(node));
    values.push(node.val);
    rec.step('visit', { root: rootId, nodes, active: [ids.get(node)], visited: [...visited] }, `Visit ${node.val}`);
    walk(node.left);
    walk(node.right);
  };
  walk(root);
  rec.step('done', { root: rootId, nodes, active: [], visited }, 'Every node visited');
  return values;
}
