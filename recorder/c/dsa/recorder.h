/* dsa-run's step recorder for C: an algorithm records what it does, one `@step {json}` line per
 * step on stdout.
 *
 *   #include <dsa/recorder.h>
 *   long long items[] = {5, 2, 4};
 *   dsa_recorder rec;
 *   dsa_recorder_init(&rec, items, 3);      (or dsa_recorder_init_double, _strings; NULL, 0 for none)
 *   dsa_compare(&rec, 0, 1, NULL);          @step {"action":"compare",...}, default caption
 *   dsa_swap(&rec, 0, 1, "2 is smaller: swap");
 *   dsa_done(&rec, NULL);
 *   dsa_recorder_free(&rec);
 *
 * The recorder keeps the elements (rec.ints, rec.doubles or rec.strings, rec.size) with stable
 * ids (rec.ids) and makes up a caption when it is NULL. Each step first flushes what the program
 * printed before it (fflush(stdout)), then writes its own line with write(2), so output keeps its
 * order and a step line is never split; end your own printed lines with a newline before the next
 * step. A refused call (too many steps, NaN or Infinity, an index out of range, no memory) prints
 * why on stderr and ends the program with status 1. docs/challenges.md ("Step recorder") has the
 * whole API. Header-only: every function is static inline (so the 100000-step bound counts per
 * source file that includes it).
 */
#ifndef DSA_RECORDER_H
#define DSA_RECORDER_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DSA_MAX_STEPS 100000

typedef enum { DSA_INTS, DSA_DOUBLES, DSA_STRINGS } dsa_kind;

typedef struct {
  dsa_kind kind;
  size_t size;
  long long *ints;     /* the current values, when kind is DSA_INTS */
  double *doubles;     /* ... DSA_DOUBLES */
  char **strings;      /* ... DSA_STRINGS (the recorder's own copies) */
  long long *ids;      /* the current elements' ids, in the array's order */
  long long next_id;
  unsigned char *sorted; /* sorted[k] != 0: index k is marked sorted */
  long long *visited, *frontier;
  size_t visited_count, frontier_count, graph_capacity;
  long long current;
  int has_current;
} dsa_recorder;

/* A growable text for one step line. */
typedef struct {
  char *data;
  size_t length, capacity;
} dsa_text_;

static long long dsa_steps_written_ = 0; /* per program, whatever the number of recorders */

static inline void dsa_fail_(const char *format, ...) {
  va_list arguments;
  fflush(stdout);
  fputs("dsa recorder: ", stderr);
  va_start(arguments, format);
  vfprintf(stderr, format, arguments);
  va_end(arguments);
  fputc('\n', stderr);
  exit(1);
}

static inline void *dsa_alloc_(void *old, size_t count, size_t size) {
  void *memory;
  if (count == 0) count = 1;
  if (count > (size_t)-1 / size) dsa_fail_("out of memory");
  memory = realloc(old, count * size);
  if (!memory) dsa_fail_("out of memory");
  return memory;
}

static inline void dsa_text_add_(dsa_text_ *text, const char *bytes, size_t count) {
  if (text->length + count + 1 > text->capacity) {
    size_t capacity = text->capacity ? text->capacity : 256;
    while (text->length + count + 1 > capacity) capacity *= 2;
    text->data = (char *)dsa_alloc_(text->data, capacity, 1);
    text->capacity = capacity;
  }
  memcpy(text->data + text->length, bytes, count);
  text->length += count;
  text->data[text->length] = '\0';
}

static inline void dsa_text_puts_(dsa_text_ *text, const char *s) { dsa_text_add_(text, s, strlen(s)); }

static inline void dsa_text_int_(dsa_text_ *text, long long value) {
  char buffer[32];
  snprintf(buffer, sizeof buffer, "%lld", value);
  dsa_text_puts_(text, buffer);
}

/* The shortest text that reads back as the same double, with a '.' or an exponent. */
static inline void dsa_text_double_(dsa_text_ *text, double value) {
  char buffer[40];
  int precision;
  if (isnan(value)) dsa_fail_("the recorder cannot write NaN: JSON has no NaN or Infinity");
  if (isinf(value)) dsa_fail_("the recorder cannot write Infinity: JSON has no NaN or Infinity");
  for (precision = 1; precision <= 17; precision++) {
    snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (strtod(buffer, NULL) == value) break;
  }
  if (!strpbrk(buffer, ".eE")) strcat(buffer, ".0");
  dsa_text_puts_(text, buffer);
}

