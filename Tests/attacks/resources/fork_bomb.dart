// attack: process bomb from Dart: start detached shell bombs as fast as the event loop allows
// limits: cpu_ms=2000 wall_ms=4000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
// survivors: atkbomb-dart
import 'dart:io';

Future<void> main() async {
  while (true) {
    try {
      await Process.start('/bin/sh', ['-c', 'f() { (sleep 30; : atkbomb-dart) & f; }; f'],
          mode: ProcessStartMode.detached);
    } catch (error) {
      await Future.delayed(Duration(milliseconds: 1));
    }
  }
}
