// SQLite 3 (Debian libsqlite3-dev): the default submission store, one file under the state directory.
#include <sqlite3.h>
