// attack: 4 MiB of malformed @step lines after three good ones, so parsing the steps costs the daemon a JSON decode per line after the box slot is free
// limits: output_kb=4096
// expect: status == ok; stdout_truncated == false; steps == 3; elapsed_s < 30
// expect: steps_message contains "Stopped reading steps at line 10001: the output has more than 10000 step lines"
const fs = require('fs');
for (let i = 0; i < 3; i++) fs.writeSync(1, `@step {"i": ${i}}\n`);
const chunk = '@step {"i": \n'.repeat(1 << 14);
for (let written = 0; written + chunk.length <= 4 << 20; written += chunk.length) fs.writeSync(1, chunk);
