// attack: flood stdout without end (here from Dart synchronously, never awaiting the stream)
// limits: output_kb=64
// expect: status in [output_limit]; stdout_truncated == true; elapsed_s < 15
import 'dart:io';

void main() {
  final line = 'D' * 4095;
  while (true) {
    stdout.writeln(line);
  }
}
