const { Recorder } = require('dsa');

const EMPTY = -1;

/**
 * @param {number} capacity
 * @param {number[]} keys
 * @return {number[]}
 */
function insertAll(capacity, keys) {
  const rec = new Recorder();
  const size = Number(capacity);
  const table = new Array(size).fill(EMPTY);
  const ids = new Array(size).fill(null); // the id of the entry in each bucket: its insertion order
  let nextId = 0;
  const buckets = () => table.map((key, b) => (key === EMPTY ? [] : [{ id: ids[b], key, value: null }]));
  for (const key of keys) {
    // A key beyond 2^53 arrives as a BigInt, and % cannot mix a BigInt with a number.
    const home = Number(BigInt(key) % BigInt(size));
    const probe = [];
    for (let bucket = home; ; bucket = (bucket + 1) % size) {
      probe.push(bucket);
      if (table[bucket] === key) {
        rec.step('find', { buckets: buckets(), key, hash: home, probe }, `${key} is already in bucket ${bucket}`);
        break;
      }
      if (table[bucket] === EMPTY) {
        table[bucket] = key;
        ids[bucket] = nextId++;
        rec.step('insert', { buckets: buckets(), key, hash: home, probe },
          `Insert ${key} in bucket ${bucket} (its hash is ${home})`);
        break;
      }
    }
  }
  return table;
}
