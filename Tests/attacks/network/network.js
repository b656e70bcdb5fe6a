// attack: from Node: TCP to the host listener and the daemon, UDP, DNS lookups, fetch() of the daemon, a Unix connect to its socket
// expect: status in [ok]; stdout lacks "CONNECTED"; stdout lacks "SENT"; stdout lacks "RESOLVED"; stdout contains "done"
const net = require('net');
const dgram = require('dgram');
const dns = require('dns');

function attempt(name, start) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { console.log(name, 'timed out'); resolve(); }, 3000);
    const finish = (message) => { clearTimeout(timer); console.log(name, message); resolve(); };
    try { start(finish); } catch (error) { finish(`refused: ${error.code || error.message}`); }
  });
}

function tcp(options) {
  return (finish) => {
    const socket = net.connect(options, () => { finish('CONNECTED'); socket.destroy(); });
    socket.on('error', (error) => finish(`refused: ${error.code}`));
  };
}

(async () => {
  await attempt('tcp host listener', tcp({ host: '127.0.0.1', port: @HOST_TCP_PORT@ }));
  await attempt('tcp daemon', tcp({ host: '127.0.0.1', port: @DAEMON_PORT@ }));
  await attempt('tcp internet', tcp({ host: '1.1.1.1', port: 443 }));
  await attempt('unix daemon socket', tcp({ path: '@DAEMON_SOCKET@' }));
  await attempt('unix host socket', tcp({ path: '@HOST_UNIX_SOCKET@' }));
  await attempt('udp', (finish) => {
    const socket = dgram.createSocket('udp4');
    socket.on('error', (error) => finish(`refused: ${error.code}`));
    socket.send('box was here', @HOST_UDP_PORT@, '127.0.0.1', (error) => finish(error ? `refused: ${error.code}` : 'SENT'));
  });
  await attempt('dns lookup', (finish) => dns.lookup('example.com', (error, address) => finish(error ? `refused: ${error.code}` : `RESOLVED ${address}`)));
  await attempt('dns resolve', (finish) => dns.resolve4('example.com', (error, addresses) => finish(error ? `refused: ${error.code}` : `RESOLVED ${addresses}`)));
  await attempt('fetch daemon', (finish) => {
    fetch('http://127.0.0.1:@DAEMON_PORT@/v1/runtimes').then((response) => finish(`CONNECTED ${response.status}`), (error) => finish(`refused: ${error.cause ? error.cause.code : error.message}`));
  });
  console.log('done');
})();
