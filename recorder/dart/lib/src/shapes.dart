part of dsa;

// The shape recorders: one object per structure (docs/challenges.md, "Step shapes") keeps the
// structure and its ids (given in creation order, never reused). A call that is one step by nature
// (push, pop, union, fill, probe...) writes it; an edit an algorithm makes several of before one
// picture (a relink, a rotation, a move) is silent, and step(action) writes the structure as it is
// then. A null id is no node.

/// Writes one step whose fields are [fields] in order, after the action and before the caption.
void _shapeStep(String action, Map<String, Object?> fields, String caption) {
  final parts = ['"action":${jsonEncode(action)}'];
  fields.forEach((key, value) => parts.add('${jsonEncode(key)}:${_encodeShapeValue(value)}'));
  parts.add('"caption":${jsonEncode(caption)}');
  _writeStep(parts.join(','));
}

String _encodeShapeValue(Object? value) {
  if (value is double) return _json(value);
  if (value is List) return '[${value.map(_encodeShapeValue).join(',')}]';
  if (value is Map) {
    return '{${value.entries.map((entry) => '${jsonEncode('${entry.key}')}:${_encodeShapeValue(entry.value)}').join(',')}}';
  }
  return jsonEncode(value);
}

T _alive<T>(List<T?> nodes, int? id, String what) {
  if (id == null || id < 0 || id >= nodes.length || nodes[id] == null) {
    throw RecorderError('no $what $id: ids are the ones the recorder gave');
  }
  return nodes[id]!;
}

int? _aliveOrNull<T>(List<T?> nodes, int? id, String what) {
  if (id != null) _alive(nodes, id, what);
  return id;
}

class _ListNode {
  Object value;
  int? next, prev;
  _ListNode(this.value);
}

/// A linked list's steps: nodes with ids, a head and the algorithm's pointers; a doubly linked
/// list ([doubly] true) has a prev on each node and a tail.
class ListRecorder {
  final List<_ListNode?> _nodes = [];
  int? _head, _tail;
  final bool doubly;
  final Map<String, int?> _pointers = {};

  /// Chains nodes 0 -> 1 -> ... holding [values], with the head at 0.
  ListRecorder([List<Object> values = const [], this.doubly = false]) {
    int? previous;
    for (final value in values) {
      final node = add(value);
      if (previous == null) {
        _head = node;
      } else {
        link(previous, node);
        if (doubly) linkPrev(node, previous);
      }
      previous = node;
    }
    if (doubly) _tail = previous;
  }

  /// A new node, linked to nothing; returns its id.
  int add(Object value) {
    _nodes.add(_ListNode(_checked(value)));
    return _nodes.length - 1;
  }

  void link(int node, int? next) => _alive(_nodes, node, 'node').next = _aliveOrNull(_nodes, next, 'node');

  void setHead(int? node) => _head = _aliveOrNull(_nodes, node, 'node');

  /// A doubly linked list's back link.
  void linkPrev(int node, int? prev) {
    _checkDoubly('linkPrev');
    _alive(_nodes, node, 'node').prev = _aliveOrNull(_nodes, prev, 'node');
  }

  void setTail(int? node) {
    _checkDoubly('setTail');
    _tail = _aliveOrNull(_nodes, node, 'node');
  }

  void _checkDoubly(String call) {
    if (!doubly) throw RecorderError('$call is for a doubly linked list: ListRecorder(values, true)');
  }

  /// Sets the algorithm's pointer [name] (prev, curr, slow...) to a node id or null.
  void point(String name, int? node) => _pointers[name] = _aliveOrNull(_nodes, node, 'node');

  /// The node leaves the list; a link, the head or a pointer to it becomes null.
  void remove(int node) {
    _alive(_nodes, node, 'node');
    _nodes[node] = null;
    for (final other in _nodes) {
      if (other != null && other.next == node) other.next = null;
      if (other != null && other.prev == node) other.prev = null;
    }
    if (_head == node) _head = null;
    if (_tail == node) _tail = null;
    _pointers.updateAll((name, target) => target == node ? null : target);
  }

