/* dsa-run's shape recorders for C (included by <dsa/recorder.h>): one struct per structure
 * (docs/challenges.md, "Step shapes") keeps the structure and its ids (given in creation order,
 * never reused). A call that is one step by nature (push, pop, union, fill, probe...) writes it;
 * an edit an algorithm makes several of before one picture (a relink, a rotation, a move) is
 * silent, and dsa_<shape>_step writes the structure as it is then. Values are long long (a hash
 * map's keys and the labels are strings, copied); DSA_NONE is no node (null); an `active` array
 * that is NULL is left out of the step. Each dsa_<shape>_init has its dsa_<shape>_free.
 */
#ifndef DSA_SHAPES_H
#define DSA_SHAPES_H

#define DSA_NONE (-1LL)

/* ---- shared pieces -------------------------------------------------------------------------- */

static inline char *dsa_strdup_(const char *s) {
  size_t length = strlen(s) + 1;
  char *copy = (char *)dsa_alloc_(NULL, length, 1);
  memcpy(copy, s, length);
  return copy;
}

/* Doubles *capacity when count has reached it; returns 1 when the arrays it sizes must be
 * reallocated to the new *capacity. */
static inline int dsa_full_(size_t count, size_t *capacity) {
  if (count < *capacity) return 0;
  *capacity = *capacity ? *capacity * 2 : 8;
  return 1;
}

#define DSA_RESIZE_(array, capacity) ((array) = dsa_alloc_((array), (capacity), sizeof *(array)))

static inline void dsa_text_id_(dsa_text_ *text, long long id) {
  if (id == DSA_NONE) dsa_text_puts_(text, "null");
  else dsa_text_int_(text, id);
}

static inline void dsa_text_field_(dsa_text_ *text, const char *name) {
  dsa_text_puts_(text, ",\"");
  dsa_text_puts_(text, name);
  dsa_text_puts_(text, "\":");
}

static inline void dsa_text_strings_(dsa_text_ *text, char *const *values, size_t count) {
  size_t k;
  dsa_text_add_(text, "[", 1);
  for (k = 0; k < count; k++) {
    if (k) dsa_text_add_(text, ",", 1);
    dsa_text_string_(text, values[k]);
  }
  dsa_text_add_(text, "]", 1);
}

/* A default caption made with printf's format. */
static inline char *dsa_caption_(const char *format, ...) {
  va_list arguments;
  int length;
  char *out;
  va_start(arguments, format);
  length = vsnprintf(NULL, 0, format, arguments);
  va_end(arguments);
  out = (char *)dsa_alloc_(NULL, (size_t)length + 1, 1);
  va_start(arguments, format);
  vsnprintf(out, (size_t)length + 1, format, arguments);
  va_end(arguments);
  return out;
}

/* Writes the step and frees the default caption. */
static inline void dsa_finish_(dsa_text_ *line, const char *caption, char *fallback) {
  dsa_write_step_(line, caption, fallback);
  free(fallback);
}

static inline void dsa_check_id_(const unsigned char *alive, size_t count, long long id, const char *what,
                                 int or_none) {
  if (or_none && id == DSA_NONE) return;
  if (id < 0 || (size_t)id >= count || !alive[id]) {
    dsa_fail_("no %s %lld: ids are the ones the recorder gave", what, id);
  }
}

/* The algorithm's named node variables, in the order they were first set. */
typedef struct {
  char **names;
  long long *ids;
  size_t count, capacity;
} dsa_pointers_;

static inline void dsa_pointers_set_(dsa_pointers_ *pointers, const char *name, long long id) {
  size_t k;
  for (k = 0; k < pointers->count; k++) {
    if (strcmp(pointers->names[k], name) == 0) {
      pointers->ids[k] = id;
      return;
    }
  }
  if (dsa_full_(pointers->count, &pointers->capacity)) {
    DSA_RESIZE_(pointers->names, pointers->capacity);
    DSA_RESIZE_(pointers->ids, pointers->capacity);
  }
  pointers->names[pointers->count] = dsa_strdup_(name);
  pointers->ids[pointers->count++] = id;
}

static inline void dsa_pointers_clear_(dsa_pointers_ *pointers, long long id) {
  size_t k;
  for (k = 0; k < pointers->count; k++) {
    if (pointers->ids[k] == id) pointers->ids[k] = DSA_NONE;
  }
}

static inline void dsa_pointers_text_(dsa_text_ *text, const dsa_pointers_ *pointers) {
  size_t k;
  dsa_text_add_(text, "{", 1);
  for (k = 0; k < pointers->count; k++) {
    if (k) dsa_text_add_(text, ",", 1);
    dsa_text_string_(text, pointers->names[k]);
    dsa_text_add_(text, ":", 1);
    dsa_text_id_(text, pointers->ids[k]);
  }
  dsa_text_add_(text, "}", 1);
}

static inline void dsa_pointers_free_(dsa_pointers_ *pointers) {
  size_t k;
  for (k = 0; k < pointers->count; k++) free(pointers->names[k]);
  free(pointers->names);
  free(pointers->ids);
}

/* ---- linked list ---------------------------------------------------------------------------- */

typedef struct {
  long long *values, *next, *prev; /* by node id */
  unsigned char *alive;
  size_t count, capacity;   /* ids given so far */
  long long head, tail;     /* DSA_NONE for null; tail and prev only in a doubly linked list */
  int doubly;
  dsa_pointers_ pointers;
} dsa_list;

/* A new node linked to nothing; returns its id. */
static inline long long dsa_list_add(dsa_list *list, long long value) {
  if (dsa_full_(list->count, &list->capacity)) {
    DSA_RESIZE_(list->values, list->capacity);
    DSA_RESIZE_(list->next, list->capacity);
    DSA_RESIZE_(list->prev, list->capacity);
    DSA_RESIZE_(list->alive, list->capacity);
  }
  list->values[list->count] = value;
  list->next[list->count] = DSA_NONE;
  list->prev[list->count] = DSA_NONE;
  list->alive[list->count] = 1;
  return (long long)list->count++;
}

static inline void dsa_list_chain_(dsa_list *list, const long long *values, size_t n, int doubly) {
  size_t k;
  memset(list, 0, sizeof *list);
  list->head = list->tail = DSA_NONE;
  list->doubly = doubly;
  for (k = 0; k < n; k++) {
    long long node = dsa_list_add(list, values[k]);
    if (k == 0) {
      list->head = node;
    } else {
      list->next[node - 1] = node;
      if (doubly) list->prev[node] = node - 1;
    }
    if (doubly) list->tail = node;
  }
}

/* Chains nodes 0 -> 1 -> ... holding values, with the head at 0 (DSA_NONE when n is 0). */
static inline void dsa_list_init(dsa_list *list, const long long *values, size_t n) {
  dsa_list_chain_(list, values, n, 0);
}

