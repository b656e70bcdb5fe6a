#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

#define BASE 256LL
#define MODULUS 1000000007LL
#define STEPS_UP_TO 100 /* a longer text records only the done step */

static long long mod(long long x) { return (x % MODULUS + MODULUS) % MODULUS; }

/* Appends s as a JSON string (the text is printable ASCII: only " and \ need escaping). */
static char *appendString(char *out, const char *s) {
    *out++ = '"';
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') *out++ = '\\';
        *out++ = *s;
    }
    *out++ = '"';
    return out;
}

static char *appendNumberOrNull(char *out, const char *name, bool present, long long value) {
    out += sprintf(out, ",\"%s\":", name);
    return out + (present ? sprintf(out, "%lld", value) : sprintf(out, "null"));
}

/* Writes one step; offset, index and the window's hash are null where below 0. */
static void recordStep(dsa_recorder *rec, const char *action, const char *text, const char *pattern,
                       long long offset, long long index, const long long *found, int foundCount,
                       long long windowHash, long long patternHash) {
    char *fields = malloc(2 * (strlen(text) + strlen(pattern)) + 24 * (size_t)foundCount + 256);
    char *out = fields;
    out += sprintf(out, "{\"text\":");
    out = appendString(out, text);
    out += sprintf(out, ",\"pattern\":");
    out = appendString(out, pattern);
    out = appendNumberOrNull(out, "offset", offset >= 0, offset);
    out = appendNumberOrNull(out, "index", index >= 0, index);
    out += sprintf(out, ",\"found\":[");
    for (int i = 0; i < foundCount; i++) out += sprintf(out, i ? ",%lld" : "%lld", found[i]);
    out += sprintf(out, "]");
    out = appendNumberOrNull(out, "window_hash", windowHash >= 0, windowHash);
    sprintf(out, ",\"pattern_hash\":%lld}", patternHash);
    dsa_step(rec, action, fields, NULL);
    free(fields);
}

long long *findAll(char *text, char *pattern, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long n = (long long)strlen(text), m = (long long)strlen(pattern);
    bool recording = n <= STEPS_UP_TO;
    long long *found = malloc(sizeof *found * (size_t)(n + 1));
    int foundCount = 0;
    long long patternHash = 0, windowHash = 0, high = 1; /* high: BASE^(m-1), a window's first weight */
    for (long long i = 0; i < m; i++) patternHash = mod(patternHash * BASE + (unsigned char)pattern[i]);
    for (long long i = 1; i < m; i++) high = mod(high * BASE);
    for (long long offset = 0; offset + m <= n; offset++) {
        if (offset == 0) {
            for (long long i = 0; i < m; i++) windowHash = mod(windowHash * BASE + (unsigned char)text[i]);
            if (recording) recordStep(&rec, "hash", text, pattern, 0, -1, found, foundCount, windowHash, patternHash);
        } else {
            windowHash = mod((windowHash - (unsigned char)text[offset - 1] * high) * BASE +
                             (unsigned char)text[offset + m - 1]);
            if (recording)
                recordStep(&rec, "roll", text, pattern, offset, -1, found, foundCount, windowHash, patternHash);
        }
        if (windowHash != patternHash) continue;
        found[foundCount++] = offset; /* Wrong on purpose: a hash hit is taken as a match, without comparing the characters. */
    }
    recordStep(&rec, "done", text, pattern, -1, -1, found, foundCount, -1, patternHash);
    dsa_recorder_free(&rec);
    *returnSize = foundCount;
    return found;
}
