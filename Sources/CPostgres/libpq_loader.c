// The lazy loader behind CPostgres.h: libpq.so.5 opened with RTLD_LOCAL on the first store that
// needs it, each function looked up once. Freeing nothing (NULL) needs no libpq, as in libpq.
#include "CPostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
  void (*PQclear)(PGresult *res);
  PGconn * (*PQconnectdb)(const char *conninfo);
  int (*PQconsumeInput)(PGconn *conn);
  char * (*PQerrorMessage)(const PGconn *conn);
  PGresult * (*PQexec)(PGconn *conn, const char *query);
  PGresult * (*PQexecPrepared)(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
  void (*PQfinish)(PGconn *conn);
  void (*PQfreemem)(void *ptr);
  int (*PQgetisnull)(const PGresult *res, int tup_num, int field_num);
  char * (*PQgetvalue)(const PGresult *res, int tup_num, int field_num);
  int (*PQnfields)(const PGresult *res);
  PGnotify * (*PQnotifies)(PGconn *conn);
  int (*PQntuples)(const PGresult *res);
  PGresult * (*PQprepare)(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes);
  char * (*PQresultErrorMessage)(const PGresult *res);
  ExecStatusType (*PQresultStatus)(const PGresult *res);
  int (*PQsocket)(const PGconn *conn);
  PQnoticeProcessor (*PQsetNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
  ConnStatusType (*PQstatus)(const PGconn *conn);
} libpq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256];

static void load(void) {
  void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    snprintf(failure, sizeof failure, "libpq.so.5 cannot be loaded (%s); install it with: apt-get install libpq5",
             dlerror());
    return;
  }
  struct {
    const char *name;
    void **slot;
  } symbols[] = {
      {"PQclear", (void **)&libpq.PQclear},
      {"PQconnectdb", (void **)&libpq.PQconnectdb},
      {"PQconsumeInput", (void **)&libpq.PQconsumeInput},
      {"PQerrorMessage", (void **)&libpq.PQerrorMessage},
      {"PQexec", (void **)&libpq.PQexec},
      {"PQexecPrepared", (void **)&libpq.PQexecPrepared},
      {"PQfinish", (void **)&libpq.PQfinish},
      {"PQfreemem", (void **)&libpq.PQfreemem},
      {"PQgetisnull", (void **)&libpq.PQgetisnull},
      {"PQgetvalue", (void **)&libpq.PQgetvalue},
      {"PQnfields", (void **)&libpq.PQnfields},
      {"PQnotifies", (void **)&libpq.PQnotifies},
      {"PQntuples", (void **)&libpq.PQntuples},
      {"PQprepare", (void **)&libpq.PQprepare},
      {"PQresultErrorMessage", (void **)&libpq.PQresultErrorMessage},
      {"PQresultStatus", (void **)&libpq.PQresultStatus},
      {"PQsocket", (void **)&libpq.PQsocket},
      {"PQstatus", (void **)&libpq.PQstatus},
      {"PQsetNoticeProcessor", (void **)&libpq.PQsetNoticeProcessor},
  };
  for (size_t index = 0; index < sizeof symbols / sizeof symbols[0]; index++) {
    *symbols[index].slot = dlsym(handle, symbols[index].name);
    if (*symbols[index].slot == NULL) {
      snprintf(failure, sizeof failure, "libpq.so.5 has no %s", symbols[index].name);
      return;
    }
  }
}

int dsa_libpq_load(char *error, size_t size) {
  pthread_once(&once, load);
  if (failure[0] == 0) return 0;
  if (error != NULL && size > 0) snprintf(error, size, "%s", failure);
  return -1;
}

/// Makes sure libpq's `name` is loaded into `slot`, loading libpq if it was not; a libpq that cannot
/// be loaded aborts here, since `dsa_libpq_load` (which the store calls before anything else) says why.
static void require(void *slot, const char *name) {
  pthread_once(&once, load);
  if (*(void **)slot == NULL) {
    fprintf(stderr, "dsa-run: libpq's %s is not available: %s\n", name, failure);
    abort();
  }
}

