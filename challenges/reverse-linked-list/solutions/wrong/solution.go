package main

func ReverseList(head *ListNode) *ListNode {
	var prev *ListNode
	curr := head
	for curr != nil && curr.Next != nil { // Wrong on purpose: stops before the last node, which is lost.
		following := curr.Next // saved before the link is turned around
		curr.Next = prev
		prev, curr = curr, following
	}
	return prev
}