static inline void dsa_text_string_(dsa_text_ *text, const char *s) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *c;
  dsa_text_add_(text, "\"", 1);
  for (c = (const unsigned char *)s; *c; c++) {
    char escape[7] = {'\\', 'u', '0', '0', 0, 0, 0};
    switch (*c) {
      case '"': dsa_text_add_(text, "\\\"", 2); break;
      case '\\': dsa_text_add_(text, "\\\\", 2); break;
      case '\n': dsa_text_add_(text, "\\n", 2); break;
      case '\r': dsa_text_add_(text, "\\r", 2); break;
      case '\t': dsa_text_add_(text, "\\t", 2); break;
      default:
        if (*c < 0x20 || *c == 0x7f) {
          escape[4] = hex[*c >> 4];
          escape[5] = hex[*c & 15];
          dsa_text_add_(text, escape, 6);
        } else {
          dsa_text_add_(text, (const char *)c, 1);
        }
    }
  }
  dsa_text_add_(text, "\"", 1);
}

static inline void dsa_text_ints_(dsa_text_ *text, const long long *values, size_t count) {
  size_t k;
  dsa_text_add_(text, "[", 1);
  for (k = 0; k < count; k++) {
    if (k) dsa_text_add_(text, ",", 1);
    dsa_text_int_(text, values[k]);
  }
  dsa_text_add_(text, "]", 1);
}

static inline void dsa_text_value_(dsa_text_ *text, const dsa_recorder *rec, size_t index) {
  switch (rec->kind) {
    case DSA_INTS: dsa_text_int_(text, rec->ints[index]); break;
    case DSA_DOUBLES: dsa_text_double_(text, rec->doubles[index]); break;
    case DSA_STRINGS: dsa_text_string_(text, rec->strings[index]); break;
  }
}

/* Counts the step, adds the caption (or the default) and writes the line; frees the text. */
static inline void dsa_write_step_(dsa_text_ *line, const char *caption, const char *default_caption) {
  const char *data;
  size_t left;
  if (dsa_steps_written_ >= DSA_MAX_STEPS) {
    free(line->data);
    dsa_fail_("too many steps: the recorder keeps at most %d", DSA_MAX_STEPS);
  }
  dsa_text_puts_(line, ",\"caption\":");
  dsa_text_string_(line, caption ? caption : default_caption);
  dsa_text_puts_(line, "}\n");
  dsa_steps_written_++;
  fflush(stdout);
  data = line->data;
  left = line->length;
  while (left > 0) {
    ssize_t written = write(1, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      break; /* stdout is gone (closed, or the output limit): nothing to tell */
    }
    data += written;
    left -= (size_t)written;
  }
  free(line->data);
}

static inline void dsa_begin_step_(dsa_text_ *line, const char *action) {
  line->data = NULL;
  line->length = line->capacity = 0;
  dsa_text_puts_(line, "@step {\"action\":");
  dsa_text_string_(line, action);
}

static inline void dsa_init_common_(dsa_recorder *rec, dsa_kind kind, size_t size) {
  size_t k;
  memset(rec, 0, sizeof *rec);
  rec->kind = kind;
  rec->size = size;
  rec->ids = (long long *)dsa_alloc_(NULL, size, sizeof(long long));
  rec->sorted = (unsigned char *)dsa_alloc_(NULL, size, 1);
  for (k = 0; k < size; k++) {
    rec->ids[k] = (long long)k;
    rec->sorted[k] = 0;
  }
  rec->next_id = (long long)size;
}

/* A recorder over `size` integers (copied); items NULL and size 0 for a search or a graph walk. */
static inline void dsa_recorder_init(dsa_recorder *rec, const long long *items, size_t size) {
  dsa_init_common_(rec, DSA_INTS, size);
  rec->ints = (long long *)dsa_alloc_(NULL, size, sizeof(long long));
  if (size) memcpy(rec->ints, items, size * sizeof(long long));
}

