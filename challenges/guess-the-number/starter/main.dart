import 'dart:io';

Future<void> main() async {
  final n = int.parse(stdin.readLineSync()!.trim());
  // Ask with stdout.writeln(...) and await stdout.flush() (Dart writes stdout asynchronously),
  // then read a reply: "<", ">" or "=" with stdin.readLineSync().
  stdout.writeln('! 1');
  await stdout.flush();
}
