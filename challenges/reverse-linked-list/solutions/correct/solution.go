package main

func ReverseList(head *ListNode) *ListNode {
	var prev *ListNode
	curr := head
	for curr != nil {
		following := curr.Next // saved before the link is turned around
		curr.Next = prev
		prev, curr = curr, following
	}
	return prev
}
