// attack: outlive the box from Node: spawn({detached: true}) and unref(), then exit at once
// expect: status in [ok]; stdout contains "alive in box"
// survivors: atksv-js
const { spawn } = require('child_process');
const fs = require('fs');
const child = spawn('/bin/sh', ['-c', "trap '' TERM HUP; sleep 60; : atksv-js"], { detached: true, stdio: 'ignore' });
child.unref();
setTimeout(() => {
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('atksv-js')) console.log('alive in box as pid', pid);
    } catch (error) {}
  }
}, 300);
