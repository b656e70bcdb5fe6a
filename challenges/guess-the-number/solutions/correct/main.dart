import 'dart:io';

Future<void> main() async {
  final n = int.parse(stdin.readLineSync()!.trim());
  var low = 1, high = n;
  while (low < high) {
    final middle = low + (high - low) ~/ 2;
    stdout.writeln('? $middle');
    // Dart writes stdout asynchronously: without this the question never leaves before the read.
    await stdout.flush();
    final reply = stdin.readLineSync()!.trim();
    if (reply == '=') {
      low = middle;
      high = middle;
    } else if (reply == '<') {
      high = middle - 1;
    } else {
      low = middle + 1;
    }
  }
  stdout.writeln('! $low');
  await stdout.flush();
}
