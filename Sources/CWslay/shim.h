// Debian's libwslay-dev ships no .pc file, so the header is found in /usr/include and the library
// is linked by name (see module.modulemap).
#include <sys/types.h>
#include <wslay/wslay.h>