  int? get head => _head;
  Object value(int node) => _alive(_nodes, node, 'node').value;
  int? next(int node) => _alive(_nodes, node, 'node').next;
  int? get tail => _tail;
  int? prev(int node) => _alive(_nodes, node, 'node').prev;

  /// Writes the list; [active] (node ids) is left out when null.
  void step(String action, {List<int>? active, String? caption}) {
    final fields = <String, Object?>{
      'head': _head,
      if (doubly) 'tail': _tail,
      'nodes': [
        for (var id = 0; id < _nodes.length; id++)
          if (_nodes[id] != null)
            {'id': id, 'value': _nodes[id]!.value, 'next': _nodes[id]!.next, if (doubly) 'prev': _nodes[id]!.prev}
      ],
      'pointers': Map.of(_pointers),
    };
    if (active != null) fields['active'] = [for (final id in active) _aliveOrNull(_nodes, id, 'node')];
    _shapeStep(action, fields, caption ?? action);
  }
}

class _TreeNode {
  Object value;
  int? left, right, height;
  List<int>? range;
  _TreeNode(this.value);
}

/// A binary tree's steps (search tree, AVL, segment tree): nodes made by [add] (the first one is
/// the root), linked silently.
class TreeRecorder {
  final List<_TreeNode?> _nodes = [];
  int? _root;
  final Map<String, int?> _pointers = {};

  /// A new node, linked to nothing; returns its id (the first node added becomes the root).
  int add(Object value) {
    _nodes.add(_TreeNode(_checked(value)));
    if (_nodes.length == 1) _root = 0;
    return _nodes.length - 1;
  }

  _TreeNode _node(int id) => _alive(_nodes, id, 'node');

  void setLeft(int node, int? child) => _node(node).left = _aliveOrNull(_nodes, child, 'node');
  void setRight(int node, int? child) => _node(node).right = _aliveOrNull(_nodes, child, 'node');
  void setRoot(int? node) => _root = _aliveOrNull(_nodes, node, 'node');
  void setValue(int node, Object value) => _node(node).value = _checked(value);

  /// An AVL node's height, written beside the node from now on.
  void setHeight(int node, int height) => _node(node).height = height;

  /// A segment tree node's range [low, high], written beside the node from now on.
  void setRange(int node, int low, int high) => _node(node).range = [low, high];

  void point(String name, int? node) => _pointers[name] = _aliveOrNull(_nodes, node, 'node');

  /// The node leaves the tree; a link, the root or a pointer to it becomes null.
  void remove(int node) {
    _node(node);
    _nodes[node] = null;
    for (final other in _nodes) {
      if (other != null && other.left == node) other.left = null;
      if (other != null && other.right == node) other.right = null;
    }
    if (_root == node) _root = null;
    _pointers.updateAll((name, target) => target == node ? null : target);
  }

  int? get root => _root;
  Object value(int node) => _node(node).value;
  int? left(int node) => _node(node).left;
  int? right(int node) => _node(node).right;

  /// Writes the tree; [active] and [visited] (node ids) are left out when null.
  void step(String action, {List<int>? active, List<int>? visited, String? caption}) {
    final nodes = <Object>[];
    for (var id = 0; id < _nodes.length; id++) {
      final node = _nodes[id];
      if (node == null) continue;
      nodes.add(<String, Object?>{
        'id': id,
        'value': node.value,
        'left': node.left,
        'right': node.right,
        if (node.height != null) 'height': node.height,
        if (node.range != null) 'range': node.range,
      });
    }
    final fields = <String, Object?>{'root': _root, 'nodes': nodes};
    if (_pointers.isNotEmpty) fields['pointers'] = Map.of(_pointers);
    if (active != null) fields['active'] = [for (final id in active) _aliveOrNull(_nodes, id, 'node')];
    if (visited != null) fields['visited'] = [for (final id in visited) _aliveOrNull(_nodes, id, 'node')];
    _shapeStep(action, fields, caption ?? action);
  }
}

/// A binary heap's steps in array order (index i's children at 2i+1 and 2i+2); element k of the
/// values gets id k, a pushed one the next id.
class HeapRecorder {
  final List<Object> _heap;
  final List<int> _ids;
  int _nextId;

