// libpq (Debian libpq-dev): the submission store shared by several daemons.
#include <postgresql/libpq-fe.h>