static inline void dsa_recorder_init_double(dsa_recorder *rec, const double *items, size_t size) {
  size_t k;
  for (k = 0; k < size; k++) {
    if (!isfinite(items[k])) dsa_fail_("the recorder cannot hold NaN or Infinity: JSON has neither");
  }
  dsa_init_common_(rec, DSA_DOUBLES, size);
  rec->doubles = (double *)dsa_alloc_(NULL, size, sizeof(double));
  if (size) memcpy(rec->doubles, items, size * sizeof(double));
}

/* The strings are copied (UTF-8, NUL-terminated). */
static inline void dsa_recorder_init_strings(dsa_recorder *rec, const char *const *items, size_t size) {
  size_t k;
  dsa_init_common_(rec, DSA_STRINGS, size);
  rec->strings = (char **)dsa_alloc_(NULL, size, sizeof(char *));
  for (k = 0; k < size; k++) {
    size_t length = strlen(items[k]);
    rec->strings[k] = (char *)dsa_alloc_(NULL, length + 1, 1);
    memcpy(rec->strings[k], items[k], length + 1);
  }
}

static inline void dsa_recorder_free(dsa_recorder *rec) {
  size_t k;
  if (rec->strings) {
    for (k = 0; k < rec->size; k++) free(rec->strings[k]);
  }
  free(rec->strings);
  free(rec->ints);
  free(rec->doubles);
  free(rec->ids);
  free(rec->sorted);
  free(rec->visited);
  free(rec->frontier);
  memset(rec, 0, sizeof *rec);
}

static inline void dsa_check_index_(const dsa_recorder *rec, size_t index) {
  if (index >= rec->size) {
    dsa_fail_("index %zu is outside the recorder's %zu elements", index, rec->size);
  }
}

static inline void dsa_array_step_(dsa_recorder *rec, const char *action, const long long *active,
                                   size_t active_count, const char *caption, const char *default_caption) {
  dsa_text_ line;
  size_t k;
  int first = 1;
  dsa_begin_step_(&line, action);
  dsa_text_puts_(&line, ",\"active\":");
  dsa_text_ints_(&line, active, active_count);
  dsa_text_puts_(&line, ",\"array\":[");
  for (k = 0; k < rec->size; k++) {
    if (k) dsa_text_add_(&line, ",", 1);
    dsa_text_value_(&line, rec, k);
  }
  dsa_text_puts_(&line, "],\"ids\":");
  dsa_text_ints_(&line, rec->ids, rec->size);
  dsa_text_puts_(&line, ",\"sorted\":[");
  for (k = 0; k < rec->size; k++) {
    if (!rec->sorted[k]) continue;
    if (!first) dsa_text_add_(&line, ",", 1);
    first = 0;
    dsa_text_int_(&line, (long long)k);
  }
  dsa_text_puts_(&line, "]");
  dsa_write_step_(&line, caption, default_caption);
}

/* A caption made by the recorder: the value texts of indices i and j are JSON. */
static inline void dsa_compare(dsa_recorder *rec, size_t i, size_t j, const char *caption) {
  dsa_text_ text = {NULL, 0, 0};
  long long active[2];
  dsa_check_index_(rec, i);
  dsa_check_index_(rec, j);
  active[0] = (long long)i;
  active[1] = (long long)j;
  if (!caption) {
    char number[32];
    snprintf(number, sizeof number, "Compare index %zu (", i);
    dsa_text_puts_(&text, number);
    dsa_text_value_(&text, rec, i);
    snprintf(number, sizeof number, ") with index %zu (", j);
    dsa_text_puts_(&text, number);
    dsa_text_value_(&text, rec, j);
    dsa_text_puts_(&text, ")");
  }
  dsa_array_step_(rec, "compare", active, 2, caption, text.data);
  free(text.data);
}

static inline void dsa_swap(dsa_recorder *rec, size_t i, size_t j, const char *caption) {
  char default_caption[80];
  long long active[2], id;
  dsa_check_index_(rec, i);
  dsa_check_index_(rec, j);
  switch (rec->kind) {
    case DSA_INTS: { long long t = rec->ints[i]; rec->ints[i] = rec->ints[j]; rec->ints[j] = t; break; }
    case DSA_DOUBLES: { double t = rec->doubles[i]; rec->doubles[i] = rec->doubles[j]; rec->doubles[j] = t; break; }
    case DSA_STRINGS: { char *t = rec->strings[i]; rec->strings[i] = rec->strings[j]; rec->strings[j] = t; break; }
  }
  id = rec->ids[i];
  rec->ids[i] = rec->ids[j];
  rec->ids[j] = id;
  active[0] = (long long)i;
  active[1] = (long long)j;
  snprintf(default_caption, sizeof default_caption, "Swap index %zu and index %zu", i, j);
  dsa_array_step_(rec, "swap", active, 2, caption, default_caption);
}