  HeapRecorder([List<Object> values = const []])
      : _heap = [for (final value in values) _checked(value)],
        _ids = [for (var k = 0; k < values.length; k++) k],
        _nextId = values.length;

  /// The values in array order (a copy).
  List<Object> get heap => List.of(_heap);
  List<int> get ids => List.unmodifiable(_ids);
  int get length => _heap.length;
  Object operator [](int index) => _heap[index];

  /// Appends [value] (a fresh id) at the end; sifting it up is the algorithm's compares and swaps.
  void push(Object value, {String? caption}) {
    _heap.add(_checked(value));
    _ids.add(_nextId++);
    step('push', active: [_heap.length - 1], caption: caption ?? 'Push ${_json(value)}');
  }

  /// Takes the root out, moves the last element to the root and returns the root's value.
  Object pop({String? caption}) {
    if (_heap.isEmpty) throw RecorderError('pop from an empty heap');
    final value = _heap[0];
    _heap[0] = _heap.last;
    _ids[0] = _ids.last;
    _heap.removeLast();
    _ids.removeLast();
    step('pop', active: _heap.isEmpty ? [] : [0], caption: caption ?? 'Pop ${_json(value)}');
    return value;
  }

  void compare(int i, int j, {String? caption}) {
    step('compare',
        active: [i, j], caption: caption ?? 'Compare index $i (${_json(_heap[i])}) with index $j (${_json(_heap[j])})');
  }

  void swap(int i, int j, {String? caption}) {
    final value = _heap[i];
    _heap[i] = _heap[j];
    _heap[j] = value;
    final id = _ids[i];
    _ids[i] = _ids[j];
    _ids[j] = id;
    step('swap', active: [i, j], caption: caption ?? 'Swap index $i and index $j');
  }

  /// Writes the heap with [active] indices.
  void step(String action, {List<int> active = const [], String? caption}) {
    for (final i in active) {
      RangeError.checkValidIndex(i, _heap);
    }
    _shapeStep(action, {'heap': _heap, 'ids': _ids, 'active': active}, caption ?? action);
  }
}

/// A stack's, queue's or deque's steps ([kind], the step's list name): bottom to top, or front to
/// back; element k of the values gets id k, a pushed one the next id.
class StackRecorder {
  final String kind;
  final List<Object> _items;
  final List<int> _ids;
  int _nextId;

  StackRecorder([this.kind = 'stack', List<Object> values = const []])
      : _items = [for (final value in values) _checked(value)],
        _ids = [for (var k = 0; k < values.length; k++) k],
        _nextId = values.length {
    if (kind != 'stack' && kind != 'queue' && kind != 'deque') {
      throw RecorderError('kind is stack, queue or deque, not $kind');
    }
  }

  /// The values, bottom to top (front to back; a copy).
  List<Object> get items => List.of(_items);
  List<int> get ids => List.unmodifiable(_ids);
  int get length => _items.length;

  void _add(bool front, Object value, String action, String caption) {
    _checked(value);
    final id = _nextId++;
    _items.insert(front ? 0 : _items.length, value);
    _ids.insert(front ? 0 : _ids.length, id);
    _step(action, {'id': id, 'value': value}, caption);
  }

  Object _take(bool front, String action, String? caption, String Function(Object) fallback) {
    if (_items.isEmpty) throw RecorderError('$action from an empty $kind');
    final value = front ? _items.removeAt(0) : _items.removeLast();
    final id = front ? _ids.removeAt(0) : _ids.removeLast();
    _step(action, {'id': id, 'value': value}, caption ?? fallback(value));
    return value;
  }

  void push(Object value, {String? caption}) => _add(false, value, 'push', caption ?? 'Push ${_json(value)}');
  Object pop({String? caption}) => _take(false, 'pop', caption, (value) => 'Pop ${_json(value)}');
  void enqueue(Object value, {String? caption}) =>
      _add(false, value, 'enqueue', caption ?? 'Enqueue ${_json(value)}');
  Object dequeue({String? caption}) => _take(true, 'dequeue', caption, (value) => 'Dequeue ${_json(value)}');
  void pushFront(Object value, {String? caption}) =>
      _add(true, value, 'push_front', caption ?? 'Push ${_json(value)} at the front');
  void pushBack(Object value, {String? caption}) =>
      _add(false, value, 'push_back', caption ?? 'Push ${_json(value)} at the back');
  Object popFront({String? caption}) =>
      _take(true, 'pop_front', caption, (value) => 'Pop ${_json(value)} from the front');
  Object popBack({String? caption}) =>
      _take(false, 'pop_back', caption, (value) => 'Pop ${_json(value)} from the back');

