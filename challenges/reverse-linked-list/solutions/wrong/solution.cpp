#include <bits/stdc++.h>
using namespace std;

ListNode* reverseList(ListNode* head) {
    ListNode* prev = nullptr;
    ListNode* curr = head;
    while (curr != nullptr && curr->next != nullptr) {  // Wrong on purpose: stops before the last node, which is lost.
        ListNode* following = curr->next;  // saved before the link is turned around
        curr->next = prev;
        prev = curr;
        curr = following;
    }
    return prev;
}
