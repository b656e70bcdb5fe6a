import 'package:dsa/dsa.dart';

const empty = -1;

List<int> insertAll(int capacity, List<int> keys) {
  final rec = Recorder<int>();
  final table = List<int>.filled(capacity, empty);
  final ids = List<int>.filled(capacity, 0); // the id of the entry in each bucket: its insertion order
  var nextId = 0;
  void record(String action, int key, int home, List<int> probe, String caption) {
    final buckets = [
      for (var b = 0; b < capacity; b++)
        table[b] == empty
            ? <Object?>[]
            : <Object?>[
                {'id': ids[b], 'key': table[b], 'value': null}
              ]
    ];
    rec.step(action, {'buckets': buckets, 'key': key, 'hash': home, 'probe': probe}, caption);
  }

  for (final key in keys) {
    final home = key % capacity;
    final probe = <int>[];
    for (var bucket = home;; bucket = (bucket + 1) % capacity) {
      probe.add(bucket);
      if (table[bucket] == key) {
        record('find', key, home, probe, '$key is already in bucket $bucket');
        break;
      }
      if (table[bucket] == empty) {
        table[bucket] = key;
        ids[bucket] = nextId++;
        record('insert', key, home, probe, 'Insert $key in bucket $bucket (its hash is $home)');
        break;
      }
    }
  }
  return table;
}
