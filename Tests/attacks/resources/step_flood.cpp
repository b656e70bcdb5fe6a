// attack: 4 MiB of malformed @step lines after three good ones, so parsing the steps costs the daemon a JSON decode per line after the box slot is free
// limits: output_kb=4096
// expect: status == ok; stdout_truncated == false; steps == 3; elapsed_s < 30
// expect: steps_message contains "Stopped reading steps at line 10001: the output has more than 10000 step lines"
#include <cstdio>

int main() {
  for (int i = 0; i < 3; i++) std::printf("@step {\"i\": %d}\n", i);
  for (int i = 0; i < ((4 << 20) - 100) / 13; i++) std::fputs("@step {\"i\": \n", stdout);
}
