// attack: read the host through /proc/1/root, /proc/*/cwd, /proc/*/root and /proc/self/fd from Node
// expect: status in [ok]; stdout contains "done"; stdout lacks "HOST"; stdout lacks "root:*:"
const fs = require('fs');
const hostOnly = ['etc/shadow', 'root', 'home', 'var', 'sys/kernel', 'run', 'etc/machine-id', 'boot'];
function probe(base) {
  for (const name of hostOnly) {
    try { fs.lstatSync(`${base}/${name}`); console.log('HOST', `${base}/${name}`); } catch (e) {}
  }
  try { console.log('HOST shadow', fs.readFileSync(`${base}/etc/shadow`, 'utf8')); } catch (e) {}
}
probe('/proc/1/root');
for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
  for (const link of ['root', 'cwd']) {
    probe(`/proc/${pid}/${link}`);
    probe(`/proc/${pid}/${link}/../../../..`);
  }
}
for (const fd of fs.readdirSync('/proc/self/fd')) {
  let target = '';
  try { target = fs.readlinkSync(`/proc/self/fd/${fd}`); } catch (e) { continue; }
  if (target.startsWith('/') && !target.startsWith('/proc/') && !target.startsWith('/dev/') &&
      !target.startsWith('/opt/dsa-run/') && !target.startsWith('/usr/') && !target.startsWith('/box/')) {
    console.log('HOST fd', fd, target);
  }
}
console.log('done');