/* The same, doubly linked: each node has a prev too, and the list a tail. */
static inline void dsa_list_init_doubly(dsa_list *list, const long long *values, size_t n) {
  dsa_list_chain_(list, values, n, 1);
}

static inline void dsa_list_link(dsa_list *list, long long node, long long next) {
  dsa_check_id_(list->alive, list->count, node, "node", 0);
  dsa_check_id_(list->alive, list->count, next, "node", 1);
  list->next[node] = next;
}

static inline void dsa_list_check_doubly_(const dsa_list *list, const char *call) {
  if (!list->doubly) dsa_fail_("%s is for a doubly linked list: dsa_list_init_doubly", call);
}

/* A doubly linked list's back link. */
static inline void dsa_list_link_prev(dsa_list *list, long long node, long long prev) {
  dsa_list_check_doubly_(list, "dsa_list_link_prev");
  dsa_check_id_(list->alive, list->count, node, "node", 0);
  dsa_check_id_(list->alive, list->count, prev, "node", 1);
  list->prev[node] = prev;
}

static inline void dsa_list_set_tail(dsa_list *list, long long node) {
  dsa_list_check_doubly_(list, "dsa_list_set_tail");
  dsa_check_id_(list->alive, list->count, node, "node", 1);
  list->tail = node;
}

static inline void dsa_list_set_head(dsa_list *list, long long node) {
  dsa_check_id_(list->alive, list->count, node, "node", 1);
  list->head = node;
}

/* Sets the algorithm's pointer name (prev, curr, slow...) to a node id or DSA_NONE. */
static inline void dsa_list_point(dsa_list *list, const char *name, long long node) {
  dsa_check_id_(list->alive, list->count, node, "node", 1);
  dsa_pointers_set_(&list->pointers, name, node);
}

/* The node leaves the list; a link, the head or a pointer to it becomes null. */
static inline void dsa_list_remove(dsa_list *list, long long node) {
  size_t k;
  dsa_check_id_(list->alive, list->count, node, "node", 0);
  list->alive[node] = 0;
  for (k = 0; k < list->count; k++) {
    if (list->alive[k] && list->next[k] == node) list->next[k] = DSA_NONE;
    if (list->alive[k] && list->prev[k] == node) list->prev[k] = DSA_NONE;
  }
  if (list->head == node) list->head = DSA_NONE;
  if (list->tail == node) list->tail = DSA_NONE;
  dsa_pointers_clear_(&list->pointers, node);
}

static inline long long dsa_list_value(const dsa_list *list, long long node) {
  dsa_check_id_(list->alive, list->count, node, "node", 0);
  return list->values[node];
}

static inline long long dsa_list_next(const dsa_list *list, long long node) {
  dsa_check_id_(list->alive, list->count, node, "node", 0);
  return list->next[node];
}

static inline long long dsa_list_prev(const dsa_list *list, long long node) {
  dsa_check_id_(list->alive, list->count, node, "node", 0);
  return list->prev[node];
}

/* Writes the list; active (node ids, active_count of them) is left out when NULL. */
static inline void dsa_list_step(dsa_list *list, const char *action, const long long *active, size_t active_count,
                                 const char *caption) {
  dsa_text_ line;
  size_t k;
  int first = 1;
  for (k = 0; active && k < active_count; k++) dsa_check_id_(list->alive, list->count, active[k], "node", 0);
  dsa_begin_step_(&line, action);
  dsa_text_field_(&line, "head");
  dsa_text_id_(&line, list->head);
  if (list->doubly) {
    dsa_text_field_(&line, "tail");
    dsa_text_id_(&line, list->tail);
  }
  dsa_text_puts_(&line, ",\"nodes\":[");
  for (k = 0; k < list->count; k++) {
    if (!list->alive[k]) continue;
    dsa_text_puts_(&line, first ? "{\"id\":" : ",{\"id\":");
    first = 0;
    dsa_text_int_(&line, (long long)k);
    dsa_text_puts_(&line, ",\"value\":");
    dsa_text_int_(&line, list->values[k]);
    dsa_text_puts_(&line, ",\"next\":");
    dsa_text_id_(&line, list->next[k]);
    if (list->doubly) {
      dsa_text_puts_(&line, ",\"prev\":");
      dsa_text_id_(&line, list->prev[k]);
    }
    dsa_text_puts_(&line, "}");
  }
  dsa_text_puts_(&line, "]");
  dsa_text_field_(&line, "pointers");
  dsa_pointers_text_(&line, &list->pointers);
  if (active) {
    dsa_text_field_(&line, "active");
    dsa_text_ints_(&line, active, active_count);
  }
  dsa_finish_(&line, caption, dsa_strdup_(action));
}

static inline void dsa_list_free(dsa_list *list) {
  free(list->values);
  free(list->next);
  free(list->prev);
  free(list->alive);
  dsa_pointers_free_(&list->pointers);
  memset(list, 0, sizeof *list);
}

/* ---- binary tree ---------------------------------------------------------------------------- */

typedef struct {
  long long *values, *left, *right, *height, *range_low, *range_high; /* by node id */
  unsigned char *alive, *has_height, *has_range;
  size_t count, capacity;
  long long root; /* DSA_NONE for null */
  dsa_pointers_ pointers;
} dsa_tree;

static inline void dsa_tree_init(dsa_tree *tree) {
  memset(tree, 0, sizeof *tree);
  tree->root = DSA_NONE;
}

/* A new node linked to nothing; returns its id (the first node added becomes the root). */
static inline long long dsa_tree_add(dsa_tree *tree, long long value) {
  size_t node = tree->count;
  if (dsa_full_(tree->count, &tree->capacity)) {
    DSA_RESIZE_(tree->values, tree->capacity);
    DSA_RESIZE_(tree->left, tree->capacity);
    DSA_RESIZE_(tree->right, tree->capacity);
    DSA_RESIZE_(tree->height, tree->capacity);
    DSA_RESIZE_(tree->range_low, tree->capacity);
    DSA_RESIZE_(tree->range_high, tree->capacity);
    DSA_RESIZE_(tree->alive, tree->capacity);
    DSA_RESIZE_(tree->has_height, tree->capacity);
    DSA_RESIZE_(tree->has_range, tree->capacity);
  }
  tree->values[node] = value;
  tree->left[node] = tree->right[node] = DSA_NONE;
  tree->alive[node] = 1;
  tree->has_height[node] = tree->has_range[node] = 0;
  tree->count++;
  if (node == 0) tree->root = 0;
  return (long long)node;
}

static inline void dsa_tree_set_left(dsa_tree *tree, long long node, long long child) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  dsa_check_id_(tree->alive, tree->count, child, "node", 1);
  tree->left[node] = child;
}

static inline void dsa_tree_set_right(dsa_tree *tree, long long node, long long child) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  dsa_check_id_(tree->alive, tree->count, child, "node", 1);
  tree->right[node] = child;
}

