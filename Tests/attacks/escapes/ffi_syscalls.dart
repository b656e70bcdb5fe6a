// attack: call libc's syscall() through dart:ffi from the i386 Dart VM: unshare, mount, ptrace, setuid, chroot, bpf, keyctl, personality
// expect: status in [forbidden]; stdout lacks "SUCCEEDED"; stdout contains "keyctl refused"
import 'dart:ffi';

typedef SyscallNative = Int32 Function(Int32, Int32, Int32, Int32, Int32);
typedef SyscallDart = int Function(int, int, int, int, int);

void main() {
  final libc = DynamicLibrary.process();
  final syscall = libc.lookupFunction<SyscallNative, SyscallDart>('syscall');
  // i386 numbers: this VM is a 32-bit process, so libc traps through the i386 entry point.
  final calls = {
    'unshare(NEWUSER)': [310, 0x10000000, 0, 0, 0],
    'unshare(NEWNS)': [310, 0x00020000, 0, 0, 0],
    'mount': [21, 0, 0, 0, 0],
    'ptrace(ATTACH,1)': [26, 16, 1, 0, 0],
    'chroot': [61, 0, 0, 0, 0],
    'setns': [346, 0, 0, 0, 0],
    'bpf': [357, 0, 0, 0, 0],
    'keyctl': [288, 0, -3, 0, 0],
    // The i386 policy has no setuid32: the kernel kills the VM here (forbidden), after every probe above.
    'setuid32(0)': [213, 0, 0, 0, 0],
  };
  calls.forEach((name, call) {
    final result = syscall(call[0], call[1], call[2], call[3], call[4]);
    print('$name ${result >= 0 ? "SUCCEEDED" : "refused"} $result');
  });
  print('done');
}
