// dsa-run's shape recorders for C++17 (included by <dsa/recorder.hpp>): one object per structure
// (docs/challenges.md, "Step shapes") keeps the structure and its ids (given in creation order,
// never reused). A call that is one step by nature (push, pop, unite, fill, probe...) writes it;
// an edit an algorithm makes several of before one picture (a relink, a rotation, a move) is
// silent, and step(action) writes the structure as it is then. A node id is a
// std::optional<long long>: std::nullopt is no node (null).
#ifndef DSA_SHAPES_HPP
#define DSA_SHAPES_HPP

#include <map>

namespace dsa {

using Id = std::optional<long long>;
using Ids = std::optional<std::vector<long long>>;

namespace detail {

/// One step's fields, in the order they are added.
struct Fields {
  std::string body;

  template <typename T>
  Fields& add(std::string_view name, const T& value) {
    std::string text;
    appendValue(text, value);
    return raw(name, text);
  }

  Fields& raw(std::string_view name, const std::string& text) {
    if (!body.empty()) body += ',';
    appendString(body, name);
    body += ':';
    body += text;
    return *this;
  }

  Fields& id(std::string_view name, const Id& id) { return raw(name, id ? std::to_string(*id) : "null"); }

  std::string object() const { return "{" + body + "}"; }
};

inline std::string idText(const Id& id) { return id ? std::to_string(*id) : "null"; }

/// The algorithm's named node variables, in the order they were first set.
struct Pointers {
  std::vector<std::pair<std::string, Id>> named;

  void set(const std::string& name, Id id) {
    for (auto& [known, target] : named) {
      if (known == name) {
        target = id;
        return;
      }
    }
    named.emplace_back(name, id);
  }

  void clear(long long id) {
    for (auto& entry : named) {
      if (entry.second == id) entry.second = std::nullopt;
    }
  }

  std::string text() const {
    std::string out = "{";
    for (size_t k = 0; k < named.size(); ++k) {
      if (k > 0) out += ',';
      appendString(out, named[k].first);
      out += ':' + idText(named[k].second);
    }
    return out + "}";
  }
};

template <typename Node>
Node& alive(std::vector<std::optional<Node>>& nodes, long long id, const char* what) {
  if (id < 0 || id >= static_cast<long long>(nodes.size()) || !nodes[static_cast<size_t>(id)]) {
    throw RecorderError("no " + std::string(what) + " " + std::to_string(id) + ": ids are the ones the recorder gave");
  }
  return *nodes[static_cast<size_t>(id)];
}

template <typename Node>
Id aliveOrNull(std::vector<std::optional<Node>>& nodes, Id id, const char* what) {
  if (id) alive(nodes, *id, what);
  return id;
}

template <typename T>
T checked(T value) {
  std::string scratch;
  appendValue(scratch, value);  // refuses NaN and Infinity now
  return value;
}

inline std::string pick(const std::optional<std::string>& caption, const std::string& fallback) {
  return caption ? *caption : fallback;
}

}  // namespace detail

/// A linked list's steps: nodes with ids, a head and the algorithm's pointers; a doubly linked
/// list (doubly true) has a prev on each node and a tail.
template <typename T = long long>
class ListRecorder {
 public:
  ListRecorder() = default;
  /// Chains nodes 0 -> 1 -> ... holding values, with the head at 0.
  explicit ListRecorder(const std::vector<T>& values, bool doubly = false) : doubly_(doubly) {
    Id previous;
    for (const auto& value : values) {
      long long node = add(value);
      if (previous) {
        link(*previous, node);
        if (doubly_) linkPrev(node, previous);
      } else {
        head_ = node;
      }
      previous = node;
    }
    if (doubly_) tail_ = previous;
  }
  ListRecorder(std::initializer_list<T> values) : ListRecorder(std::vector<T>(values)) {}

  /// A new node, linked to nothing; returns its id.
  long long add(T value) {
    nodes_.push_back(Node{detail::checked(std::move(value)), std::nullopt, std::nullopt});
    return static_cast<long long>(nodes_.size()) - 1;
  }

