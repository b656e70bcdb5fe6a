const { Recorder } = require('dsa');

/**
 * @param {number[]} values
 * @return {TreeNode|null}
 */
function avlInsertAll(values) {
  const rec = new Recorder();
  // Node k (the k-th value inserted) keeps id k; -1 is "no node".
  const value = [], left = [], right = [], height = [];
  let root = -1;
  const h = (x) => (x === -1 ? 0 : height[x]);
  const update = (x) => { height[x] = 1 + Math.max(h(left[x]), h(right[x])); };
  const record = (action, active, caption) => {
    const drawn = []; // the heights in the tree as drawn, whatever is stored yet
    const fill = (x) => (x === -1 ? 0 : (drawn[x] = 1 + Math.max(fill(left[x]), fill(right[x]))));
    fill(root);
    const id = (x) => (x === -1 ? null : x);
    const nodes = value.map((v, k) => ({ id: k, value: v, left: id(left[k]), right: id(right[k]), height: drawn[k] }));
    rec.step(action, { root, nodes, active: [active] }, caption);
  };
  const rotate = (z, parent, direction) => { // z's child moves up into z's place under parent
    let y;
    if (direction === 'left') { y = right[z]; right[z] = left[y]; left[y] = z; }
    else { y = left[z]; left[z] = right[y]; right[y] = z; }
    update(z);
    update(y);
    if (parent === -1) root = y;
    else if (left[parent] === z) left[parent] = y;
    else right[parent] = y;
    record('rotate', z, `Rotate ${direction} at ${value[z]}`);
  };
  for (const v of values) {
    const node = value.length;
    value.push(v); left.push(-1); right.push(-1); height.push(1);
    const path = []; // from the root down to the new node's parent
    if (root === -1) root = node;
    else {
      for (let current = root; current !== -1; current = v < value[current] ? left[current] : right[current]) path.push(current);
      const parent = path[path.length - 1];
      if (v < value[parent]) left[parent] = node; else right[parent] = node; // ties go right
    }
    record('insert', node, `Insert ${v}`);
    for (let depth = path.length - 1; depth >= 0; depth--) { // back up the path: heights, then balance
      const z = path[depth], parent = depth > 0 ? path[depth - 1] : -1;
      update(z);
      const balance = h(left[z]) - h(right[z]);
      if (balance > 1) {
        // Wrong on purpose: no double rotations, so a left-right or right-left case gets one rotation that leaves it unbalanced.
        rotate(z, parent, 'right');
      } else if (balance < -1) {
        rotate(z, parent, 'left');
      }
    }
  }
  const toTree = (x) => (x === -1 ? null : new TreeNode(value[x], toTree(left[x]), toTree(right[x])));
  return toTree(root);
}
