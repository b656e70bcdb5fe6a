bool isBalanced(String s) {
  const opener = {')': '(', ']': '[', '}': '{'};
  final stack = <String>[];
  for (final bracket in s.split('')) {
    if ('([{'.contains(bracket)) {
      stack.add(bracket);
    } else if (stack.isEmpty || stack.removeLast() != opener[bracket]) {
      return false;
    }
  }
  return stack.isEmpty;
}
