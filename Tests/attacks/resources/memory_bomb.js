// attack: grow the V8 heap and off-heap buffers without end
// limits: memory_mb=128
// expect: status in [memory_limit]; elapsed_s < 15
const held = [];
for (;;) {
  held.push(new Array(1 << 20).fill(held.length));
  held.push(Buffer.alloc(8 << 20, 1));
}