  /// The top of a stack, the front of a queue or deque; moved is null.
  Object peek({String? caption}) {
    if (_items.isEmpty) throw RecorderError('peek at an empty $kind');
    final value = kind == 'stack' ? _items.last : _items.first;
    _step('peek', null, caption ?? 'Peek ${_json(value)}');
    return value;
  }

  void step(String action, {String? caption}) => _step(action, null, caption ?? action);

  void _step(String action, Object? moved, String caption) =>
      _shapeStep(action, {kind: _items, 'ids': _ids, 'moved': moved}, caption);
}

class _Entry {
  Object key, value;
  int bucket;
  bool deleted = false;
  _Entry(this.key, this.value, this.bucket);
}

/// A hash table's steps: buckets of entries, each entry an id given when inserted. [start] begins
/// an operation on a key (its key and hash are written from then on, the probe empty).
class HashMapRecorder {
  final List<List<int>> _buckets;
  final List<_Entry?> _entries = [];
  Object? _key;
  int? _hash;
  List<int> _probe = [];

  HashMapRecorder(int bucketCount) : _buckets = [for (var i = 0; i < bucketCount; i++) <int>[]];

  _Entry _entry(int id) => _alive(_entries, id, 'entry');

  void start(Object key, int hash) {
    _key = _checked(key);
    _hash = hash;
    _probe = [];
  }

  void probe(int bucket, {String? caption}) {
    RangeError.checkValidIndex(bucket, _buckets);
    _probe.add(bucket);
    step('probe', caption: caption ?? 'Probe bucket $bucket');
  }

  /// Adds the entry at the end of [bucket]; returns its id.
  int insert(int bucket, Object key, Object value, {String? caption}) {
    RangeError.checkValidIndex(bucket, _buckets);
    _entries.add(_Entry(_checked(key), _checked(value), bucket));
    final id = _entries.length - 1;
    _buckets[bucket].add(id);
    step('insert', active: [id], caption: caption ?? 'Put ${_json(key)} in bucket $bucket');
    return id;
  }

  void remove(int id, {String? caption}) {
    final entry = _entry(id);
    _buckets[entry.bucket].remove(id);
    step('remove', active: [id], caption: caption ?? 'Remove ${_json(entry.key)}');
    _entries[id] = null;
  }

  void setValue(int id, Object value) => _entry(id).value = _checked(value);

  /// Open addressing's delete: the entry stays in its bucket as a tombstone ("deleted": true).
  void markDeleted(int id, {String? caption}) {
    final entry = _entry(id);
    entry.deleted = true;
    step('delete', active: [id], caption: caption ?? 'Delete ${_json(entry.key)}: a tombstone stays');
  }

  /// More buckets (entries stay where they are until moved).
  void resize(int bucketCount) {
    if (bucketCount < _buckets.length) {
      throw RecorderError('a hash map grows: move the entries, then resize to more buckets');
    }
    while (_buckets.length < bucketCount) {
      _buckets.add([]);
    }
  }

  /// Moves the entry to the end of [bucket] (a rehash); no step.
  void move(int id, int bucket) {
    RangeError.checkValidIndex(bucket, _buckets);
    final entry = _entry(id);
    _buckets[entry.bucket].remove(id);
    _buckets[bucket].add(id);
    entry.bucket = bucket;
  }

  Object key(int id) => _entry(id).key;
  Object value(int id) => _entry(id).value;

  /// The ids of a bucket's entries, in order.
  List<int> bucket(int index) => List.of(_buckets[index]);