void PQclear(PGresult *res) {
  if (res == NULL) return;
  require(&libpq.PQclear, "PQclear");
  libpq.PQclear(res);
}
PGconn *PQconnectdb(const char *conninfo) {
  require(&libpq.PQconnectdb, "PQconnectdb");
  return libpq.PQconnectdb(conninfo);
}
int PQconsumeInput(PGconn *conn) {
  require(&libpq.PQconsumeInput, "PQconsumeInput");
  return libpq.PQconsumeInput(conn);
}
char *PQerrorMessage(const PGconn *conn) {
  require(&libpq.PQerrorMessage, "PQerrorMessage");
  return libpq.PQerrorMessage(conn);
}
PGresult *PQexec(PGconn *conn, const char *query) {
  require(&libpq.PQexec, "PQexec");
  return libpq.PQexec(conn, query);
}
PGresult *PQexecPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
  require(&libpq.PQexecPrepared, "PQexecPrepared");
  return libpq.PQexecPrepared(conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat);
}
void PQfinish(PGconn *conn) {
  if (conn == NULL) return;
  require(&libpq.PQfinish, "PQfinish");
  libpq.PQfinish(conn);
}
void PQfreemem(void *ptr) {
  if (ptr == NULL) return;
  require(&libpq.PQfreemem, "PQfreemem");
  libpq.PQfreemem(ptr);
}
int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
  require(&libpq.PQgetisnull, "PQgetisnull");
  return libpq.PQgetisnull(res, tup_num, field_num);
}
char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
  require(&libpq.PQgetvalue, "PQgetvalue");
  return libpq.PQgetvalue(res, tup_num, field_num);
}
int PQnfields(const PGresult *res) {
  require(&libpq.PQnfields, "PQnfields");
  return libpq.PQnfields(res);
}
PGnotify *PQnotifies(PGconn *conn) {
  require(&libpq.PQnotifies, "PQnotifies");
  return libpq.PQnotifies(conn);
}
int PQntuples(const PGresult *res) {
  require(&libpq.PQntuples, "PQntuples");
  return libpq.PQntuples(res);
}
PGresult *PQprepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes) {
  require(&libpq.PQprepare, "PQprepare");
  return libpq.PQprepare(conn, stmtName, query, nParams, paramTypes);
}
char *PQresultErrorMessage(const PGresult *res) {
  require(&libpq.PQresultErrorMessage, "PQresultErrorMessage");
  return libpq.PQresultErrorMessage(res);
}
ExecStatusType PQresultStatus(const PGresult *res) {
  require(&libpq.PQresultStatus, "PQresultStatus");
  return libpq.PQresultStatus(res);
}
int PQsocket(const PGconn *conn) {
  require(&libpq.PQsocket, "PQsocket");
  return libpq.PQsocket(conn);
}
ConnStatusType PQstatus(const PGconn *conn) {
  require(&libpq.PQstatus, "PQstatus");
  return libpq.PQstatus(conn);
}

/// One notice as a JSON line on stderr, written whole with one write so lines never interleave.
static void log_notice(void *arg, const char *message) {
  (void)arg;
  char line[2048];
  size_t length = 0;
  const char *head = "{\"event\":\"postgres_notice\",\"message\":\"";
  for (const char *c = head; *c != 0; c++) line[length++] = *c;
  // The message's end (libpq ends it with a newline) and control characters are escaped; a long
  // one is cut, leaving room for the close.
  for (const unsigned char *c = (const unsigned char *)message; *c != 0 && length < sizeof line - 16; c++) {
    if (*c == '\n' && c[1] == 0) break;
    if (*c == '"' || *c == '\\') {
      line[length++] = '\\';
      line[length++] = (char)*c;
    } else if (*c < 0x20) {
      length += (size_t)snprintf(line + length, sizeof line - length, "\\u%04x", *c);
    } else {
      line[length++] = (char)*c;
    }
  }
  line[length++] = '"';
  line[length++] = '}';
  line[length++] = '\n';
  (void)!write(2, line, length);
}

void dsa_libpq_log_notices_as_json(PGconn *conn) {
  if (conn == NULL) return;
  require(&libpq.PQsetNoticeProcessor, "PQsetNoticeProcessor");
  libpq.PQsetNoticeProcessor(conn, log_notice, NULL);
}
