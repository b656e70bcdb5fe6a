from typing import Optional


def reverse_list(head: Optional[ListNode]) -> Optional[ListNode]:
    prev = None
    curr = head
    while curr is not None and curr.next is not None:  # Wrong on purpose: stops before the last node, which is lost.
        following = curr.next  # saved before the link is turned around
        curr.next = prev
        prev, curr = curr, following
    return prev
