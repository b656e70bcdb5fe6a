import 'dart:io';

// A depth-first search: it finds a path to node n, but not always a shortest one.
Future<void> main() async {
  final n = int.parse(stdin.readLineSync()!.trim());
  final seen = List<bool>.filled(n + 1, false);
  final stack = <List<int>>[
    [1, 0]
  ];
  seen[1] = true;
  while (stack.isNotEmpty) {
    final top = stack.removeLast();
    if (top[0] == n) {
      stdout.writeln('! ${top[1]}');
      await stdout.flush();
      return;
    }
    stdout.writeln('? ${top[0]}');
    await stdout.flush();
    final neighbours = stdin.readLineSync()!.trim().split(' ').map(int.parse).skip(1).toList();
    for (final neighbour in neighbours.reversed) {
      if (seen[neighbour]) continue;
      seen[neighbour] = true;
      stack.add([neighbour, top[1] + 1]);
    }
  }
  stdout.writeln('! -1');
  await stdout.flush();
}
