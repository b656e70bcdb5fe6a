// attack: fork bomb in Node: every process spawns two copies of itself, forever
// limits: cpu_ms=2000 wall_ms=4000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
// survivors: atkbomb-js
const { spawn } = require('child_process');
process.title = 'atkbomb-js';
function again() {
  try {
    const child = spawn(process.execPath, [__filename], { stdio: 'ignore', argv0: 'atkbomb-js' });
    child.on('error', () => setTimeout(again, 1));
    child.on('exit', again);
  } catch (error) {
    setTimeout(again, 1);
  }
}
again();
again();