static inline void dsa_overwritten_(dsa_recorder *rec, size_t i, const char *caption) {
  dsa_text_ text = {NULL, 0, 0};
  char number[32];
  long long active = (long long)i;
  rec->ids[i] = rec->next_id++;
  if (!caption) {
    dsa_text_puts_(&text, "Write ");
    dsa_text_value_(&text, rec, i);
    snprintf(number, sizeof number, " at index %zu", i);
    dsa_text_puts_(&text, number);
  }
  dsa_array_step_(rec, "overwrite", &active, 1, caption, text.data);
  free(text.data);
}

/* Sets ints[i] = value and gives the slot a fresh id. */
static inline void dsa_overwrite(dsa_recorder *rec, size_t i, long long value, const char *caption) {
  dsa_check_index_(rec, i);
  if (rec->kind != DSA_INTS) dsa_fail_("dsa_overwrite writes an integer: this recorder holds other values");
  rec->ints[i] = value;
  dsa_overwritten_(rec, i, caption);
}

static inline void dsa_overwrite_double(dsa_recorder *rec, size_t i, double value, const char *caption) {
  dsa_check_index_(rec, i);
  if (rec->kind != DSA_DOUBLES) dsa_fail_("dsa_overwrite_double writes a double: this recorder holds other values");
  if (!isfinite(value)) dsa_fail_("the recorder cannot write NaN or Infinity: JSON has neither");
  rec->doubles[i] = value;
  dsa_overwritten_(rec, i, caption);
}

static inline void dsa_overwrite_string(dsa_recorder *rec, size_t i, const char *value, const char *caption) {
  size_t length = strlen(value);
  dsa_check_index_(rec, i);
  if (rec->kind != DSA_STRINGS) dsa_fail_("dsa_overwrite_string writes a string: this recorder holds other values");
  free(rec->strings[i]);
  rec->strings[i] = (char *)dsa_alloc_(NULL, length + 1, 1);
  memcpy(rec->strings[i], value, length + 1);
  dsa_overwritten_(rec, i, caption);
}

/* Marks index i sorted; no step of its own (the next step shows it). */
static inline void dsa_mark_sorted(dsa_recorder *rec, size_t i) {
  dsa_check_index_(rec, i);
  rec->sorted[i] = 1;
}

static inline void dsa_done(dsa_recorder *rec, const char *caption) {
  if (rec->size) memset(rec->sorted, 1, rec->size);
  dsa_array_step_(rec, "done", NULL, 0, caption, "Done");
}

static inline void dsa_probe_step_(long long low, const long long *mid, long long high, int found,
                                   const char *caption) {
  dsa_text_ line;
  char default_caption[120];
  if (!mid) {
    snprintf(default_caption, sizeof default_caption, "Empty window: low %lld, high %lld", low, high);
  } else if (found) {
    snprintf(default_caption, sizeof default_caption, "Found at index %lld", *mid);
  } else {
    snprintf(default_caption, sizeof default_caption, "Probe index %lld: low %lld, high %lld", *mid, low, high);
  }
  dsa_begin_step_(&line, "probe");
  dsa_text_puts_(&line, ",\"low\":");
  dsa_text_int_(&line, low);
  dsa_text_puts_(&line, ",\"high\":");
  dsa_text_int_(&line, high);
  dsa_text_puts_(&line, ",\"mid\":");
  if (mid) dsa_text_int_(&line, *mid);
  else dsa_text_puts_(&line, "null");
  dsa_text_puts_(&line, found ? ",\"found\":true" : ",\"found\":false");
  dsa_write_step_(&line, caption, default_caption);
}

/* A binary-search probe of index mid in the window low..high. */
static inline void dsa_probe(dsa_recorder *rec, long long low, long long mid, long long high, int found,
                             const char *caption) {
  (void)rec;
  dsa_probe_step_(low, &mid, high, found, caption);
}