static inline void dsa_tree_set_root(dsa_tree *tree, long long node) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 1);
  tree->root = node;
}

static inline void dsa_tree_set_value(dsa_tree *tree, long long node, long long value) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  tree->values[node] = value;
}

/* An AVL node's height, written beside the node from now on. */
static inline void dsa_tree_set_height(dsa_tree *tree, long long node, long long height) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  tree->height[node] = height;
  tree->has_height[node] = 1;
}

/* A segment tree node's range [low, high], written beside the node from now on. */
static inline void dsa_tree_set_range(dsa_tree *tree, long long node, long long low, long long high) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  tree->range_low[node] = low;
  tree->range_high[node] = high;
  tree->has_range[node] = 1;
}

static inline void dsa_tree_point(dsa_tree *tree, const char *name, long long node) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 1);
  dsa_pointers_set_(&tree->pointers, name, node);
}

/* The node leaves the tree; a link, the root or a pointer to it becomes null. */
static inline void dsa_tree_remove(dsa_tree *tree, long long node) {
  size_t k;
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  tree->alive[node] = 0;
  for (k = 0; k < tree->count; k++) {
    if (tree->alive[k] && tree->left[k] == node) tree->left[k] = DSA_NONE;
    if (tree->alive[k] && tree->right[k] == node) tree->right[k] = DSA_NONE;
  }
  if (tree->root == node) tree->root = DSA_NONE;
  dsa_pointers_clear_(&tree->pointers, node);
}

static inline long long dsa_tree_value(const dsa_tree *tree, long long node) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  return tree->values[node];
}

static inline long long dsa_tree_left(const dsa_tree *tree, long long node) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  return tree->left[node];
}

static inline long long dsa_tree_right(const dsa_tree *tree, long long node) {
  dsa_check_id_(tree->alive, tree->count, node, "node", 0);
  return tree->right[node];
}

/* Writes the tree; active and visited (node ids) are left out when NULL. */
static inline void dsa_tree_step(dsa_tree *tree, const char *action, const long long *active, size_t active_count,
                                 const long long *visited, size_t visited_count, const char *caption) {
  dsa_text_ line;
  size_t k;
  int first = 1;
  for (k = 0; active && k < active_count; k++) dsa_check_id_(tree->alive, tree->count, active[k], "node", 0);
  for (k = 0; visited && k < visited_count; k++) dsa_check_id_(tree->alive, tree->count, visited[k], "node", 0);
  dsa_begin_step_(&line, action);
  dsa_text_field_(&line, "root");
  dsa_text_id_(&line, tree->root);
  dsa_text_puts_(&line, ",\"nodes\":[");
  for (k = 0; k < tree->count; k++) {
    if (!tree->alive[k]) continue;
    dsa_text_puts_(&line, first ? "{\"id\":" : ",{\"id\":");
    first = 0;
    dsa_text_int_(&line, (long long)k);
    dsa_text_puts_(&line, ",\"value\":");
    dsa_text_int_(&line, tree->values[k]);
    dsa_text_puts_(&line, ",\"left\":");
    dsa_text_id_(&line, tree->left[k]);
    dsa_text_puts_(&line, ",\"right\":");
    dsa_text_id_(&line, tree->right[k]);
    if (tree->has_height[k]) {
      dsa_text_puts_(&line, ",\"height\":");
      dsa_text_int_(&line, tree->height[k]);
    }
    if (tree->has_range[k]) {
      long long range[2];
      range[0] = tree->range_low[k];
      range[1] = tree->range_high[k];
      dsa_text_puts_(&line, ",\"range\":");
      dsa_text_ints_(&line, range, 2);
    }
    dsa_text_puts_(&line, "}");
  }
  dsa_text_puts_(&line, "]");
  if (tree->pointers.count) {
    dsa_text_field_(&line, "pointers");
    dsa_pointers_text_(&line, &tree->pointers);
  }
  if (active) {
    dsa_text_field_(&line, "active");
    dsa_text_ints_(&line, active, active_count);
  }
  if (visited) {
    dsa_text_field_(&line, "visited");
    dsa_text_ints_(&line, visited, visited_count);
  }
  dsa_finish_(&line, caption, dsa_strdup_(action));
}

static inline void dsa_tree_free(dsa_tree *tree) {
  free(tree->values);
  free(tree->left);
  free(tree->right);
  free(tree->height);
  free(tree->range_low);
  free(tree->range_high);
  free(tree->alive);
  free(tree->has_height);
  free(tree->has_range);
  dsa_pointers_free_(&tree->pointers);
  memset(tree, 0, sizeof *tree);
}

/* ---- heap ----------------------------------------------------------------------------------- */

typedef struct {
  long long *heap, *ids; /* array order: index i's children at 2i+1 and 2i+2 */
  size_t size, capacity;
  long long next_id;
} dsa_heap;

static inline void dsa_heap_room_(dsa_heap *heap) {
  if (dsa_full_(heap->size, &heap->capacity)) {
    DSA_RESIZE_(heap->heap, heap->capacity);
    DSA_RESIZE_(heap->ids, heap->capacity);
  }
}

/* Copies values; element k gets the id k. */
static inline void dsa_heap_init(dsa_heap *heap, const long long *values, size_t n) {
  size_t k;
  memset(heap, 0, sizeof *heap);
  for (k = 0; k < n; k++) {
    dsa_heap_room_(heap);
    heap->heap[heap->size] = values[k];
    heap->ids[heap->size++] = heap->next_id++;
  }
}

static inline void dsa_heap_check_(const dsa_heap *heap, size_t i) {
  if (i >= heap->size) dsa_fail_("index %zu is outside the heap's %zu elements", i, heap->size);
}

static inline void dsa_heap_write_(dsa_heap *heap, const char *action, const long long *active, size_t active_count,
                                   const char *caption, char *fallback) {
  dsa_text_ line;
  size_t k;
  for (k = 0; active && k < active_count; k++) dsa_heap_check_(heap, (size_t)active[k]);
  dsa_begin_step_(&line, action);
  dsa_text_field_(&line, "heap");
  dsa_text_ints_(&line, heap->heap, heap->size);
  dsa_text_field_(&line, "ids");
  dsa_text_ints_(&line, heap->ids, heap->size);
  dsa_text_field_(&line, "active");
  dsa_text_ints_(&line, active, active ? active_count : 0);
  dsa_finish_(&line, caption, fallback);
}

/* Writes the heap with active indices (active_count of them; NULL for none). */
static inline void dsa_heap_step(dsa_heap *heap, const char *action, const long long *active, size_t active_count,
                                 const char *caption) {
  dsa_heap_write_(heap, action, active, active_count, caption, dsa_strdup_(action));
}