  void link(long long node, Id next) { detail::alive(nodes_, node, "node").next = detail::aliveOrNull(nodes_, next, "node"); }
  void setHead(Id node) { head_ = detail::aliveOrNull(nodes_, node, "node"); }
  /// A doubly linked list's back link.
  void linkPrev(long long node, Id prev) {
    checkDoubly("linkPrev");
    detail::alive(nodes_, node, "node").prev = detail::aliveOrNull(nodes_, prev, "node");
  }
  void setTail(Id node) {
    checkDoubly("setTail");
    tail_ = detail::aliveOrNull(nodes_, node, "node");
  }
  /// Sets the algorithm's pointer name (prev, curr, slow...) to a node id or std::nullopt.
  void point(const std::string& name, Id node) { pointers_.set(name, detail::aliveOrNull(nodes_, node, "node")); }

  /// The node leaves the list; a link, the head or a pointer to it becomes null.
  void remove(long long node) {
    detail::alive(nodes_, node, "node");
    nodes_[static_cast<size_t>(node)].reset();
    for (auto& other : nodes_) {
      if (other && other->next == node) other->next = std::nullopt;
      if (other && other->prev == node) other->prev = std::nullopt;
    }
    if (head_ == node) head_ = std::nullopt;
    if (tail_ == node) tail_ = std::nullopt;
    pointers_.clear(node);
  }

  Id head() const { return head_; }
  const T& value(long long node) { return detail::alive(nodes_, node, "node").value; }
  Id next(long long node) { return detail::alive(nodes_, node, "node").next; }
  Id tail() const { return tail_; }
  Id prev(long long node) { return detail::alive(nodes_, node, "node").prev; }

  /// Writes the list; active (node ids) is left out when std::nullopt.
  void step(const std::string& action, const Ids& active = std::nullopt,
            std::optional<std::string> caption = std::nullopt) {
    std::string nodes = "[";
    for (size_t id = 0; id < nodes_.size(); ++id) {
      if (!nodes_[id]) continue;
      if (nodes.size() > 1) nodes += ',';
      detail::Fields written;
      written.add("id", id).add("value", nodes_[id]->value).id("next", nodes_[id]->next);
      if (doubly_) written.id("prev", nodes_[id]->prev);
      nodes += written.object();
    }
    detail::Fields fields;
    fields.id("head", head_);
    if (doubly_) fields.id("tail", tail_);
    fields.raw("nodes", nodes + "]").raw("pointers", pointers_.text());
    if (active) {
      for (long long id : *active) detail::alive(nodes_, id, "node");
      fields.add("active", *active);
    }
    detail::writeStep(action, fields.body, detail::pick(caption, action));
  }

 private:
  struct Node {
    T value;
    Id next, prev;
  };
  void checkDoubly(const char* call) const {
    if (!doubly_) {
      throw RecorderError(std::string(call) + " is for a doubly linked list: ListRecorder(values, true)");
    }
  }
  std::vector<std::optional<Node>> nodes_;
  Id head_, tail_;
  bool doubly_ = false;
  detail::Pointers pointers_;
};

/// A binary tree's steps (search tree, AVL, segment tree): nodes made by add (the first one is the
/// root), linked silently.
template <typename T = long long>
class TreeRecorder {
 public:
  /// A new node, linked to nothing; returns its id (the first node added becomes the root).
  long long add(T value) {
    nodes_.push_back(Node{detail::checked(std::move(value)), std::nullopt, std::nullopt, std::nullopt, std::nullopt});
    if (nodes_.size() == 1) root_ = 0;
    return static_cast<long long>(nodes_.size()) - 1;
  }

  void setLeft(long long node, Id child) { this->node(node).left = detail::aliveOrNull(nodes_, child, "node"); }
  void setRight(long long node, Id child) { this->node(node).right = detail::aliveOrNull(nodes_, child, "node"); }
  void setRoot(Id node) { root_ = detail::aliveOrNull(nodes_, node, "node"); }
  void setValue(long long node, T value) { this->node(node).value = detail::checked(std::move(value)); }
  /// An AVL node's height, written beside the node from now on.
  void setHeight(long long node, long long height) { this->node(node).height = height; }
  /// A segment tree node's range [low, high], written beside the node from now on.
  void setRange(long long node, long long low, long long high) {
    this->node(node).range = std::vector<long long>{low, high};
  }
  void point(const std::string& name, Id node) { pointers_.set(name, detail::aliveOrNull(nodes_, node, "node")); }

