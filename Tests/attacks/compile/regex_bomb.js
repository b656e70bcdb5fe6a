// attack: compile-and-run bombs in V8: catastrophic regex backtracking and new Function of a huge nested source
// limits: cpu_ms=2000 wall_ms=5000
// expect: status in [time_limit, runtime_error, memory_limit]; elapsed_s < 12
try {
  new Function('return ' + '['.repeat(200000) + ']'.repeat(200000));
  console.log('nested compiled');
} catch (error) {
  console.log('nested refused:', error.name);
}
console.log(/^(a+)+$/.test('a'.repeat(40) + 'b'));
