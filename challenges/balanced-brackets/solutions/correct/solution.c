#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

bool isBalanced(char *s) {
    size_t length = strlen(s);
    char *stack = malloc(length + 1);
    size_t depth = 0;
    bool balanced = true;
    for (size_t i = 0; i < length && balanced; i++) {
        char bracket = s[i];
        if (bracket == '(' || bracket == '[' || bracket == '{') {
            stack[depth++] = bracket;
            continue;
        }
        char opener = bracket == ')' ? '(' : bracket == ']' ? '[' : '{';
        balanced = depth > 0 && stack[--depth] == opener;
    }
    free(stack);
    return balanced && depth == 0;
}