/* Appends value (a fresh id) at the end; sifting it up is the algorithm's compares and swaps. */
static inline void dsa_heap_push(dsa_heap *heap, long long value, const char *caption) {
  long long at;
  dsa_heap_room_(heap);
  heap->heap[heap->size] = value;
  heap->ids[heap->size++] = heap->next_id++;
  at = (long long)heap->size - 1;
  dsa_heap_write_(heap, "push", &at, 1, caption, dsa_caption_("Push %lld", value));
}

/* Takes the root out, moves the last element to the root and returns the root's value. */
static inline long long dsa_heap_pop(dsa_heap *heap, const char *caption) {
  long long value, root = 0;
  if (heap->size == 0) dsa_fail_("pop from an empty heap");
  value = heap->heap[0];
  heap->size--;
  heap->heap[0] = heap->heap[heap->size];
  heap->ids[0] = heap->ids[heap->size];
  dsa_heap_write_(heap, "pop", &root, heap->size ? 1 : 0, caption, dsa_caption_("Pop %lld", value));
  return value;
}

static inline void dsa_heap_compare(dsa_heap *heap, size_t i, size_t j, const char *caption) {
  long long active[2];
  dsa_heap_check_(heap, i);
  dsa_heap_check_(heap, j);
  active[0] = (long long)i;
  active[1] = (long long)j;
  dsa_heap_write_(heap, "compare", active, 2, caption,
                  dsa_caption_("Compare index %zu (%lld) with index %zu (%lld)", i, heap->heap[i], j, heap->heap[j]));
}

static inline void dsa_heap_swap(dsa_heap *heap, size_t i, size_t j, const char *caption) {
  long long active[2], value, id;
  dsa_heap_check_(heap, i);
  dsa_heap_check_(heap, j);
  value = heap->heap[i];
  heap->heap[i] = heap->heap[j];
  heap->heap[j] = value;
  id = heap->ids[i];
  heap->ids[i] = heap->ids[j];
  heap->ids[j] = id;
  active[0] = (long long)i;
  active[1] = (long long)j;
  dsa_heap_write_(heap, "swap", active, 2, caption, dsa_caption_("Swap index %zu and index %zu", i, j));
}

static inline void dsa_heap_free(dsa_heap *heap) {
  free(heap->heap);
  free(heap->ids);
  memset(heap, 0, sizeof *heap);
}

/* ---- stack, queue, deque -------------------------------------------------------------------- */

typedef struct {
  char kind[6];           /* "stack", "queue" or "deque": the step's list name */
  long long *items, *ids; /* bottom to top, or front to back */
  size_t size, capacity;
  long long next_id;
} dsa_stack;

static inline void dsa_stack_write_(dsa_stack *stack, const char *action, const long long *moved_id,
                                    long long moved_value, const char *caption, char *fallback) {
  dsa_text_ line;
  dsa_begin_step_(&line, action);
  dsa_text_field_(&line, stack->kind);
  dsa_text_ints_(&line, stack->items, stack->size);
  dsa_text_field_(&line, "ids");
  dsa_text_ints_(&line, stack->ids, stack->size);
  dsa_text_field_(&line, "moved");
  if (moved_id) {
    dsa_text_puts_(&line, "{\"id\":");
    dsa_text_int_(&line, *moved_id);
    dsa_text_puts_(&line, ",\"value\":");
    dsa_text_int_(&line, moved_value);
    dsa_text_puts_(&line, "}");
  } else {
    dsa_text_puts_(&line, "null");
  }
  dsa_finish_(&line, caption, fallback);
}

static inline void dsa_stack_add_(dsa_stack *stack, int front, long long value, const char *action,
                                  const char *caption, const char *format) {
  long long id = stack->next_id++;
  size_t at = front ? 0 : stack->size;
  if (dsa_full_(stack->size, &stack->capacity)) {
    DSA_RESIZE_(stack->items, stack->capacity);
    DSA_RESIZE_(stack->ids, stack->capacity);
  }
  memmove(stack->items + at + 1, stack->items + at, (stack->size - at) * sizeof(long long));
  memmove(stack->ids + at + 1, stack->ids + at, (stack->size - at) * sizeof(long long));
  stack->items[at] = value;
  stack->ids[at] = id;
  stack->size++;
  dsa_stack_write_(stack, action, &id, value, caption, dsa_caption_(format, value));
}

static inline long long dsa_stack_take_(dsa_stack *stack, int front, const char *action, const char *caption,
                                        const char *format) {
  size_t at;
  long long value, id;
  if (stack->size == 0) dsa_fail_("%s from an empty %s", action, stack->kind);
  at = front ? 0 : stack->size - 1;
  value = stack->items[at];
  id = stack->ids[at];
  memmove(stack->items + at, stack->items + at + 1, (stack->size - at - 1) * sizeof(long long));
  memmove(stack->ids + at, stack->ids + at + 1, (stack->size - at - 1) * sizeof(long long));
  stack->size--;
  dsa_stack_write_(stack, action, &id, value, caption, dsa_caption_(format, value));
  return value;
}

/* kind: "stack", "queue" or "deque"; copies values (element k gets the id k; NULL, 0 for none). */
static inline void dsa_stack_init(dsa_stack *stack, const char *kind, const long long *values, size_t n) {
  size_t k;
  memset(stack, 0, sizeof *stack);
  if (strcmp(kind, "stack") != 0 && strcmp(kind, "queue") != 0 && strcmp(kind, "deque") != 0) {
    dsa_fail_("kind is stack, queue or deque, not %s", kind);
  }
  strcpy(stack->kind, kind);
  for (k = 0; k < n; k++) {
    if (dsa_full_(stack->size, &stack->capacity)) {
      DSA_RESIZE_(stack->items, stack->capacity);
      DSA_RESIZE_(stack->ids, stack->capacity);
    }
    stack->items[stack->size] = values[k];
    stack->ids[stack->size++] = stack->next_id++;
  }
}

static inline void dsa_stack_push(dsa_stack *stack, long long value, const char *caption) {
  dsa_stack_add_(stack, 0, value, "push", caption, "Push %lld");
}
static inline long long dsa_stack_pop(dsa_stack *stack, const char *caption) {
  return dsa_stack_take_(stack, 0, "pop", caption, "Pop %lld");
}
static inline void dsa_stack_enqueue(dsa_stack *stack, long long value, const char *caption) {
  dsa_stack_add_(stack, 0, value, "enqueue", caption, "Enqueue %lld");
}
static inline long long dsa_stack_dequeue(dsa_stack *stack, const char *caption) {
  return dsa_stack_take_(stack, 1, "dequeue", caption, "Dequeue %lld");
}
static inline void dsa_stack_push_front(dsa_stack *stack, long long value, const char *caption) {
  dsa_stack_add_(stack, 1, value, "push_front", caption, "Push %lld at the front");
}
static inline void dsa_stack_push_back(dsa_stack *stack, long long value, const char *caption) {
  dsa_stack_add_(stack, 0, value, "push_back", caption, "Push %lld at the back");
}
static inline long long dsa_stack_pop_front(dsa_stack *stack, const char *caption) {
  return dsa_stack_take_(stack, 1, "pop_front", caption, "Pop %lld from the front");
}
static inline long long dsa_stack_pop_back(dsa_stack *stack, const char *caption) {
  return dsa_stack_take_(stack, 0, "pop_back", caption, "Pop %lld from the back");
}

