// attack: await a future that never completes, past the wall limit
// limits: wall_ms=2000
// expect: status in [time_limit]; elapsed_s < 8
import 'dart:async';

Future<void> main() async {
  await Future.delayed(Duration(hours: 1));
}
