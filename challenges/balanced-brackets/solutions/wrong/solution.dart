// Wrong on purpose: one counter per kind checks how many brackets there are, not how they nest.
bool isBalanced(String s) {
  const opener = {')': '(', ']': '[', '}': '{'};
  final openCount = {'(': 0, '[': 0, '{': 0};
  for (final bracket in s.split('')) {
    if (openCount.containsKey(bracket)) {
      openCount[bracket] = openCount[bracket]! + 1;
    } else {
      final kind = opener[bracket]!;
      openCount[kind] = openCount[kind]! - 1;
      if (openCount[kind]! < 0) return false;
    }
  }
  return openCount.values.every((count) => count == 0);
}
