// attack: find the daemon's config, token and socket: config paths, every process's command line, a connection to its Unix socket (here from Node)
// expect: status in [ok]; stdout lacks "bearer"; stdout lacks "FOUND"; stdout contains "done"
const fs = require('fs');
const net = require('net');
for (const path of ['/etc/dsa-run/dsa-rund.json', '/run/dsa-run', '/var/cache/dsa-run', '@DAEMON_SOCKET@']) {
  if (fs.existsSync(path)) console.log('FOUND', path);
}
for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
  try {
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    if (command.includes('dsa-rund') || command.includes('--config')) console.log('FOUND', pid, command);
  } catch (e) {}
}
const socket = net.connect('@DAEMON_SOCKET@');
socket.on('connect', () => {
  console.log('FOUND a connection to the daemon socket');
  socket.end('GET /v1/runtimes HTTP/1.1\r\nHost: x\r\n\r\n');
});
socket.on('data', (data) => console.log('FOUND', data.toString().slice(0, 200)));
socket.on('error', (error) => {
  console.log('daemon socket refused:', error.code);
  console.log('done');
});