  /// The node leaves the tree; a link, the root or a pointer to it becomes null.
  void remove(long long node) {
    this->node(node);
    nodes_[static_cast<size_t>(node)].reset();
    for (auto& other : nodes_) {
      if (other && other->left == node) other->left = std::nullopt;
      if (other && other->right == node) other->right = std::nullopt;
    }
    if (root_ == node) root_ = std::nullopt;
    pointers_.clear(node);
  }

  Id root() const { return root_; }
  const T& value(long long node) { return this->node(node).value; }
  Id left(long long node) { return this->node(node).left; }
  Id right(long long node) { return this->node(node).right; }

  /// Writes the tree; active and visited (node ids) are left out when std::nullopt.
  void step(const std::string& action, const Ids& active = std::nullopt, const Ids& visited = std::nullopt,
            std::optional<std::string> caption = std::nullopt) {
    std::string nodes = "[";
    for (size_t id = 0; id < nodes_.size(); ++id) {
      if (!nodes_[id]) continue;
      const Node& node = *nodes_[id];
      if (nodes.size() > 1) nodes += ',';
      detail::Fields written;
      written.add("id", id).add("value", node.value).id("left", node.left).id("right", node.right);
      if (node.height) written.add("height", *node.height);
      if (node.range) written.add("range", *node.range);
      nodes += written.object();
    }
    detail::Fields fields;
    fields.id("root", root_).raw("nodes", nodes + "]");
    if (!pointers_.named.empty()) fields.raw("pointers", pointers_.text());
    if (active) {
      for (long long id : *active) this->node(id);
      fields.add("active", *active);
    }
    if (visited) {
      for (long long id : *visited) this->node(id);
      fields.add("visited", *visited);
    }
    detail::writeStep(action, fields.body, detail::pick(caption, action));
  }

 private:
  struct Node {
    T value;
    Id left, right, height;
    std::optional<std::vector<long long>> range;
  };
  Node& node(long long id) { return detail::alive(nodes_, id, "node"); }
  std::vector<std::optional<Node>> nodes_;
  Id root_;
  detail::Pointers pointers_;
};

/// A binary heap's steps in array order (index i's children at 2i+1 and 2i+2); element k of the
/// values gets id k, a pushed one the next id.
template <typename T = long long>
class HeapRecorder {
 public:
  HeapRecorder() = default;
  explicit HeapRecorder(std::vector<T> values) : heap_(std::move(values)) {
    for (const auto& value : heap_) detail::checked(value);
    for (size_t k = 0; k < heap_.size(); ++k) ids_.push_back(static_cast<long long>(k));
    nextId_ = static_cast<long long>(heap_.size());
  }
  HeapRecorder(std::initializer_list<T> values) : HeapRecorder(std::vector<T>(values)) {}

  /// The values in array order.
  const std::vector<T>& heap() const { return heap_; }
  const std::vector<long long>& ids() const { return ids_; }
  size_t size() const { return heap_.size(); }
  const T& operator[](size_t index) const { return heap_.at(index); }

  /// Appends value (a fresh id) at the end; sifting it up is the algorithm's compares and swaps.
  void push(T value, std::optional<std::string> caption = std::nullopt) {
    std::string text = toJson(detail::checked(value));
    heap_.push_back(std::move(value));
    ids_.push_back(nextId_++);
    step("push", std::vector<long long>{static_cast<long long>(heap_.size()) - 1}, detail::pick(caption, "Push " + text));
  }

  /// Takes the root out, moves the last element to the root and returns the root's value.
  T pop(std::optional<std::string> caption = std::nullopt) {
    if (heap_.empty()) throw RecorderError("pop from an empty heap");
    T value = heap_.front();
    heap_.front() = heap_.back();
    ids_.front() = ids_.back();
    heap_.pop_back();
    ids_.pop_back();
    step("pop", heap_.empty() ? std::vector<long long>{} : std::vector<long long>{0},
         detail::pick(caption, "Pop " + toJson(value)));
    return value;
  }

