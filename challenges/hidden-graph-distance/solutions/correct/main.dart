import 'dart:collection';
import 'dart:io';

Future<void> main() async {
  final n = int.parse(stdin.readLineSync()!.trim());
  if (n == 1) {
    stdout.writeln('! 0');
    await stdout.flush();
    return;
  }
  final distance = List<int>.filled(n + 1, -1);
  final frontier = Queue<int>();
  distance[1] = 0;
  frontier.add(1);
  while (frontier.isNotEmpty) {
    final node = frontier.removeFirst();
    stdout.writeln('? $node');
    // Dart writes stdout asynchronously: without this the question never leaves before the read.
    await stdout.flush();
    final reply = stdin.readLineSync()!.trim().split(' ').map(int.parse).toList();
    for (final neighbour in reply.skip(1)) {
      if (distance[neighbour] >= 0) continue;
      distance[neighbour] = distance[node] + 1;
      if (neighbour == n) {
        stdout.writeln('! ${distance[neighbour]}');
        await stdout.flush();
        return;
      }
      frontier.add(neighbour);
    }
  }
  stdout.writeln('! -1');
  await stdout.flush();
}
