class Solution {
    fun reverseList(head: ListNode?): ListNode? {
        var prev: ListNode? = null
        var curr = head
        while (curr != null) {
            val following = curr.next // saved before the link is turned around
            curr.next = prev
            prev = curr
            curr = following
        }
        return prev
    }
}