  void compare(size_t i, size_t j, std::optional<std::string> caption = std::nullopt) {
    step("compare", std::vector<long long>{static_cast<long long>(i), static_cast<long long>(j)},
         detail::pick(caption, "Compare index " + std::to_string(i) + " (" + toJson(heap_.at(i)) + ") with index " +
                                   std::to_string(j) + " (" + toJson(heap_.at(j)) + ")"));
  }

  void swap(size_t i, size_t j, std::optional<std::string> caption = std::nullopt) {
    std::swap(heap_.at(i), heap_.at(j));
    std::swap(ids_[i], ids_[j]);
    step("swap", std::vector<long long>{static_cast<long long>(i), static_cast<long long>(j)},
         detail::pick(caption, "Swap index " + std::to_string(i) + " and index " + std::to_string(j)));
  }

  /// Writes the heap with active indices.
  void step(const std::string& action, const std::vector<long long>& active = {},
            std::optional<std::string> caption = std::nullopt) {
    for (long long i : active) heap_.at(static_cast<size_t>(i));
    detail::Fields fields;
    fields.add("heap", heap_).add("ids", ids_).add("active", active);
    detail::writeStep(action, fields.body, detail::pick(caption, action));
  }

 private:
  std::vector<T> heap_;
  std::vector<long long> ids_;
  long long nextId_ = 0;
};

/// A stack's, queue's or deque's steps (its kind, the step's list name): bottom to top, or front to
/// back; element k of the values gets id k, a pushed one the next id.
template <typename T = long long>
class StackRecorder {
 public:
  explicit StackRecorder(std::string kind = "stack", std::vector<T> values = {})
      : kind_(std::move(kind)), items_(std::move(values)) {
    if (kind_ != "stack" && kind_ != "queue" && kind_ != "deque") {
      throw RecorderError("kind is stack, queue or deque, not " + kind_);
    }
    for (const auto& value : items_) detail::checked(value);
    for (size_t k = 0; k < items_.size(); ++k) ids_.push_back(static_cast<long long>(k));
    nextId_ = static_cast<long long>(items_.size());
  }

  /// The values, bottom to top (front to back).
  const std::vector<T>& items() const { return items_; }
  const std::vector<long long>& ids() const { return ids_; }
  size_t size() const { return items_.size(); }

  void push(T value, std::optional<std::string> caption = std::nullopt) {
    add(false, std::move(value), "push", caption, "Push ", "");
  }
  T pop(std::optional<std::string> caption = std::nullopt) { return take(false, "pop", caption, "Pop ", ""); }
  void enqueue(T value, std::optional<std::string> caption = std::nullopt) {
    add(false, std::move(value), "enqueue", caption, "Enqueue ", "");
  }
  T dequeue(std::optional<std::string> caption = std::nullopt) { return take(true, "dequeue", caption, "Dequeue ", ""); }
  void pushFront(T value, std::optional<std::string> caption = std::nullopt) {
    add(true, std::move(value), "push_front", caption, "Push ", " at the front");
  }
  void pushBack(T value, std::optional<std::string> caption = std::nullopt) {
    add(false, std::move(value), "push_back", caption, "Push ", " at the back");
  }
  T popFront(std::optional<std::string> caption = std::nullopt) {
    return take(true, "pop_front", caption, "Pop ", " from the front");
  }
  T popBack(std::optional<std::string> caption = std::nullopt) {
    return take(false, "pop_back", caption, "Pop ", " from the back");
  }

  /// The top of a stack, the front of a queue or deque; moved is null.
  T peek(std::optional<std::string> caption = std::nullopt) {
    if (items_.empty()) throw RecorderError("peek at an empty " + kind_);
    T value = kind_ == "stack" ? items_.back() : items_.front();
    write("peek", "null", detail::pick(caption, "Peek " + toJson(value)));
    return value;
  }

  void step(const std::string& action, std::optional<std::string> caption = std::nullopt) {
    write(action, "null", detail::pick(caption, action));
  }

 private:
  void add(bool front, T value, const std::string& action, const std::optional<std::string>& caption,
           const std::string& before, const std::string& after) {
    std::string text = toJson(detail::checked(value));
    long long id = nextId_++;
    items_.insert(front ? items_.begin() : items_.end(), std::move(value));
    ids_.insert(front ? ids_.begin() : ids_.end(), id);
    write(action, detail::Fields{}.add("id", id).raw("value", text).object(), detail::pick(caption, before + text + after));
  }