/* The top of a stack, the front of a queue or deque; moved is null. */
static inline long long dsa_stack_peek(dsa_stack *stack, const char *caption) {
  long long value;
  if (stack->size == 0) dsa_fail_("peek at an empty %s", stack->kind);
  value = strcmp(stack->kind, "stack") == 0 ? stack->items[stack->size - 1] : stack->items[0];
  dsa_stack_write_(stack, "peek", NULL, 0, caption, dsa_caption_("Peek %lld", value));
  return value;
}

static inline void dsa_stack_step(dsa_stack *stack, const char *action, const char *caption) {
  dsa_stack_write_(stack, action, NULL, 0, caption, dsa_strdup_(action));
}

static inline void dsa_stack_free(dsa_stack *stack) {
  free(stack->items);
  free(stack->ids);
  memset(stack, 0, sizeof *stack);
}

/* ---- hash map ------------------------------------------------------------------------------- */

typedef struct {
  char **keys;               /* by entry id (the recorder's copies) */
  long long *values, *bucket, *order; /* an entry's place: its bucket, then its order there */
  unsigned char *alive, *deleted; /* deleted: a tombstone */
  size_t count, capacity;    /* ids given so far */
  size_t bucket_count;
  long long next_order;
  char *key;                 /* the operation's key and hash (NULL, has_hash 0 before dsa_map_start) */
  long long hash;
  int has_hash;
  long long *probe;
  size_t probe_count, probe_capacity;
} dsa_map;

static inline void dsa_map_init(dsa_map *map, size_t bucket_count) {
  memset(map, 0, sizeof *map);
  map->bucket_count = bucket_count;
}

static inline void dsa_map_check_bucket_(const dsa_map *map, size_t bucket) {
  if (bucket >= map->bucket_count) dsa_fail_("bucket %zu is outside the map's %zu buckets", bucket, map->bucket_count);
}

static inline void dsa_map_write_(dsa_map *map, const char *action, const long long *active, size_t active_count,
                                  const char *caption, char *fallback) {
  dsa_text_ line;
  size_t b, k;
  for (k = 0; active && k < active_count; k++) dsa_check_id_(map->alive, map->count, active[k], "entry", 0);
  dsa_begin_step_(&line, action);
  dsa_text_puts_(&line, ",\"buckets\":[");
  for (b = 0; b < map->bucket_count; b++) {
    long long last = -1;
    int first = 1;
    dsa_text_puts_(&line, b ? ",[" : "[");
    for (;;) { /* the bucket's entries by their order there */
      size_t next = map->count;
      for (k = 0; k < map->count; k++) {
        if (map->alive[k] && map->bucket[k] == (long long)b && map->order[k] > last &&
            (next == map->count || map->order[k] < map->order[next])) {
          next = k;
        }
      }
      if (next == map->count) break;
      last = map->order[next];
      dsa_text_puts_(&line, first ? "{\"id\":" : ",{\"id\":");
      first = 0;
      dsa_text_int_(&line, (long long)next);
      dsa_text_puts_(&line, ",\"key\":");
      dsa_text_string_(&line, map->keys[next]);
      dsa_text_puts_(&line, ",\"value\":");
      dsa_text_int_(&line, map->values[next]);
      dsa_text_puts_(&line, map->deleted[next] ? ",\"deleted\":true}" : "}");
    }
    dsa_text_puts_(&line, "]");
  }
  dsa_text_puts_(&line, "]");
  dsa_text_field_(&line, "key");
  if (map->key) dsa_text_string_(&line, map->key);
  else dsa_text_puts_(&line, "null");
  dsa_text_field_(&line, "hash");
  if (map->has_hash) dsa_text_int_(&line, map->hash);
  else dsa_text_puts_(&line, "null");
  dsa_text_field_(&line, "probe");
  dsa_text_ints_(&line, map->probe, map->probe_count);
  if (active) {
    dsa_text_field_(&line, "active");
    dsa_text_ints_(&line, active, active_count);
  }
  dsa_finish_(&line, caption, fallback);
}

/* An operation on key begins: its key and hash are written from now on, the probe starts empty. */
static inline void dsa_map_start(dsa_map *map, const char *key, long long hash) {
  free(map->key);
  map->key = dsa_strdup_(key);
  map->hash = hash;
  map->has_hash = 1;
  map->probe_count = 0;
}

static inline void dsa_map_probe(dsa_map *map, size_t bucket, const char *caption) {
  dsa_map_check_bucket_(map, bucket);
  if (dsa_full_(map->probe_count, &map->probe_capacity)) DSA_RESIZE_(map->probe, map->probe_capacity);
  map->probe[map->probe_count++] = (long long)bucket;
  dsa_map_write_(map, "probe", NULL, 0, caption, dsa_caption_("Probe bucket %zu", bucket));
}

/* Adds the entry at the end of bucket; returns its id. */
static inline long long dsa_map_insert(dsa_map *map, size_t bucket, const char *key, long long value,
                                       const char *caption) {
  long long id = (long long)map->count;
  dsa_text_ fallback = {NULL, 0, 0};
  dsa_map_check_bucket_(map, bucket);
  if (dsa_full_(map->count, &map->capacity)) {
    DSA_RESIZE_(map->keys, map->capacity);
    DSA_RESIZE_(map->values, map->capacity);
    DSA_RESIZE_(map->bucket, map->capacity);
    DSA_RESIZE_(map->order, map->capacity);
    DSA_RESIZE_(map->alive, map->capacity);
    DSA_RESIZE_(map->deleted, map->capacity);
  }
  map->keys[id] = dsa_strdup_(key);
  map->values[id] = value;
  map->bucket[id] = (long long)bucket;
  map->order[id] = map->next_order++;
  map->alive[id] = 1;
  map->deleted[id] = 0;
  map->count++;
  dsa_text_puts_(&fallback, "Put ");
  dsa_text_string_(&fallback, key);
  dsa_text_puts_(&fallback, " in bucket ");
  dsa_text_int_(&fallback, (long long)bucket);
  dsa_map_write_(map, "insert", &id, 1, caption, fallback.data);
  return id;
}

static inline void dsa_map_remove(dsa_map *map, long long id, const char *caption) {
  dsa_text_ fallback = {NULL, 0, 0};
  dsa_check_id_(map->alive, map->count, id, "entry", 0);
  dsa_text_puts_(&fallback, "Remove ");
  dsa_text_string_(&fallback, map->keys[id]);
  map->bucket[id] = -1; /* out of every bucket, still an entry for this step's active */
  dsa_map_write_(map, "remove", &id, 1, caption, fallback.data);
  map->alive[id] = 0;
  free(map->keys[id]);
  map->keys[id] = NULL;
}

