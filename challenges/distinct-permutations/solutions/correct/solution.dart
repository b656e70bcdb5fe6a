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
    for (var k = 0; k < values.length; k++) {
      // An equal value whose earlier copy is free would start a permutation already made.
      if (used[k] || (k > 0 && values[k] == values[k - 1] && !used[k - 1])) continue;
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