  T take(bool front, const std::string& action, const std::optional<std::string>& caption, const std::string& before,
         const std::string& after) {
    if (items_.empty()) throw RecorderError(action + " from an empty " + kind_);
    size_t at = front ? 0 : items_.size() - 1;
    T value = items_[at];
    long long id = ids_[at];
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(at));
    ids_.erase(ids_.begin() + static_cast<std::ptrdiff_t>(at));
    std::string text = toJson(value);
    write(action, detail::Fields{}.add("id", id).raw("value", text).object(), detail::pick(caption, before + text + after));
    return value;
  }

  void write(const std::string& action, const std::string& moved, const std::string& caption) {
    detail::Fields fields;
    fields.add(kind_, items_).add("ids", ids_).raw("moved", moved);
    detail::writeStep(action, fields.body, caption);
  }

  std::string kind_;
  std::vector<T> items_;
  std::vector<long long> ids_;
  long long nextId_ = 0;
};

/// A hash table's steps: buckets of entries, each entry an id given when inserted. start begins an
/// operation on a key (its key and hash are written from then on, the probe empty).
template <typename K = std::string, typename V = long long>
class HashMapRecorder {
 public:
  explicit HashMapRecorder(size_t bucketCount) : buckets_(bucketCount) {}

  void start(K key, long long hash) {
    key_ = detail::checked(std::move(key));
    hash_ = hash;
    probe_.clear();
  }

  void probe(size_t bucket, std::optional<std::string> caption = std::nullopt) {
    buckets_.at(bucket);
    probe_.push_back(static_cast<long long>(bucket));
    step("probe", std::nullopt, detail::pick(caption, "Probe bucket " + std::to_string(bucket)));
  }

  /// Adds the entry at the end of bucket; returns its id.
  long long insert(size_t bucket, K key, V value, std::optional<std::string> caption = std::nullopt) {
    buckets_.at(bucket);
    std::string text = toJson(detail::checked(key));
    entries_.push_back(Entry{std::move(key), detail::checked(std::move(value)), bucket, false});
    long long id = static_cast<long long>(entries_.size()) - 1;
    buckets_[bucket].push_back(id);
    step("insert", std::vector<long long>{id}, detail::pick(caption, "Put " + text + " in bucket " + std::to_string(bucket)));
    return id;
  }

  void remove(long long id, std::optional<std::string> caption = std::nullopt) {
    Entry& entry = this->entry(id);
    unplace(id);
    step("remove", std::vector<long long>{id}, detail::pick(caption, "Remove " + toJson(entry.key)));
    entries_[static_cast<size_t>(id)].reset();
  }

  void setValue(long long id, V value) { entry(id).value = detail::checked(std::move(value)); }

  /// Open addressing's delete: the entry stays in its bucket as a tombstone ("deleted": true).
  void markDeleted(long long id, std::optional<std::string> caption = std::nullopt) {
    Entry& entry = this->entry(id);
    entry.deleted = true;
    step("delete", std::vector<long long>{id},
         detail::pick(caption, "Delete " + toJson(entry.key) + ": a tombstone stays"));
  }

  /// More buckets (entries stay where they are until moved).
  void resize(size_t bucketCount) {
    if (bucketCount < buckets_.size()) {
      throw RecorderError("a hash map grows: move the entries, then resize to more buckets");
    }
    buckets_.resize(bucketCount);
  }

  /// Moves the entry to the end of bucket (a rehash); no step.
  void move(long long id, size_t bucket) {
    buckets_.at(bucket);
    unplace(id);
    buckets_[bucket].push_back(id);
    entry(id).bucket = bucket;
  }

  const K& key(long long id) { return entry(id).key; }
  const V& value(long long id) { return entry(id).value; }
  /// The ids of a bucket's entries, in order.
  const std::vector<long long>& bucket(size_t index) const { return buckets_.at(index); }

