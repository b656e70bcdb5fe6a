const {
  ListRecorder, TreeRecorder, HeapRecorder, StackRecorder, HashMapRecorder, TableRecorder, MatchRecorder,
  UnionFindRecorder,
} = require('dsa');

const linked = new ListRecorder([1, 2]);
linked.add(3);
linked.link(1, 2);
linked.point('curr', 0);
linked.step('start');
linked.point('prev', null);
linked.step('relink', [1]);
linked.remove(0);
linked.setHead(1);
linked.step('done');

const tree = new TreeRecorder();
tree.add(2);
tree.add(1);
tree.add(3);
tree.setLeft(0, 1);
tree.setRight(0, 2);
tree.setHeight(0, 2);
tree.setHeight(1, 1);
tree.setRange(2, 5, 6);
tree.setHeight(2, 1);
tree.step('insert', [2]);
tree.point('curr', 2);
tree.setValue(2, 4);
tree.step('search', [2], [0]);
tree.remove(1);
tree.setRoot(2);
tree.step('remove');

const heap = new HeapRecorder([1, 3]);
heap.push(2);
heap.compare(0, 2);
heap.swap(0, 2);
heap.pop();
heap.step('done');

const stack = new StackRecorder();
stack.push(4);
stack.push(7);
stack.peek();
stack.pop();
const queue = new StackRecorder('queue');
queue.enqueue(5);
queue.enqueue(8);
queue.dequeue();
queue.peek();
const deque = new StackRecorder('deque', [1]);
deque.pushBack(2);
deque.pushFront(3);
deque.popBack();
deque.popFront();
deque.step('rest');

const map = new HashMapRecorder(2);
map.step('empty');
map.start('a', 1);
map.probe(1);
map.insert(1, 'a', 10);
map.start('c', 1);
map.probe(1);
map.probe(0);
map.insert(0, 'c', 30);
map.setValue(0, 11);
map.step('update', [0]);
map.resize(4);
map.move(1, 3);
map.step('resize');
map.remove(0);

const grid = new TableRecorder(2, 3, ['-', 'a'], ['-', 'a', 'b']);
for (const cell of [[0, 0], [0, 1], [0, 2], [1, 0]]) grid.set(cell, 0);
grid.step('init');
grid.fill([1, 1], 1, [[0, 0]]);
grid.fill([1, 2], 1, [[1, 1], [0, 2]]);
const row = new TableRecorder(3);
row.set(0, 1);
row.fill(1, 1, [0]);
row.fill(2, 2, [0, 1]);

const naive = new MatchRecorder('abab', 'ab');
naive.compare(0, 0);
naive.compare(0, 1);
naive.match(0);
naive.shift(1, 0);
naive.compare(1, 0);
const kmp = new MatchRecorder('aab', 'ab');
kmp.setFailure([0, 0]);
kmp.compare(0, 0);
kmp.compare(0, 1);
kmp.shiftByFailure(0);
kmp.compare(1, 0);
kmp.compare(1, 1);
kmp.match(1);
const rolling = new MatchRecorder('abc', 'bc');
rolling.hash(0, 195, 197);
rolling.hash(1, 197, 197);
rolling.compare(1, 0);
rolling.step('check');

const sets = new UnionFindRecorder(4, true, ['a', 'b', 'c', 'd']);
sets.union(0, 1);
sets.union(2, 3);
sets.union(1, 3);
sets.find(3);
sets.union(0, 2);
sets.step('done', [0]);
const plain = new UnionFindRecorder(3, false);
plain.union(0, 1);
plain.union(1, 2);
plain.setParent(2, 1);
plain.step('end');

const text = new HashMapRecorder(1);
text.insert(0, 'é"\n', 1);
const accented = new MatchRecorder('äb', 'b');
accented.compare(1, 0);

const doubly = new ListRecorder([1, 2], true);
doubly.add(3);
doubly.link(1, 2);
doubly.linkPrev(2, 1);
doubly.setTail(2);
doubly.step('append', [2]);
doubly.remove(1);
doubly.step('cut');
const tombstones = new HashMapRecorder(1);
tombstones.insert(0, 'a', 1);
tombstones.markDeleted(0);
tombstones.step('after');
