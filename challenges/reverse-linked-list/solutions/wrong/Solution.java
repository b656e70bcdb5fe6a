import java.util.*;

class Solution {
    public static ListNode reverseList(ListNode head) {
        ListNode prev = null;
        ListNode curr = head;
        while (curr != null && curr.next != null) { // Wrong on purpose: stops before the last node, which is lost.
            ListNode following = curr.next; // saved before the link is turned around
            curr.next = prev;
            prev = curr;
            curr = following;
        }
        return prev;
    }
}
