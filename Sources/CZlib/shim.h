// zlib (Debian zlib1g-dev): raw deflate for the entries of Judge0's additional_files zips.
#include <zlib.h>