static inline void dsa_map_set_value(dsa_map *map, long long id, long long value) {
  dsa_check_id_(map->alive, map->count, id, "entry", 0);
  map->values[id] = value;
}

/* Open addressing's delete: the entry stays in its bucket as a tombstone ("deleted": true). */
static inline void dsa_map_mark_deleted(dsa_map *map, long long id, const char *caption) {
  dsa_text_ fallback = {NULL, 0, 0};
  dsa_check_id_(map->alive, map->count, id, "entry", 0);
  map->deleted[id] = 1;
  dsa_text_puts_(&fallback, "Delete ");
  dsa_text_string_(&fallback, map->keys[id]);
  dsa_text_puts_(&fallback, ": a tombstone stays");
  dsa_map_write_(map, "delete", &id, 1, caption, fallback.data);
}

/* More buckets (entries stay where they are until moved). */
static inline void dsa_map_resize(dsa_map *map, size_t bucket_count) {
  if (bucket_count < map->bucket_count) dsa_fail_("a hash map grows: move the entries, then resize to more buckets");
  map->bucket_count = bucket_count;
}

/* Moves the entry to the end of bucket (a rehash); no step. */
static inline void dsa_map_move(dsa_map *map, long long id, size_t bucket) {
  dsa_check_id_(map->alive, map->count, id, "entry", 0);
  dsa_map_check_bucket_(map, bucket);
  map->bucket[id] = (long long)bucket;
  map->order[id] = map->next_order++;
}

static inline const char *dsa_map_key(const dsa_map *map, long long id) {
  dsa_check_id_(map->alive, map->count, id, "entry", 0);
  return map->keys[id];
}

static inline long long dsa_map_value(const dsa_map *map, long long id) {
  dsa_check_id_(map->alive, map->count, id, "entry", 0);
  return map->values[id];
}

/* Writes the table; active (entry ids) is left out when NULL. */
static inline void dsa_map_step(dsa_map *map, const char *action, const long long *active, size_t active_count,
                                const char *caption) {
  dsa_map_write_(map, action, active, active_count, caption, dsa_strdup_(action));
}

static inline void dsa_map_free(dsa_map *map) {
  size_t k;
  for (k = 0; k < map->count; k++) free(map->keys[k]);
  free(map->keys);
  free(map->values);
  free(map->bucket);
  free(map->order);
  free(map->alive);
  free(map->deleted);
  free(map->key);
  free(map->probe);
  memset(map, 0, sizeof *map);
}

/* ---- DP table ------------------------------------------------------------------------------- */

typedef struct {
  long long *cells;        /* row by row */
  unsigned char *filled;   /* 0: not computed yet (null) */
  size_t rows, cols, dimensions; /* dimensions 1: rows cells; 2: rows by cols */
  char **row_labels, **col_labels;
  size_t row_label_count, col_label_count;
} dsa_table;

static inline void dsa_table_make_(dsa_table *table, size_t rows, size_t cols, size_t dimensions) {
  size_t count = rows * cols;
  memset(table, 0, sizeof *table);
  table->cells = (long long *)dsa_alloc_(NULL, count, sizeof(long long));
  table->filled = (unsigned char *)dsa_alloc_(NULL, count, 1);
  memset(table->filled, 0, count ? count : 1);
  table->rows = rows;
  table->cols = cols;
  table->dimensions = dimensions;
}

/* A 1-D table of n cells; a cell is {i}. */
static inline void dsa_table_init(dsa_table *table, size_t n) { dsa_table_make_(table, n, 1, 1); }

/* A 2-D table of rows by cols cells; a cell is {row, column}. */
static inline void dsa_table_init_2d(dsa_table *table, size_t rows, size_t cols) {
  dsa_table_make_(table, rows, cols, 2);
}

static inline char **dsa_copy_strings_(const char *const *strings, size_t count) {
  size_t k;
  char **copies = (char **)dsa_alloc_(NULL, count, sizeof(char *));
  for (k = 0; k < count; k++) copies[k] = dsa_strdup_(strings[k]);
  return copies;
}

/* Row and column headers (copied; NULL, 0 for none), written with every step. */
static inline void dsa_table_labels(dsa_table *table, const char *const *row_labels, size_t row_count,
                                    const char *const *col_labels, size_t col_count) {
  if (row_labels) {
    table->row_labels = dsa_copy_strings_(row_labels, row_count);
    table->row_label_count = row_count;
  }
  if (col_labels) {
    table->col_labels = dsa_copy_strings_(col_labels, col_count);
    table->col_label_count = col_count;
  }
}

static inline size_t dsa_table_at_(const dsa_table *table, const long long *cell) {
  if (table->dimensions == 1 && cell[0] >= 0 && (size_t)cell[0] < table->rows) return (size_t)cell[0];
  if (table->dimensions == 2 && cell[0] >= 0 && (size_t)cell[0] < table->rows && cell[1] >= 0 &&
      (size_t)cell[1] < table->cols) {
    return (size_t)cell[0] * table->cols + (size_t)cell[1];
  }
  dsa_fail_("no cell %lld%s%lld in this table", cell[0], table->dimensions == 2 ? "," : "",
            table->dimensions == 2 ? cell[1] : 0LL);
  return 0;
}

/* Cell's value into *value; returns 0 (and leaves *value) when it is not computed yet. */
static inline int dsa_table_get(const dsa_table *table, const long long *cell, long long *value) {
  size_t at = dsa_table_at_(table, cell);
  if (table->filled[at]) *value = table->cells[at];
  return table->filled[at];
}

/* Sets a cell without a step (base cases before the first step). */
static inline void dsa_table_set(dsa_table *table, const long long *cell, long long value) {
  size_t at = dsa_table_at_(table, cell);
  table->cells[at] = value;
  table->filled[at] = 1;
}

