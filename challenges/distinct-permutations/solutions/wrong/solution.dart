List<List<int>> distinctPermutations(List<int> items) {
  final values = [...items]..sort();
  final used = List<bool>.filled(values.length, false);
  final prefix = <int>[];
  final permutations = <List<int>>[];
  void extend() {
    if (prefix.length == values.length) {
      permutations.add([...prefix]);
      return;
    }
    // Wrong on purpose: every position is tried, so equal values give the same permutation several times.
    for (var k = 0; k < values.length; k++) {
      if (used[k]) continue;
      used[k] = true;
      prefix.add(values[k]);
      extend();
      prefix.removeLast();
      used[k] = false;
    }
  }

  extend();
  return permutations;
}
