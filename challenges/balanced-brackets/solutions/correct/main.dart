import 'dart:convert';
import 'dart:io';

const opener = {')': '(', ']': '[', '}': '{'};

bool balanced(String text) {
  final stack = <String>[];
  for (final bracket in text.split('')) {
    if ('([{'.contains(bracket)) {
      stack.add(bracket);
    } else if (stack.isEmpty || stack.removeLast() != opener[bracket]) {
      return false;
    }
  }
  return stack.isEmpty;
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final data = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).toList();
  final count = int.parse(data[0]);
  final answers = data.sublist(1, 1 + count).map((text) => balanced(text) ? 'YES' : 'NO');
  if (answers.isNotEmpty) print(answers.join('\n'));
}
