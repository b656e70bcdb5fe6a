// attack: isolate bomb in Dart: spawn spinning isolates (each with its own VM thread) until spawning fails
// limits: cpu_ms=2000 wall_ms=5000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
import 'dart:isolate';

void spin(int _) {
  var x = 0;
  while (true) {
    x++;
  }
}

Future<void> main() async {
  var started = 0;
  try {
    for (; started < 2000; started++) {
      await Isolate.spawn(spin, started);
    }
  } catch (error) {
    print('stopped: $error');
  }
  print('isolates $started');
}
