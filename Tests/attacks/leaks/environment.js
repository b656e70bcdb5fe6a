// attack: read the host's environment from Node: process.env and /proc/*/environ
// expect: status in [ok]; stdout contains "LANG"; stdout lacks "DSA_ATTACK_HOST_SECRET"; stdout lacks "DSA_RUN_DATA"; stdout lacks "HOME=/root"
const fs = require('fs');
console.log(JSON.stringify(process.env));
for (const pid of ['self', '1']) {
  try { console.log(pid, fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').join(' ')); } catch (e) { console.log(pid, e.code); }
}
