// attack: thread bomb: threads until creation fails (here std::thread, every thread spinning)
// limits: cpu_ms=2000 wall_ms=5000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20; stdout lacks "threads 10000"
#include <bits/stdc++.h>

int main() {
  std::vector<std::thread> threads;
  try {
    for (int i = 0; i < 10000; i++) threads.emplace_back([] { for (volatile long x = 0;; x++) {} });
  } catch (const std::exception &error) {
    std::printf("stopped: %s\n", error.what());
  }
  std::printf("threads %zu\n", threads.size());
  std::fflush(stdout);
  std::quick_exit(0);
}
