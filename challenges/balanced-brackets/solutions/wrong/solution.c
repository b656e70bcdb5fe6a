#include <stdbool.h>
#include <string.h>

// Wrong on purpose: one counter per kind checks how many brackets there are, not how they nest.
bool isBalanced(char *s) {
    const char *openers = "([{", *closers = ")]}";
    long long openCount[3] = {0, 0, 0};
    for (; *s; s++) {
        const char *open = strchr(openers, *s), *close = strchr(closers, *s);
        if (open) {
            openCount[open - openers]++;
        } else if (close && --openCount[close - closers] < 0) {
            return false;
        }
    }
    return openCount[0] == 0 && openCount[1] == 0 && openCount[2] == 0;
}
