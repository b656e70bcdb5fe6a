import 'dart:convert';
import 'dart:io';

const opener = {')': '(', ']': '[', '}': '{'};

bool balanced(String text) {
  // Mistake: one counter per kind checks the numbers of brackets but not how they nest.
  final openCount = {'(': 0, '[': 0, '{': 0};
  for (final bracket in text.split('')) {
    if (openCount.containsKey(bracket)) {
      openCount[bracket] = openCount[bracket]! + 1;
    } else {
      final kind = opener[bracket]!;
      openCount[kind] = openCount[kind]! - 1;
      if (openCount[kind]! < 0) return false;
    }
  }
  return openCount.values.every((open) => open == 0);
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).toList();
  final count = int.parse(data[0]);
  final answers = data.sublist(1, 1 + count).map((text) => balanced(text) ? 'YES' : 'NO');
  if (answers.isNotEmpty) print(answers.join('\n'));
}
