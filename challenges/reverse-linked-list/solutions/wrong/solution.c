#include <stddef.h>

struct ListNode *reverseList(struct ListNode *head) {
    struct ListNode *prev = NULL, *curr = head;
    while (curr != NULL && curr->next != NULL) { /* Wrong on purpose: stops before the last node, which is lost. */
        struct ListNode *following = curr->next; /* saved before the link is turned around */
        curr->next = prev;
        prev = curr;
        curr = following;
    }
    return prev;
}
