// attack: make the Dart front end read host files at compile time: import and part of absolute paths
// expect: status in [compile_error]; output lacks "root:"
import 'file:///etc/shadow';
import '/root/.bashrc';

void main() {}
