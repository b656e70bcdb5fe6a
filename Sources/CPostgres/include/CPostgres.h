// libpq (Debian libpq5, headers from libpq-dev) for the PostgreSQL submission store, loaded only
// when such a store is opened: linked, libpq brings GnuTLS, Kerberos, LDAP and p11-kit into every
// daemon, a few MB of its resident memory, most of which never use PostgreSQL. The functions the
// store calls keep libpq's names and declarations (libpq-fe.h); each forwards to libpq's own,
// found with dlsym once `dsa_libpq_load` has loaded it.
#ifndef DSA_CPOSTGRES_H
#define DSA_CPOSTGRES_H

#include <stddef.h>
#include <postgresql/libpq-fe.h>

/// Loads libpq (once per process; thread-safe). 0 on success; otherwise -1, with why in `error`
/// (at most `size` bytes, NUL-terminated).
int dsa_libpq_load(char *error, size_t size);

/// Makes `conn`'s notices (a NOTICE such as "relation ... already exists, skipping") JSON lines on
/// stderr, `{"event":"postgres_notice","message":...}`, as the daemon's log is: libpq's own
/// processor prints them as plain text.
void dsa_libpq_log_notices_as_json(PGconn *conn);

#endif
