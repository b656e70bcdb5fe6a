// attack: outlive the box with the runtime's own detached-process API (here Dart's ProcessStartMode.detached)
// expect: status in [ok]; stdout contains "alive in box"
// survivors: atksv-dart
import 'dart:io';

Future<void> main() async {
  await Process.start('/bin/sh', ['-c', "trap '' TERM HUP; sleep 60; : atksv-dart"], mode: ProcessStartMode.detached);
  await Future.delayed(Duration(milliseconds: 300));
  for (final entry in Directory('/proc').listSync()) {
    final name = entry.path.split('/').last;
    if (int.tryParse(name) == null) continue;
    try {
      if (File('/proc/$name/cmdline').readAsStringSync().contains('atksv-dart')) print('alive in box as pid $name');
    } catch (_) {}
  }
  exit(0);
}