static inline void dsa_table_write_(dsa_table *table, const char *action, const long long *cell,
                                    const long long *reads, size_t read_count, const char *caption, char *fallback) {
  dsa_text_ line;
  size_t r, c, k, width = table->dimensions == 2 ? table->cols : table->rows;
  dsa_begin_step_(&line, action);
  dsa_text_puts_(&line, table->dimensions == 2 ? ",\"table\":[" : ",\"table\":");
  for (r = 0; r < (table->dimensions == 2 ? table->rows : 1); r++) {
    dsa_text_puts_(&line, r ? ",[" : "[");
    for (c = 0; c < width; c++) {
      size_t at = r * width + c;
      if (c) dsa_text_puts_(&line, ",");
      if (table->filled[at]) dsa_text_int_(&line, table->cells[at]);
      else dsa_text_puts_(&line, "null");
    }
    dsa_text_puts_(&line, "]");
  }
  if (table->dimensions == 2) dsa_text_puts_(&line, "]");
  if (table->row_labels) {
    dsa_text_field_(&line, "row_labels");
    dsa_text_strings_(&line, table->row_labels, table->row_label_count);
  }
  if (table->col_labels) {
    dsa_text_field_(&line, "col_labels");
    dsa_text_strings_(&line, table->col_labels, table->col_label_count);
  }
  dsa_text_field_(&line, "cell");
  if (cell) dsa_text_ints_(&line, cell, table->dimensions);
  else dsa_text_puts_(&line, "null");
  dsa_text_puts_(&line, ",\"reads\":[");
  for (k = 0; k < read_count; k++) {
    if (k) dsa_text_puts_(&line, ",");
    dsa_text_ints_(&line, reads + k * table->dimensions, table->dimensions);
  }
  dsa_text_puts_(&line, "]");
  dsa_finish_(&line, caption, fallback);
}

/* Sets cell to value, computed from the read_count cells in reads (one after the other: i, i, ...
 * in a 1-D table; row, column, row, column, ... in a 2-D one). */
static inline void dsa_table_fill(dsa_table *table, const long long *cell, long long value, const long long *reads,
                                  size_t read_count, const char *caption) {
  size_t k;
  dsa_table_set(table, cell, value);
  for (k = 0; k < read_count; k++) dsa_table_at_(table, reads + k * table->dimensions);
  dsa_table_write_(table, "fill", cell, reads, read_count, caption,
                   table->dimensions == 2 ? dsa_caption_("Cell (%lld,%lld) = %lld", cell[0], cell[1], value)
                                          : dsa_caption_("Cell (%lld) = %lld", cell[0], value));
}

static inline void dsa_table_step(dsa_table *table, const char *action, const char *caption) {
  dsa_table_write_(table, action, NULL, NULL, 0, caption, dsa_strdup_(action));
}

static inline void dsa_table_free(dsa_table *table) {
  size_t k;
  for (k = 0; k < table->row_label_count; k++) free(table->row_labels[k]);
  for (k = 0; k < table->col_label_count; k++) free(table->col_labels[k]);
  free(table->row_labels);
  free(table->col_labels);
  free(table->cells);
  free(table->filled);
  memset(table, 0, sizeof *table);
}

/* ---- string matching ------------------------------------------------------------------------ */

typedef struct {
  char *text, *pattern; /* copies; indexed by character (a UTF-8 code point) */
  long long offset, index; /* index DSA_NONE for null */
  long long *found;
  size_t found_count, found_capacity;
  long long *failure; /* KMP's table, NULL before dsa_match_set_failure */
  size_t failure_count;
  long long window_hash, pattern_hash;
  int has_hashes;
} dsa_match;

static inline void dsa_match_init(dsa_match *match, const char *text, const char *pattern) {
  memset(match, 0, sizeof *match);
  match->text = dsa_strdup_(text);
  match->pattern = dsa_strdup_(pattern);
  match->index = DSA_NONE;
}

/* The JSON text of s's character at index (a code point); fails past the end. */
static inline void dsa_text_character_(dsa_text_ *text, const char *s, long long index, const char *what) {
  const unsigned char *c = (const unsigned char *)s;
  char character[5] = {0};
  size_t length = 0;
  long long k;
  for (k = 0; *c && k < index; k++) {
    c++;
    while ((*c & 0xC0) == 0x80) c++;
  }
  if (index < 0 || !*c) dsa_fail_("%s has no character %lld", what, index);
  do {
    character[length++] = (char)*c++;
  } while (length < 4 && (*c & 0xC0) == 0x80);
  dsa_text_string_(text, character);
}

static inline void dsa_match_write_(dsa_match *match, const char *action, long long failure_at, const char *caption,
                                    char *fallback) {
  dsa_text_ line;
  dsa_begin_step_(&line, action);
  dsa_text_field_(&line, "text");
  dsa_text_string_(&line, match->text);
  dsa_text_field_(&line, "pattern");
  dsa_text_string_(&line, match->pattern);
  dsa_text_field_(&line, "offset");
  dsa_text_int_(&line, match->offset);
  dsa_text_field_(&line, "index");
  dsa_text_id_(&line, match->index);
  dsa_text_field_(&line, "found");
  dsa_text_ints_(&line, match->found, match->found_count);
  if (match->failure) {
    dsa_text_field_(&line, "failure");
    dsa_text_ints_(&line, match->failure, match->failure_count);
    dsa_text_field_(&line, "failure_at");
    dsa_text_id_(&line, failure_at);
  }
  if (match->has_hashes) {
    dsa_text_field_(&line, "window_hash");
    dsa_text_int_(&line, match->window_hash);
    dsa_text_field_(&line, "pattern_hash");
    dsa_text_int_(&line, match->pattern_hash);
  }
  dsa_finish_(&line, caption, fallback);
}

/* KMP's failure table (copied): written with every step from now on (with failure_at). */
static inline void dsa_match_set_failure(dsa_match *match, const long long *failure, size_t n) {
  free(match->failure);
  match->failure = (long long *)dsa_alloc_(NULL, n, sizeof(long long));
  if (n) memcpy(match->failure, failure, n * sizeof(long long));
  match->failure_count = n;
}

/* Compares text[offset + index] with pattern[index]. */
static inline void dsa_match_compare(dsa_match *match, long long offset, long long index, const char *caption) {
  dsa_text_ fallback = {NULL, 0, 0};
  char number[64];
  snprintf(number, sizeof number, "Compare text[%lld] (", offset + index);
  dsa_text_puts_(&fallback, number);
  dsa_text_character_(&fallback, match->text, offset + index, "the text");
  snprintf(number, sizeof number, ") with pattern[%lld] (", index);
  dsa_text_puts_(&fallback, number);
  dsa_text_character_(&fallback, match->pattern, index, "the pattern");
  dsa_text_puts_(&fallback, ")");
  match->offset = offset;
  match->index = index;
  dsa_match_write_(match, "compare", DSA_NONE, caption, fallback.data);
}

/* Slides the pattern to offset, going on at pattern[index]. */
static inline void dsa_match_shift(dsa_match *match, long long offset, long long index, const char *caption) {
  match->offset = offset;
  match->index = index;
  dsa_match_write_(match, "shift", DSA_NONE, caption, dsa_caption_("Shift the pattern to offset %lld", offset));
}

/* KMP after a mismatch at pattern[j]: goes on at failure[failure_at] (j - 1), the offset moving
 * with it. */
