#include <bits/stdc++.h>
#include <dsa/recorder.hpp>

using Ints = std::vector<long long>;

int main() {
  dsa::ListRecorder<long long> linked{1, 2};
  linked.add(3);
  linked.link(1, 2);
  linked.point("curr", 0);
  linked.step("start");
  linked.point("prev", std::nullopt);
  linked.step("relink", Ints{1});
  linked.remove(0);
  linked.setHead(1);
  linked.step("done");

  dsa::TreeRecorder<long long> tree;
  tree.add(2);
  tree.add(1);
  tree.add(3);
  tree.setLeft(0, 1);
  tree.setRight(0, 2);
  tree.setHeight(0, 2);
  tree.setHeight(1, 1);
  tree.setRange(2, 5, 6);
  tree.setHeight(2, 1);
  tree.step("insert", Ints{2});
  tree.point("curr", 2);
  tree.setValue(2, 4);
  tree.step("search", Ints{2}, Ints{0});
  tree.remove(1);
  tree.setRoot(2);
  tree.step("remove");

  dsa::HeapRecorder<long long> heap{1, 3};
  heap.push(2);
  heap.compare(0, 2);
  heap.swap(0, 2);
  heap.pop();
  heap.step("done");

  dsa::StackRecorder<long long> stack;
  stack.push(4);
  stack.push(7);
  stack.peek();
  stack.pop();
  dsa::StackRecorder<long long> queue("queue");
  queue.enqueue(5);
  queue.enqueue(8);
  queue.dequeue();
  queue.peek();
  dsa::StackRecorder<long long> deque("deque", {1});
  deque.pushBack(2);
  deque.pushFront(3);
  deque.popBack();
  deque.popFront();
  deque.step("rest");

  dsa::HashMapRecorder<std::string, long long> table(2);
  table.step("empty");
  table.start("a", 1);
  table.probe(1);
  table.insert(1, "a", 10);
  table.start("c", 1);
  table.probe(1);
  table.probe(0);
  table.insert(0, "c", 30);
  table.setValue(0, 11);
  table.step("update", Ints{0});
  table.resize(4);
  table.move(1, 3);
  table.step("resize");
  table.remove(0);

  dsa::TableRecorder<long long> grid(2, 3, std::vector<std::string>{"-", "a"}, std::vector<std::string>{"-", "a", "b"});
  for (Ints cell : {Ints{0, 0}, Ints{0, 1}, Ints{0, 2}, Ints{1, 0}}) grid.set(cell, 0);
  grid.step("init");
  grid.fill({1, 1}, 1, {{0, 0}});
  grid.fill({1, 2}, 1, {{1, 1}, {0, 2}});
  dsa::TableRecorder<long long> row(3);
  row.set({0}, 1);
  row.fill({1}, 1, {{0}});
  row.fill({2}, 2, {{0}, {1}});

  dsa::MatchRecorder naive("abab", "ab");
  naive.compare(0, 0);
  naive.compare(0, 1);
  naive.match(0);
  naive.shift(1, 0);
  naive.compare(1, 0);
  dsa::MatchRecorder kmp("aab", "ab");
  kmp.setFailure({0, 0});
  kmp.compare(0, 0);
  kmp.compare(0, 1);
  kmp.shiftByFailure(0);
  kmp.compare(1, 0);
  kmp.compare(1, 1);
  kmp.match(1);
  dsa::MatchRecorder rolling("abc", "bc");
  rolling.hash(0, 195, 197);
  rolling.hash(1, 197, 197);
  rolling.compare(1, 0);
  rolling.step("check");

  dsa::UnionFindRecorder sets(4, true, std::vector<std::string>{"a", "b", "c", "d"});
  sets.unite(0, 1);
  sets.unite(2, 3);
  sets.unite(1, 3);
  sets.find(3);
  sets.unite(0, 2);
  sets.step("done", Ints{0});
  dsa::UnionFindRecorder plain(3, false);
  plain.unite(0, 1);
  plain.unite(1, 2);
  plain.setParent(2, 1);
  plain.step("end");
  dsa::HashMapRecorder<std::string, long long> text(1);
  text.insert(0, "é\"\n", 1);
  dsa::MatchRecorder accented("äb", "b");
  accented.compare(1, 0);
  dsa::ListRecorder<long long> doubly(Ints{1, 2}, true);
  doubly.add(3);
  doubly.link(1, 2);
  doubly.linkPrev(2, 1);
  doubly.setTail(2);
  doubly.step("append", Ints{2});
  doubly.remove(1);
  doubly.step("cut");
  dsa::HashMapRecorder<std::string, long long> tombstones(1);
  tombstones.insert(0, "a", 1);
  tombstones.markDeleted(0);
  tombstones.step("after");
}