/* An empty window (no mid: "mid": null, found false). */
static inline void dsa_probe_empty(dsa_recorder *rec, long long low, long long high, const char *caption) {
  (void)rec;
  dsa_probe_step_(low, NULL, high, 0, caption);
}

static inline void dsa_graph_step_(dsa_recorder *rec, const char *action, const char *caption,
                                   const char *default_caption) {
  dsa_text_ line;
  dsa_begin_step_(&line, action);
  dsa_text_puts_(&line, ",\"current\":");
  if (rec->has_current) dsa_text_int_(&line, rec->current);
  else dsa_text_puts_(&line, "null");
  dsa_text_puts_(&line, ",\"visited\":");
  dsa_text_ints_(&line, rec->visited, rec->visited_count);
  dsa_text_puts_(&line, ",\"frontier\":");
  dsa_text_ints_(&line, rec->frontier, rec->frontier_count);
  dsa_write_step_(&line, caption, default_caption);
}

static inline void dsa_graph_room_(dsa_recorder *rec) {
  if (rec->visited_count < rec->graph_capacity && rec->frontier_count < rec->graph_capacity) return;
  rec->graph_capacity = rec->graph_capacity ? rec->graph_capacity * 2 : 16;
  rec->visited = (long long *)dsa_alloc_(rec->visited, rec->graph_capacity, sizeof(long long));
  rec->frontier = (long long *)dsa_alloc_(rec->frontier, rec->graph_capacity, sizeof(long long));
}

static inline void dsa_add_visited_(dsa_recorder *rec, long long node) {
  size_t k;
  for (k = 0; k < rec->visited_count; k++) {
    if (rec->visited[k] == node) return;
  }
  dsa_graph_room_(rec);
  rec->visited[rec->visited_count++] = node;
}

/* Takes node off the frontier (its first occurrence), marks it visited and current. */
static inline void dsa_visit(dsa_recorder *rec, long long node, const char *caption) {
  char default_caption[64];
  size_t k;
  for (k = 0; k < rec->frontier_count; k++) {
    if (rec->frontier[k] == node) {
      memmove(rec->frontier + k, rec->frontier + k + 1, (rec->frontier_count - k - 1) * sizeof(long long));
      rec->frontier_count--;
      break;
    }
  }
  dsa_add_visited_(rec, node);
  rec->current = node;
  rec->has_current = 1;
  snprintf(default_caption, sizeof default_caption, "Visit node %lld", node);
  dsa_graph_step_(rec, "visit", caption, default_caption);
}

/* Marks node visited (seen) and appends it to the frontier. */
static inline void dsa_discover(dsa_recorder *rec, long long node, const char *caption) {
  char default_caption[64];
  dsa_add_visited_(rec, node);
  dsa_graph_room_(rec);
  rec->frontier[rec->frontier_count++] = node;
  snprintf(default_caption, sizeof default_caption, "Discover node %lld", node);
  dsa_graph_step_(rec, "discover", caption, default_caption);
}

/* Any step: fields_json is a JSON object's text ("{\"cells\":[1,2]}") or NULL. */
static inline void dsa_step(dsa_recorder *rec, const char *action, const char *fields_json, const char *caption) {
  dsa_text_ line;
  const char *open = fields_json, *close;
  (void)rec;
  dsa_begin_step_(&line, action);
  if (fields_json) {
    while (*open == ' ' || *open == '\t' || *open == '\n' || *open == '\r') open++;
    close = open + strlen(open);
    while (close > open && (close[-1] == ' ' || close[-1] == '\t' || close[-1] == '\n' || close[-1] == '\r')) close--;
    if (*open != '{' || close == open || close[-1] != '}') {
      free(line.data);
      dsa_fail_("step fields must be a JSON object's text, like {\"cells\":[1,2]}");
    }
    open++;
    close--;
    while (open < close && (*open == ' ' || *open == '\t' || *open == '\n' || *open == '\r')) open++;
    if (open < close) {
      dsa_text_add_(&line, ",", 1);
      dsa_text_add_(&line, open, (size_t)(close - open));
    }
  }
  dsa_write_step_(&line, caption, action);
}

#include "shapes.h"

#endif