  /// Writes the table; active (entry ids) is left out when std::nullopt.
  void step(const std::string& action, const Ids& active = std::nullopt,
            std::optional<std::string> caption = std::nullopt) {
    std::string buckets = "[";
    for (size_t b = 0; b < buckets_.size(); ++b) {
      if (b > 0) buckets += ',';
      buckets += '[';
      for (size_t k = 0; k < buckets_[b].size(); ++k) {
        long long id = buckets_[b][k];
        const Entry& entry = *entries_[static_cast<size_t>(id)];
        if (k > 0) buckets += ',';
        detail::Fields written;
        written.add("id", id).add("key", entry.key).add("value", entry.value);
        if (entry.deleted) written.add("deleted", true);
        buckets += written.object();
      }
      buckets += ']';
    }
    detail::Fields fields;
    fields.raw("buckets", buckets + "]").raw("key", key_ ? toJson(*key_) : "null").id("hash", hash_).add("probe", probe_);
    if (active) {
      for (long long id : *active) entry(id);
      fields.add("active", *active);
    }
    detail::writeStep(action, fields.body, detail::pick(caption, action));
  }

 private:
  struct Entry {
    K key;
    V value;
    size_t bucket;
    bool deleted;
  };
  Entry& entry(long long id) { return detail::alive(entries_, id, "entry"); }
  void unplace(long long id) {
    auto& bucket = buckets_[entry(id).bucket];
    bucket.erase(std::find(bucket.begin(), bucket.end(), id));
  }
  std::vector<std::vector<long long>> buckets_;
  std::vector<std::optional<Entry>> entries_;
  std::optional<K> key_;
  Id hash_;
  std::vector<long long> probe_;
};

/// A DP table's steps, 1-D (TableRecorder(n)) or 2-D (TableRecorder(rows, cols)); a cell not
/// computed yet is null. A cell is {i} or {row, column}.
template <typename T = long long>
class TableRecorder {
 public:
  using Cell = std::vector<long long>;

  explicit TableRecorder(size_t n) : cells_(n), rows_(n), cols_(1), flat_(true) {}
  TableRecorder(size_t rows, size_t cols, std::optional<std::vector<std::string>> rowLabels = std::nullopt,
                std::optional<std::vector<std::string>> colLabels = std::nullopt)
      : cells_(rows * cols), rows_(rows), cols_(cols), flat_(false), rowLabels_(std::move(rowLabels)),
        colLabels_(std::move(colLabels)) {}

  /// The cell's value, std::nullopt when not computed yet.
  const std::optional<T>& get(const Cell& cell) const { return cells_[at(cell)]; }

  /// Sets a cell without a step (base cases before the first step).
  void set(const Cell& cell, T value) { cells_[at(cell)] = detail::checked(std::move(value)); }

  /// Sets cell to value, computed from the cells reads.
  void fill(const Cell& cell, T value, const std::vector<Cell>& reads,
            std::optional<std::string> caption = std::nullopt) {
    std::string text = toJson(detail::checked(value));
    set(cell, std::move(value));
    for (const Cell& read : reads) at(read);
    std::string where;
    for (long long index : cell) where += (where.empty() ? "" : ",") + std::to_string(index);
    write("fill", toJson(cell), toJson(reads), detail::pick(caption, "Cell (" + where + ") = " + text));
  }

  void step(const std::string& action, std::optional<std::string> caption = std::nullopt) {
    write(action, "null", "[]", detail::pick(caption, action));
  }

 private:
  size_t at(const Cell& cell) const {
    auto inside = [](long long index, size_t size) { return index >= 0 && static_cast<size_t>(index) < size; };
    if (flat_ && cell.size() == 1 && inside(cell[0], rows_)) return static_cast<size_t>(cell[0]);
    if (!flat_ && cell.size() == 2 && inside(cell[0], rows_) && inside(cell[1], cols_)) {
      return static_cast<size_t>(cell[0]) * cols_ + static_cast<size_t>(cell[1]);
    }
    throw RecorderError("no cell " + toJson(cell) + " in this table");
  }

  std::string row(size_t from, size_t count) const {
    std::string out = "[";
    for (size_t k = 0; k < count; ++k) {
      if (k > 0) out += ',';
      out += cells_[from + k] ? toJson(*cells_[from + k]) : "null";
    }
    return out + "]";
  }

