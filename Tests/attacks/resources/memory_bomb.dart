// attack: grow the Dart heap without end
// limits: memory_mb=128
// expect: status in [memory_limit]; elapsed_s < 15
import 'dart:typed_data';

void main() {
  final held = <Uint8List>[];
  while (true) {
    held.add(Uint8List(8 << 20)..fillRange(0, 8 << 20, 1));
  }
}
