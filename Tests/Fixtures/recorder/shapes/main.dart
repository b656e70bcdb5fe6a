import 'package:dsa/dsa.dart';

void main() {
  final linked = ListRecorder([1, 2]);
  linked.add(3);
  linked.link(1, 2);
  linked.point('curr', 0);
  linked.step('start');
  linked.point('prev', null);
  linked.step('relink', active: [1]);
  linked.remove(0);
  linked.setHead(1);
  linked.step('done');

  final tree = TreeRecorder();
  tree.add(2);
  tree.add(1);
  tree.add(3);
  tree.setLeft(0, 1);
  tree.setRight(0, 2);
  tree.setHeight(0, 2);
  tree.setHeight(1, 1);
  tree.setRange(2, 5, 6);
  tree.setHeight(2, 1);
  tree.step('insert', active: [2]);
  tree.point('curr', 2);
  tree.setValue(2, 4);
  tree.step('search', active: [2], visited: [0]);
  tree.remove(1);
  tree.setRoot(2);
  tree.step('remove');

  final heap = HeapRecorder([1, 3]);
  heap.push(2);
  heap.compare(0, 2);
  heap.swap(0, 2);
  heap.pop();
  heap.step('done');

  final stack = StackRecorder();
  stack.push(4);
  stack.push(7);
  stack.peek();
  stack.pop();
  final queue = StackRecorder('queue');
  queue.enqueue(5);
  queue.enqueue(8);
  queue.dequeue();
  queue.peek();
  final deque = StackRecorder('deque', [1]);
  deque.pushBack(2);
  deque.pushFront(3);
  deque.popBack();
  deque.popFront();
  deque.step('rest');

  final table = HashMapRecorder(2);
  table.step('empty');
  table.start('a', 1);
  table.probe(1);
  table.insert(1, 'a', 10);
  table.start('c', 1);
  table.probe(1);
  table.probe(0);
  table.insert(0, 'c', 30);
  table.setValue(0, 11);
  table.step('update', active: [0]);
  table.resize(4);
  table.move(1, 3);
  table.step('resize');
  table.remove(0);

  final grid = TableRecorder(2, 3, ['-', 'a'], ['-', 'a', 'b']);
  for (final cell in [
    [0, 0],
    [0, 1],
    [0, 2],
    [1, 0]
  ]) {
    grid.set(cell, 0);
  }
  grid.step('init');
  grid.fill([1, 1], 1, [
    [0, 0]
  ]);
  grid.fill([1, 2], 1, [
    [1, 1],
    [0, 2]
  ]);
  final row = TableRecorder(3);
  row.set([0], 1);
  row.fill([1], 1, [
    [0]
  ]);
  row.fill([2], 2, [
    [0],
    [1]
  ]);

  final naive = MatchRecorder('abab', 'ab');
  naive.compare(0, 0);
  naive.compare(0, 1);
  naive.match(0);
  naive.shift(1, 0);
  naive.compare(1, 0);
  final kmp = MatchRecorder('aab', 'ab');
  kmp.setFailure([0, 0]);
  kmp.compare(0, 0);
  kmp.compare(0, 1);
  kmp.shiftByFailure(0);
  kmp.compare(1, 0);
  kmp.compare(1, 1);
  kmp.match(1);
  final rolling = MatchRecorder('abc', 'bc');
  rolling.hash(0, 195, 197);
  rolling.hash(1, 197, 197);
  rolling.compare(1, 0);
  rolling.step('check');

  final sets = UnionFindRecorder(4, labels: ['a', 'b', 'c', 'd']);
  sets.union(0, 1);
  sets.union(2, 3);
  sets.union(1, 3);
  sets.find(3);
  sets.union(0, 2);
  sets.step('done', active: [0]);
  final plain = UnionFindRecorder(3, byRank: false);
  plain.union(0, 1);
  plain.union(1, 2);
  plain.setParent(2, 1);
  plain.step('end');
  final text = HashMapRecorder(1);
  text.insert(0, 'é"\n', 1);
  final accented = MatchRecorder('äb', 'b');
  accented.compare(1, 0);
  final doubly = ListRecorder([1, 2], true);
  doubly.add(3);
  doubly.link(1, 2);
  doubly.linkPrev(2, 1);
  doubly.setTail(2);
  doubly.step('append', active: [2]);
  doubly.remove(1);
  doubly.step('cut');
  final tombstones = HashMapRecorder(1);
  tombstones.insert(0, 'a', 1);
  tombstones.markDeleted(0);
  tombstones.step('after');
}
