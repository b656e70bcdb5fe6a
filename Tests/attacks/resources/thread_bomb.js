// attack: thread bomb in Node: worker_threads that each spin, until workers cannot start
// limits: cpu_ms=2000 wall_ms=5000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
const { Worker } = require('worker_threads');
let started = 0;
for (let i = 0; i < 1000; i++) {
  try {
    new Worker('for (;;) {}', { eval: true }).on('error', (error) => console.log('worker failed', error.message));
    started++;
  } catch (error) {
    console.log('stopped:', error.message);
    break;
  }
}
console.log('workers', started);
