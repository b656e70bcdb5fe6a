import 'dart:math';

import 'package:dsa/dsa.dart';
import 'driver.dart' show TreeNode;

// Node k (the k-th value inserted) keeps id k; -1 is "no node".
final rec = Recorder<int>();
final value = <int>[], left = <int>[], right = <int>[], height = <int>[];
var root = -1;

int h(int x) => x == -1 ? 0 : height[x];
void update(int x) => height[x] = 1 + max(h(left[x]), h(right[x]));

void record(String action, int active, String caption) {
  final drawn = List.filled(value.length, 0); // the heights in the tree as drawn, whatever is stored yet
  int fill(int x) => x == -1 ? 0 : drawn[x] = 1 + max(fill(left[x]), fill(right[x]));
  fill(root);
  int? id(int x) => x == -1 ? null : x;
  final nodes = [
    for (var k = 0; k < value.length; k++)
      {'id': k, 'value': value[k], 'left': id(left[k]), 'right': id(right[k]), 'height': drawn[k]}
  ];
  rec.step(action, {'root': root, 'nodes': nodes, 'active': [active]}, caption);
}

void rotate(int z, int parent, bool toLeft) {
  // z's child moves up into z's place under parent.
  int y;
  if (toLeft) {
    y = right[z];
    right[z] = left[y];
    left[y] = z;
  } else {
    y = left[z];
    left[z] = right[y];
    right[y] = z;
  }
  update(z);
  update(y);
  if (parent == -1) {
    root = y;
  } else if (left[parent] == z) {
    left[parent] = y;
  } else {
    right[parent] = y;
  }
  record('rotate', z, 'Rotate ${toLeft ? 'left' : 'right'} at ${value[z]}');
}

void insert(int v) {
  final node = value.length;
  value.add(v);
  left.add(-1);
  right.add(-1);
  height.add(1);
  final path = <int>[]; // from the root down to the new node's parent
  if (root == -1) {
    root = node;
  } else {
    for (var current = root; current != -1; current = v < value[current] ? left[current] : right[current]) {
      path.add(current);
    }
    final parent = path.last;
    if (v < value[parent]) {
      left[parent] = node;
    } else {
      right[parent] = node; // ties go right
    }
  }
  record('insert', node, 'Insert $v');
  for (var depth = path.length - 1; depth >= 0; depth--) {
    // Back up the path: heights, then balance.
    final z = path[depth], parent = depth > 0 ? path[depth - 1] : -1;
    update(z);
    final balance = h(left[z]) - h(right[z]);
    if (balance > 1) {
      // Wrong on purpose: no double rotations, so a left-right or right-left case gets one rotation that leaves it unbalanced.
      rotate(z, parent, false);
    } else if (balance < -1) {
      rotate(z, parent, true);
    }
  }
}

TreeNode? toTree(int x) => x == -1 ? null : TreeNode(value[x], toTree(left[x]), toTree(right[x]));

TreeNode? avlInsertAll(List<int> values) {
  // The tree lives in top-level lists, which the tests of one process share: start empty.
  value.clear();
  left.clear();
  right.clear();
  height.clear();
  root = -1;
  for (final v in values) {
    insert(v);
  }
  return toTree(root);
}
