// attack: flood stdout and stderr at once from Node, never yielding to the event loop
// limits: output_kb=64
// expect: status in [output_limit]; elapsed_s < 15
const fs = require('fs');
const line = 'B'.repeat(8191) + '\n';
for (;;) {
  fs.writeSync(1, line);
  fs.writeSync(2, line);
}