  void write(const std::string& action, const std::string& cell, const std::string& reads, const std::string& caption) {
    std::string table;
    if (flat_) {
      table = row(0, rows_);
    } else {
      table = "[";
      for (size_t r = 0; r < rows_; ++r) table += (r > 0 ? "," : "") + row(r * cols_, cols_);
      table += "]";
    }
    detail::Fields fields;
    fields.raw("table", table);
    if (rowLabels_) fields.add("row_labels", *rowLabels_);
    if (colLabels_) fields.add("col_labels", *colLabels_);
    fields.raw("cell", cell).raw("reads", reads);
    detail::writeStep(action, fields.body, caption);
  }

  std::vector<std::optional<T>> cells_;
  size_t rows_, cols_;
  bool flat_;
  std::optional<std::vector<std::string>> rowLabels_, colLabels_;
};

/// String matching's steps (naive, KMP, Rabin-Karp): a pattern's window over a text, indexed by
/// character (a UTF-8 code point).
class MatchRecorder {
 public:
  MatchRecorder(std::string text, std::string pattern)
      : text_(std::move(text)), pattern_(std::move(pattern)), textChars_(characters(text_)),
        patternChars_(characters(pattern_)) {}

  const std::vector<long long>& found() const { return found_; }

  /// KMP's failure table: written with every step from now on (with failure_at).
  void setFailure(std::vector<long long> failure) { failure_ = std::move(failure); }

  /// Compares text[offset + index] with pattern[index].
  void compare(long long offset, long long index, std::optional<std::string> caption = std::nullopt) {
    std::string text = caption ? *caption
                               : "Compare text[" + std::to_string(offset + index) + "] (" +
                                     toJson(textChars_.at(static_cast<size_t>(offset + index))) + ") with pattern[" +
                                     std::to_string(index) + "] (" + toJson(patternChars_.at(static_cast<size_t>(index))) + ")";
    offset_ = offset;
    index_ = index;
    write("compare", std::nullopt, text);
  }

  /// Slides the pattern to offset, going on at pattern[index].
  void shift(long long offset, long long index, std::optional<std::string> caption = std::nullopt) {
    offset_ = offset;
    index_ = index;
    write("shift", std::nullopt, detail::pick(caption, "Shift the pattern to offset " + std::to_string(offset)));
  }

  /// KMP after a mismatch at pattern[j]: goes on at failure[failureAt] (j - 1), the offset moving with it.
  void shiftByFailure(long long failureAt, std::optional<std::string> caption = std::nullopt) {
    if (!failure_) throw RecorderError("shiftByFailure needs the failure table: call setFailure first");
    long long resume = failure_->at(static_cast<size_t>(failureAt));
    offset_ += index_.value_or(0) - resume;
    index_ = resume;
    write("shift", failureAt,
          detail::pick(caption, "failure[" + std::to_string(failureAt) + "] is " + std::to_string(resume) +
                                    ": shift the pattern to offset " + std::to_string(offset_)));
  }

  /// The pattern occurs at offset: it joins found.
  void match(long long offset, std::optional<std::string> caption = std::nullopt) {
    offset_ = offset;
    found_.push_back(offset);
    write("found", std::nullopt, detail::pick(caption, "Found the pattern at offset " + std::to_string(offset)));
  }

  /// Rabin-Karp: the window at offset has windowHash; both hashes are written from now on.
  void hash(long long offset, long long windowHash, long long patternHash,
            std::optional<std::string> caption = std::nullopt) {
    offset_ = offset;
    index_ = std::nullopt;
    hashes_ = std::make_pair(windowHash, patternHash);
    write("hash", std::nullopt,
          detail::pick(caption, "Offset " + std::to_string(offset) + ": window hash " + std::to_string(windowHash) +
                                    ", pattern hash " + std::to_string(patternHash)));
  }

  void step(const std::string& action, std::optional<std::string> caption = std::nullopt) {
    write(action, std::nullopt, detail::pick(caption, action));
  }

 private:
  static std::vector<std::string> characters(const std::string& text) {
    std::vector<std::string> out;
    for (size_t k = 0; k < text.size();) {
      size_t length = 1;
      while (k + length < text.size() && (static_cast<unsigned char>(text[k + length]) & 0xC0) == 0x80) ++length;
      out.push_back(text.substr(k, length));
      k += length;
    }
    return out;
  }

