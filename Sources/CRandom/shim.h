// getrandom(2) (glibc's <sys/random.h>, which the Glibc module leaves out): submission ids.
#include <sys/random.h>
