int lisLength(List<int> items) {
  final tails = <int>[]; // tails[n]: the smallest last item of an increasing run of length n + 1
  for (final item in items) {
    var low = 0;
    var high = tails.length; // the first tail >= item
    while (low < high) {
      final mid = (low + high) >> 1;
      if (tails[mid] <= item) { // wrong: an equal item extends a run
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    if (low == tails.length) {
      tails.add(item);
    } else {
      tails[low] = item;
    }
  }
  return tails.length;
}
