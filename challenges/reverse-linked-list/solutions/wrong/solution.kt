class Solution {
    fun reverseList(head: ListNode?): ListNode? {
        var prev: ListNode? = null
        var curr = head
        while (curr != null && curr.next != null) { // Wrong on purpose: stops before the last node, which is lost.
            val following = curr.next // saved before the link is turned around
            curr.next = prev
            prev = curr
            curr = following
        }
        return prev
    }
}
