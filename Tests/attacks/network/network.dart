// attack: from Dart: Socket.connect to the host listener and the daemon, an HttpClient request, DNS lookup, a Unix socket to the daemon
// expect: status in [ok]; stdout lacks "CONNECTED"; stdout lacks "RESOLVED"; stdout contains "done"
import 'dart:io';

Future<void> attempt(String name, Future<String> Function() action) async {
  try {
    print('$name ${await action().timeout(Duration(seconds: 3))}');
  } catch (error) {
    print('$name refused: $error');
  }
}

Future<void> main() async {
  await attempt('tcp host listener', () async => (await Socket.connect('127.0.0.1', @HOST_TCP_PORT@)) != null ? 'CONNECTED' : '');
  await attempt('tcp daemon', () async => (await Socket.connect('127.0.0.1', @DAEMON_PORT@)) != null ? 'CONNECTED' : '');
  await attempt('dns', () async => 'RESOLVED ${await InternetAddress.lookup('example.com')}');
  await attempt('unix daemon socket', () async {
    await Socket.connect(InternetAddress('@DAEMON_SOCKET@', type: InternetAddressType.unix), 0);
    return 'CONNECTED';
  });
  await attempt('http daemon', () async {
    final request = await HttpClient().getUrl(Uri.parse('http://127.0.0.1:@DAEMON_PORT@/healthz'));
    return 'CONNECTED ${(await request.close()).statusCode}';
  });
  print('done');
}