  /// Writes the table; [active] (entry ids) is left out when null.
  void step(String action, {List<int>? active, String? caption}) {
    final fields = <String, Object?>{
      'buckets': [
        for (final bucket in _buckets)
          [
            for (final id in bucket)
              {
                'id': id,
                'key': _entries[id]!.key,
                'value': _entries[id]!.value,
                if (_entries[id]!.deleted) 'deleted': true,
              }
          ]
      ],
      'key': _key,
      'hash': _hash,
      'probe': _probe,
    };
    if (active != null) fields['active'] = [for (final id in active) _aliveOrNull(_entries, id, 'entry')];
    _shapeStep(action, fields, caption ?? action);
  }
}

/// A DP table's steps: `TableRecorder(rows, cols)` (2-D) or `TableRecorder(n)` (1-D), every cell
/// null until set.
class TableRecorder {
  final List<Object?> _cells;
  final int _rows, _cols;
  final bool _flat;
  final List<String>? rowLabels, colLabels;

  TableRecorder(int rows, [int? cols, this.rowLabels, this.colLabels])
      : _cells = List.filled(rows * (cols ?? 1), null),
        _rows = rows,
        _cols = cols ?? 1,
        _flat = cols == null;

  int _at(List<int> cell) {
    if (_flat && cell.length == 1 && cell[0] >= 0 && cell[0] < _rows) return cell[0];
    if (!_flat && cell.length == 2 && cell[0] >= 0 && cell[0] < _rows && cell[1] >= 0 && cell[1] < _cols) {
      return cell[0] * _cols + cell[1];
    }
    throw RecorderError('no cell $cell in this table');
  }

  /// The cell's value ([i] or [row, column]), null when not computed yet.
  Object? get(List<int> cell) => _cells[_at(cell)];

  /// Sets a cell without a step (base cases before the first step).
  void set(List<int> cell, Object value) => _cells[_at(cell)] = _checked(value);

  /// Sets [cell] ([i] or [row, column]) to [value], computed from the cells [reads].
  void fill(List<int> cell, Object value, List<List<int>> reads, {String? caption}) {
    set(cell, value);
    for (final read in reads) {
      _at(read);
    }
    _step('fill', cell, reads, caption ?? 'Cell (${cell.join(',')}) = ${_json(value)}');
  }

  void step(String action, {String? caption}) => _step(action, null, const [], caption ?? action);

  void _step(String action, List<int>? cell, List<List<int>> reads, String caption) {
    final table = _flat ? _cells : [for (var row = 0; row < _rows; row++) _cells.sublist(row * _cols, (row + 1) * _cols)];
    _shapeStep(
        action,
        {
          'table': table,
          if (rowLabels != null) 'row_labels': rowLabels,
          if (colLabels != null) 'col_labels': colLabels,
          'cell': cell,
          'reads': reads,
        },
        caption);
  }
}

/// String matching's steps (naive, KMP, Rabin-Karp): a pattern's window over a text, indexed by
/// character (code point).
class MatchRecorder {
  final String text, pattern;
  final List<int> _textRunes, _patternRunes;
  int _offset = 0;
  int? _index;
  final List<int> _found = [];
  List<int>? _failure;
  int? _windowHash, _patternHash;

  MatchRecorder(this.text, this.pattern)
      : _textRunes = text.runes.toList(),
        _patternRunes = pattern.runes.toList();

  List<int> get found => List.unmodifiable(_found);

  /// KMP's failure table: written with every step from now on (with failure_at).
  void setFailure(List<int> failure) => _failure = List.of(failure);

  /// Compares text[offset + index] with pattern[index].
  void compare(int offset, int index, {String? caption}) {
    caption ??= 'Compare text[${offset + index}] (${jsonEncode(String.fromCharCode(_textRunes[offset + index]))}) '
        'with pattern[$index] (${jsonEncode(String.fromCharCode(_patternRunes[index]))})';
    _offset = offset;
    _index = index;
    _step('compare', null, caption);
  }

  /// Slides the pattern to [offset], going on at pattern[index].
  void shift(int offset, int index, {String? caption}) {
    _offset = offset;
    _index = index;
    _step('shift', null, caption ?? 'Shift the pattern to offset $offset');
  }

