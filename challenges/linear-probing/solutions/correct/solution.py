from dsa import Recorder

EMPTY = -1


def insert_all(capacity: int, keys: list[int]) -> list[int]:
    rec = Recorder()
    table = [EMPTY] * capacity
    ids = [None] * capacity  # the id of the entry in each bucket: the order it was inserted in
    next_id = 0

    def buckets():
        return [[] if table[b] == EMPTY else [{"id": ids[b], "key": table[b], "value": None}]
                for b in range(capacity)]

    for key in keys:
        home = key % capacity
        probe = []
        bucket = home
        while True:
            probe.append(bucket)
            if table[bucket] == key:
                rec.step("find", {"buckets": buckets(), "key": key, "hash": home, "probe": probe},
                         caption=f"{key} is already in bucket {bucket}")
                break
            if table[bucket] == EMPTY:
                table[bucket], ids[bucket] = key, next_id
                next_id += 1
                rec.step("insert", {"buckets": buckets(), "key": key, "hash": home, "probe": probe},
                         caption=f"Insert {key} in bucket {bucket} (its hash is {home})")
                break
            bucket = (bucket + 1) % capacity
    return table
