import 'dart:io';

// Asks every number in turn: right in the end, but far more questions than a binary search.
Future<void> main() async {
  final n = int.parse(stdin.readLineSync()!.trim());
  for (var guess = 1; guess <= n; guess++) {
    stdout.writeln('? $guess');
    await stdout.flush();
    final reply = stdin.readLineSync();
    if (reply == null) return;
    if (reply.trim() == '=') {
      stdout.writeln('! $guess');
      await stdout.flush();
      return;
    }
  }
}
