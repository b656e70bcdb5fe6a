// attack: spin many threads or processes at once, so the box's CPU time runs out faster than the wall clock (here 32 threads)
// limits: cpu_ms=2000 wall_ms=10000
// expect: status in [time_limit]; elapsed_s < 9; cpu_ms >= 1500; cpu_ms < 5000
#include <bits/stdc++.h>

int main() {
  std::vector<std::thread> threads;
  for (int i = 0; i < 32; i++) threads.emplace_back([] { for (volatile unsigned long x = 0;; x++) {} });
  for (auto &thread : threads) thread.join();
}
