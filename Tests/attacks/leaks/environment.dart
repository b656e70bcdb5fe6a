// attack: read the host's environment through the runtime (here Platform.environment) and /proc/1/environ
// expect: status in [ok]; stdout contains "LANG"; stdout lacks "DSA_ATTACK_HOST_SECRET"; stdout lacks "DSA_RUN_DATA"; stdout lacks "HOME: /root"
import 'dart:io';

void main() {
  print(Platform.environment);
  print('hostname=${Platform.localHostname}');
  try {
    print(File('/proc/1/environ').readAsStringSync().replaceAll('\u0000', ' '));
  } catch (error) {
    print('pid 1 environ: $error');
  }
}