  /// KMP after a mismatch at pattern[j]: goes on at failure[failureAt] (j - 1), the offset moving
  /// with it.
  void shiftByFailure(int failureAt, {String? caption}) {
    final failure = _failure;
    if (failure == null) throw RecorderError('shiftByFailure needs the failure table: call setFailure first');
    final resume = failure[failureAt];
    _offset += (_index ?? 0) - resume;
    _index = resume;
    _step('shift', failureAt, caption ?? 'failure[$failureAt] is $resume: shift the pattern to offset $_offset');
  }

  /// The pattern occurs at [offset]: it joins found.
  void match(int offset, {String? caption}) {
    _offset = offset;
    _found.add(offset);
    _step('found', null, caption ?? 'Found the pattern at offset $offset');
  }

  /// Rabin-Karp: the window at [offset] has [windowHash]; both hashes are written from now on.
  void hash(int offset, int windowHash, int patternHash, {String? caption}) {
    _offset = offset;
    _index = null;
    _windowHash = windowHash;
    _patternHash = patternHash;
    _step('hash', null, caption ?? 'Offset $offset: window hash $windowHash, pattern hash $patternHash');
  }

  void step(String action, {String? caption}) => _step(action, null, caption ?? action);

  void _step(String action, int? failureAt, String caption) {
    _shapeStep(
        action,
        {
          'text': text,
          'pattern': pattern,
          'offset': _offset,
          'index': _index,
          'found': _found,
          if (_failure != null) 'failure': _failure,
          if (_failure != null) 'failure_at': failureAt,
          if (_windowHash != null) 'window_hash': _windowHash,
          if (_windowHash != null) 'pattern_hash': _patternHash,
        },
        caption);
  }
}

/// Union-find's steps over elements 0..n-1, with union by rank unless [byRank] is false.
class UnionFindRecorder {
  final List<int> _parent;
  final List<int>? _rank;
  final List<String>? labels;

  UnionFindRecorder(int n, {bool byRank = true, this.labels})
      : _parent = [for (var i = 0; i < n; i++) i],
        _rank = byRank ? List.filled(n, 0) : null;

  List<int> get parent => List.unmodifiable(_parent);
  List<int>? get rank => _rank == null ? null : List.unmodifiable(_rank!);

  /// x's root, changing nothing and writing no step.
  int root(int x) {
    while (_parent[x] != x) {
      x = _parent[x];
    }
    return x;
  }

  /// x's root, with path compression (every element on the way then points at the root).
  int find(int x, {String? caption}) {
    final found = root(x);
    for (var at = x; _parent[at] != found;) {
      final next = _parent[at];
      _parent[at] = found;
      at = next;
    }
    step('find', active: [x], caption: caption ?? 'Find $x: its root is $found');
    return found;
  }

  /// Joins a's and b's sets (the root of lower rank goes under the other; without ranks, b's root
  /// under a's); returns false when they were one set already.
  bool union(int a, int b, {String? caption}) {
    final rootA = root(a), rootB = root(b);
    var fallback = 'Union $a and $b';
    final rank = _rank;
    if (rootA == rootB) {
      fallback = '$a and $b are already in one set';
    } else {
      var upper = rootA, lower = rootB;
      if (rank != null) {
        if (rank[upper] < rank[lower]) {
          upper = rootB;
          lower = rootA;
        }
        if (rank[upper] == rank[lower]) rank[upper]++;
      }
      _parent[lower] = upper;
    }
    step('union', active: [rootA, rootB], caption: caption ?? fallback);
    return rootA != rootB;
  }

  void setParent(int x, int parent) {
    RangeError.checkValidIndex(parent, _parent);
    _parent[x] = parent;
  }

  void setRank(int x, int rank) {
    final ranks = _rank;
    if (ranks == null) throw RecorderError('this union-find has no ranks (byRank false)');
    ranks[x] = rank;
  }

  /// Writes the forest; [active] (elements) is left out when null.
  void step(String action, {List<int>? active, String? caption}) {
    if (active != null) {
      for (final x in active) {
        RangeError.checkValidIndex(x, _parent);
      }
    }
    _shapeStep(
        action,
        {
          'parent': _parent,
          if (_rank != null) 'rank': _rank,
          if (labels != null) 'labels': labels,
          if (active != null) 'active': active,
        },
        caption ?? action);
  }
}
