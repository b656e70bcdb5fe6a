List<int> rangeSums(List<int> nums, List<List<int>> queries) {
  final n = nums.length;
  final values = [...nums]; // the current values, to know each update's change
  final tree = List<int>.filled(n + 1, 0); // Fenwick tree: tree[i] sums values[i - (i & -i) .. i - 1]
  void add(int i, int delta) {
    for (i++; i <= n; i += i & -i) {
      tree[i] += delta;
    }
  }

  int prefix(int i) {
    // values[0] + ... + values[i - 1]
    var total = 0;
    for (; i > 0; i -= i & -i) {
      total += tree[i];
    }
    return total;
  }

  for (var i = 0; i < n; i++) {
    add(i, values[i]);
  }
  final answers = <int>[];
  for (final q in queries) {
    if (q[0] == 0) {
      add(q[1], q[2]); // Wrong on purpose: adds v instead of the change v - nums[i], so an update adds to the old value instead of replacing it.
      values[q[1]] = q[2];
    } else {
      answers.add(prefix(q[2] + 1) - prefix(q[1]));
    }
  }
  return answers;
}