static inline void dsa_match_shift_by_failure(dsa_match *match, long long failure_at, const char *caption) {
  long long resume;
  if (!match->failure) dsa_fail_("dsa_match_shift_by_failure needs the failure table: call dsa_match_set_failure first");
  if (failure_at < 0 || (size_t)failure_at >= match->failure_count) dsa_fail_("no failure[%lld]", failure_at);
  resume = match->failure[failure_at];
  match->offset += (match->index == DSA_NONE ? 0 : match->index) - resume;
  match->index = resume;
  dsa_match_write_(match, "shift", failure_at, caption,
                   dsa_caption_("failure[%lld] is %lld: shift the pattern to offset %lld", failure_at, resume,
                                match->offset));
}

/* The pattern occurs at offset: it joins found. */
static inline void dsa_match_found(dsa_match *match, long long offset, const char *caption) {
  match->offset = offset;
  if (dsa_full_(match->found_count, &match->found_capacity)) DSA_RESIZE_(match->found, match->found_capacity);
  match->found[match->found_count++] = offset;
  dsa_match_write_(match, "found", DSA_NONE, caption, dsa_caption_("Found the pattern at offset %lld", offset));
}

/* Rabin-Karp: the window at offset has window_hash; both hashes are written from now on. */
static inline void dsa_match_hash(dsa_match *match, long long offset, long long window_hash, long long pattern_hash,
                                  const char *caption) {
  match->offset = offset;
  match->index = DSA_NONE;
  match->window_hash = window_hash;
  match->pattern_hash = pattern_hash;
  match->has_hashes = 1;
  dsa_match_write_(match, "hash", DSA_NONE, caption,
                   dsa_caption_("Offset %lld: window hash %lld, pattern hash %lld", offset, window_hash, pattern_hash));
}

static inline void dsa_match_step(dsa_match *match, const char *action, const char *caption) {
  dsa_match_write_(match, action, DSA_NONE, caption, dsa_strdup_(action));
}

static inline void dsa_match_free(dsa_match *match) {
  free(match->text);
  free(match->pattern);
  free(match->found);
  free(match->failure);
  memset(match, 0, sizeof *match);
}

/* ---- union-find ----------------------------------------------------------------------------- */

typedef struct {
  long long *parent, *rank; /* rank NULL without union by rank */
  size_t size;
  char **labels;            /* NULL for none */
} dsa_uf;

/* n sets of one element, with union by rank when by_rank is not 0. */
static inline void dsa_uf_init(dsa_uf *sets, size_t n, int by_rank) {
  size_t k;
  memset(sets, 0, sizeof *sets);
  sets->size = n;
  sets->parent = (long long *)dsa_alloc_(NULL, n, sizeof(long long));
  for (k = 0; k < n; k++) sets->parent[k] = (long long)k;
  if (by_rank) {
    sets->rank = (long long *)dsa_alloc_(NULL, n, sizeof(long long));
    for (k = 0; k < n; k++) sets->rank[k] = 0;
  }
}

/* Names for the elements (size of them, copied), written with every step. */
static inline void dsa_uf_labels(dsa_uf *sets, const char *const *labels) {
  sets->labels = dsa_copy_strings_(labels, sets->size);
}

static inline void dsa_uf_check_(const dsa_uf *sets, long long x) {
  if (x < 0 || (size_t)x >= sets->size) dsa_fail_("no element %lld in this union-find", x);
}

static inline void dsa_uf_write_(dsa_uf *sets, const char *action, const long long *active, size_t active_count,
                                 const char *caption, char *fallback) {
  dsa_text_ line;
  size_t k;
  for (k = 0; active && k < active_count; k++) dsa_uf_check_(sets, active[k]);
  dsa_begin_step_(&line, action);
  dsa_text_field_(&line, "parent");
  dsa_text_ints_(&line, sets->parent, sets->size);
  if (sets->rank) {
    dsa_text_field_(&line, "rank");
    dsa_text_ints_(&line, sets->rank, sets->size);
  }
  if (sets->labels) {
    dsa_text_field_(&line, "labels");
    dsa_text_strings_(&line, sets->labels, sets->size);
  }
  if (active) {
    dsa_text_field_(&line, "active");
    dsa_text_ints_(&line, active, active_count);
  }
  dsa_finish_(&line, caption, fallback);
}

/* x's root, changing nothing and writing no step. */
static inline long long dsa_uf_root(const dsa_uf *sets, long long x) {
  dsa_uf_check_(sets, x);
  while (sets->parent[x] != x) x = sets->parent[x];
  return x;
}

/* x's root, with path compression (every element on the way then points at the root). */
static inline long long dsa_uf_find(dsa_uf *sets, long long x, const char *caption) {
  long long root = dsa_uf_root(sets, x), at = x;
  while (sets->parent[at] != root) {
    long long next = sets->parent[at];
    sets->parent[at] = root;
    at = next;
  }
  dsa_uf_write_(sets, "find", &x, 1, caption, dsa_caption_("Find %lld: its root is %lld", x, root));
  return root;
}

/* Joins a's and b's sets (the root of lower rank goes under the other; without ranks, b's root
 * under a's); returns 0 when they were one set already. */
static inline int dsa_uf_union(dsa_uf *sets, long long a, long long b, const char *caption) {
  long long roots[2];
  roots[0] = dsa_uf_root(sets, a);
  roots[1] = dsa_uf_root(sets, b);
  if (roots[0] != roots[1]) {
    long long upper = roots[0], lower = roots[1];
    if (sets->rank) {
      if (sets->rank[upper] < sets->rank[lower]) {
        upper = roots[1];
        lower = roots[0];
      }
      if (sets->rank[upper] == sets->rank[lower]) sets->rank[upper]++;
    }
    sets->parent[lower] = upper;
  }
  dsa_uf_write_(sets, "union", roots, 2, caption,
                roots[0] != roots[1] ? dsa_caption_("Union %lld and %lld", a, b)
                                     : dsa_caption_("%lld and %lld are already in one set", a, b));
  return roots[0] != roots[1];
}

static inline void dsa_uf_set_parent(dsa_uf *sets, long long x, long long parent) {
  dsa_uf_check_(sets, x);
  dsa_uf_check_(sets, parent);
  sets->parent[x] = parent;
}

static inline void dsa_uf_set_rank(dsa_uf *sets, long long x, long long rank) {
  dsa_uf_check_(sets, x);
  if (!sets->rank) dsa_fail_("this union-find has no ranks (by_rank 0)");
  sets->rank[x] = rank;
}

/* Writes the forest; active (elements) is left out when NULL. */
static inline void dsa_uf_step(dsa_uf *sets, const char *action, const long long *active, size_t active_count,
                               const char *caption) {
  dsa_uf_write_(sets, action, active, active_count, caption, dsa_strdup_(action));
}

static inline void dsa_uf_free(dsa_uf *sets) {
  size_t k;
  for (k = 0; sets->labels && k < sets->size; k++) free(sets->labels[k]);
  free(sets->labels);
  free(sets->parent);
  free(sets->rank);
  memset(sets, 0, sizeof *sets);
}

#endif
