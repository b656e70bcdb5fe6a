// attack: use Dart's Process.run to start a root shell, read /etc/shadow, unshare and reach the daemon with curl
// expect: status in [ok]; stdout contains "uid=1000"; stdout lacks "uid=0("; stdout lacks "SUCCEEDED"; stdout contains "done"
import 'dart:io';

Future<void> attempt(String name, String executable, List<String> arguments) async {
  try {
    final result = await Process.run(executable, arguments).timeout(Duration(seconds: 4));
    final output = '${result.stdout}${result.stderr}'.trim();
    print('$name: ${result.exitCode == 0 ? "SUCCEEDED" : "refused"} ${result.exitCode} '
        '${output.length > 100 ? output.substring(0, 100) : output}');
  } catch (error) {
    print('$name: refused $error');
  }
}

Future<void> main() async {
  print((await Process.run('/usr/bin/id', [])).stdout.toString().trim());
  await attempt('read shadow', '/bin/cat', ['/etc/shadow']);
  await attempt('su', '/usr/bin/su', ['-c', 'id', 'root']);
  await attempt('unshare', '/usr/bin/unshare', ['-r', '/usr/bin/id']);
  await attempt('curl daemon', '/usr/bin/curl', ['-sS', '-m', '2', 'http://127.0.0.1:@DAEMON_PORT@/healthz']);
  await attempt('kill init', '/bin/kill', ['-9', '1']);
  print('done');
}
