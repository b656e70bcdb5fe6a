// attack: fill /tmp, /box (and /dev/shm) with one large file each until writes fail (here from Node)
// expect: status in [ok]; stdout matches "/tmp stopped at [0-9]{1,2} MiB"; stdout matches "/box stopped at [0-9]{1,2} MiB"
const fs = require('fs');
const block = Buffer.alloc(1 << 20, 120);
process.on('SIGXFSZ', () => {});
for (const directory of ['/tmp', '/box']) {
  let written = 0;
  const fd = fs.openSync(`${directory}/fill`, 'w');
  try {
    for (;;) {
      fs.writeSync(fd, block);
      written += block.length;
      if (written >= 4 * 2 ** 30) break;
    }
  } catch (error) {
    console.log(directory, 'stopped at', written >> 20, 'MiB:', error.code);
  }
}
