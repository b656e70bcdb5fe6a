// attack: spin 8 worker threads and the main thread
// limits: cpu_ms=2000 wall_ms=10000
// expect: status in [time_limit]; elapsed_s < 9; cpu_ms >= 1500; cpu_ms < 5000
const { Worker } = require('worker_threads');
for (let i = 0; i < 8; i++) new Worker('for (;;) {}', { eval: true });
for (;;) {}
