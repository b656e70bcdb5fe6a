// attack: use Node's child_process to run a shell as root, read /etc/shadow, nest a sandbox (unshare) and reach the network with curl
// expect: status in [ok]; stdout contains "uid=1000"; stdout lacks "uid=0("; stdout lacks "SUCCEEDED"; stdout contains "done"
const { execFileSync, spawnSync } = require('child_process');
function attempt(name, argv) {
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', timeout: 4000 });
  const output = `${result.stdout || ''}${result.stderr || ''}`.trim().slice(0, 120);
  console.log(`${name}: ${result.status === 0 ? 'SUCCEEDED' : 'refused'} ${result.error ? result.error.code : ''} ${output}`);
}
console.log(execFileSync('/usr/bin/id', { encoding: 'utf8' }).trim());
attempt('read shadow', ['/bin/cat', '/etc/shadow']);
attempt('su', ['/usr/bin/su', '-c', 'id', 'root']);
attempt('unshare', ['/usr/bin/unshare', '-r', '/usr/bin/id']);
attempt('mount', ['/usr/bin/mount', '-t', 'tmpfs', 'x', '/tmp']);
attempt('curl', ['/usr/bin/curl', '-sS', '-m', '2', 'http://127.0.0.1:@DAEMON_PORT@/healthz']);
attempt('kill init', ['/bin/kill', '-9', '1']);
console.log('done');