  void write(const std::string& action, Id failureAt, const std::string& caption) {
    detail::Fields fields;
    fields.add("text", text_).add("pattern", pattern_).add("offset", offset_).id("index", index_).add("found", found_);
    if (failure_) fields.add("failure", *failure_).id("failure_at", failureAt);
    if (hashes_) fields.add("window_hash", hashes_->first).add("pattern_hash", hashes_->second);
    detail::writeStep(action, fields.body, caption);
  }

  std::string text_, pattern_;
  std::vector<std::string> textChars_, patternChars_;
  long long offset_ = 0;
  Id index_;
  std::vector<long long> found_;
  std::optional<std::vector<long long>> failure_;
  std::optional<std::pair<long long, long long>> hashes_;
};

/// Union-find's steps over elements 0..n-1, with union by rank unless byRank is false. (`union` is
/// a C++ keyword: the union is `unite`.)
class UnionFindRecorder {
 public:
  explicit UnionFindRecorder(size_t n, bool byRank = true,
                             std::optional<std::vector<std::string>> labels = std::nullopt)
      : parent_(n), labels_(std::move(labels)) {
    for (size_t k = 0; k < n; ++k) parent_[k] = static_cast<long long>(k);
    if (byRank) rank_ = std::vector<long long>(n, 0);
  }

  const std::vector<long long>& parent() const { return parent_; }
  /// The ranks, std::nullopt without union by rank.
  const std::optional<std::vector<long long>>& rank() const { return rank_; }

  /// x's root, changing nothing and writing no step.
  long long root(long long x) const {
    while (parent_.at(static_cast<size_t>(x)) != x) x = parent_[static_cast<size_t>(x)];
    return x;
  }

  /// x's root, with path compression (every element on the way then points at the root).
  long long find(long long x, std::optional<std::string> caption = std::nullopt) {
    long long found = root(x);
    for (long long at = x; parent_[static_cast<size_t>(at)] != found;) {
      long long next = parent_[static_cast<size_t>(at)];
      parent_[static_cast<size_t>(at)] = found;
      at = next;
    }
    step("find", std::vector<long long>{x},
         detail::pick(caption, "Find " + std::to_string(x) + ": its root is " + std::to_string(found)));
    return found;
  }

  /// Joins a's and b's sets (the root of lower rank goes under the other; without ranks, b's root
  /// under a's); returns false when they were one set already.
  bool unite(long long a, long long b, std::optional<std::string> caption = std::nullopt) {
    long long rootA = root(a), rootB = root(b);
    std::string fallback = "Union " + std::to_string(a) + " and " + std::to_string(b);
    if (rootA == rootB) {
      fallback = std::to_string(a) + " and " + std::to_string(b) + " are already in one set";
    } else {
      long long upper = rootA, lower = rootB;
      if (rank_) {
        auto& rank = *rank_;
        if (rank[static_cast<size_t>(upper)] < rank[static_cast<size_t>(lower)]) std::swap(upper, lower);
        if (rank[static_cast<size_t>(upper)] == rank[static_cast<size_t>(lower)]) ++rank[static_cast<size_t>(upper)];
      }
      parent_[static_cast<size_t>(lower)] = upper;
    }
    step("union", std::vector<long long>{rootA, rootB}, detail::pick(caption, fallback));
    return rootA != rootB;
  }

  void setParent(long long x, long long parent) {
    parent_.at(static_cast<size_t>(parent));
    parent_.at(static_cast<size_t>(x)) = parent;
  }

  void setRank(long long x, long long rank) {
    if (!rank_) throw RecorderError("this union-find has no ranks (byRank false)");
    rank_->at(static_cast<size_t>(x)) = rank;
  }

  /// Writes the forest; active (elements) is left out when std::nullopt.
  void step(const std::string& action, const Ids& active = std::nullopt,
            std::optional<std::string> caption = std::nullopt) {
    detail::Fields fields;
    fields.add("parent", parent_);
    if (rank_) fields.add("rank", *rank_);
    if (labels_) fields.add("labels", *labels_);
    if (active) {
      for (long long x : *active) parent_.at(static_cast<size_t>(x));
      fields.add("active", *active);
    }
    detail::writeStep(action, fields.body, detail::pick(caption, action));
  }

 private:
  std::vector<long long> parent_;
  std::optional<std::vector<long long>> rank_;
  std::optional<std::vector<std::string>> labels_;
};

}  // namespace dsa

#endif
