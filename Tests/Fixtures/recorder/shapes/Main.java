import dsa.HashMapRecorder;
import dsa.HeapRecorder;
import dsa.ListRecorder;
import dsa.MatchRecorder;
import dsa.StackRecorder;
import dsa.TableRecorder;
import dsa.TreeRecorder;
import dsa.UnionFindRecorder;

public class Main {
    public static void main(String[] args) {
        ListRecorder linked = new ListRecorder(new int[] {1, 2});
        linked.add(3);
        linked.link(1, 2);
        linked.point("curr", 0);
        linked.step("start");
        linked.point("prev", null);
        linked.step("relink", new int[] {1});
        linked.remove(0);
        linked.setHead(1);
        linked.step("done");

        TreeRecorder tree = new TreeRecorder();
        tree.add(2);
        tree.add(1);
        tree.add(3);
        tree.setLeft(0, 1);
        tree.setRight(0, 2);
        tree.setHeight(0, 2);
        tree.setHeight(1, 1);
        tree.setRange(2, 5, 6);
        tree.setHeight(2, 1);
        tree.step("insert", new int[] {2});
        tree.point("curr", 2);
        tree.setValue(2, 4);
        tree.step("search", new int[] {2}, new int[] {0});
        tree.remove(1);
        tree.setRoot(2);
        tree.step("remove");

        HeapRecorder heap = new HeapRecorder(new int[] {1, 3});
        heap.push(2);
        heap.compare(0, 2);
        heap.swap(0, 2);
        heap.pop();
        heap.step("done");

        StackRecorder stack = new StackRecorder();
        stack.push(4);
        stack.push(7);
        stack.peek();
        stack.pop();
        StackRecorder queue = new StackRecorder("queue");
        queue.enqueue(5);
        queue.enqueue(8);
        queue.dequeue();
        queue.peek();
        StackRecorder deque = new StackRecorder("deque", new int[] {1});
        deque.pushBack(2);
        deque.pushFront(3);
        deque.popBack();
        deque.popFront();
        deque.step("rest");

        HashMapRecorder table = new HashMapRecorder(2);
        table.step("empty");
        table.start("a", 1);
        table.probe(1);
        table.insert(1, "a", 10);
        table.start("c", 1);
        table.probe(1);
        table.probe(0);
        table.insert(0, "c", 30);
        table.setValue(0, 11);
        table.step("update", new int[] {0});
        table.resize(4);
        table.move(1, 3);
        table.step("resize");
        table.remove(0);

        TableRecorder grid = new TableRecorder(2, 3, new String[] {"-", "a"}, new String[] {"-", "a", "b"});
        for (int[] cell : new int[][] {{0, 0}, {0, 1}, {0, 2}, {1, 0}}) grid.set(cell[0], cell[1], 0);
        grid.step("init");
        grid.fill(1, 1, 1, new int[][] {{0, 0}});
        grid.fill(1, 2, 1, new int[][] {{1, 1}, {0, 2}});
        TableRecorder row = new TableRecorder(3);
        row.set(0, 1);
        row.fill(1, 1, new int[] {0});
        row.fill(2, 2, new int[] {0, 1});

        MatchRecorder naive = new MatchRecorder("abab", "ab");
        naive.compare(0, 0);
        naive.compare(0, 1);
        naive.match(0);
        naive.shift(1, 0);
        naive.compare(1, 0);
        MatchRecorder kmp = new MatchRecorder("aab", "ab");
        kmp.setFailure(new int[] {0, 0});
        kmp.compare(0, 0);
        kmp.compare(0, 1);
        kmp.shiftByFailure(0);
        kmp.compare(1, 0);
        kmp.compare(1, 1);
        kmp.match(1);
        MatchRecorder rolling = new MatchRecorder("abc", "bc");
        rolling.hash(0, 195, 197);
        rolling.hash(1, 197, 197);
        rolling.compare(1, 0);
        rolling.step("check");

        UnionFindRecorder sets = new UnionFindRecorder(4, true, new String[] {"a", "b", "c", "d"});
        sets.union(0, 1);
        sets.union(2, 3);
        sets.union(1, 3);
        sets.find(3);
        sets.union(0, 2);
        sets.step("done", new int[] {0});
        UnionFindRecorder plain = new UnionFindRecorder(3, false);
        plain.union(0, 1);
        plain.union(1, 2);
        plain.setParent(2, 1);
        plain.step("end");
        HashMapRecorder text = new HashMapRecorder(1);
        text.insert(0, "é\"\n", 1);
        MatchRecorder accented = new MatchRecorder("äb", "b");
        accented.compare(1, 0);
    }
}
