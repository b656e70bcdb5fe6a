/**
 * @param {ListNode|null} head
 * @return {ListNode|null}
 */
function reverseList(head) {
  let prev = null;
  let curr = head;
  while (curr !== null && curr.next !== null) { // Wrong on purpose: stops before the last node, which is lost.
    const following = curr.next; // saved before the link is turned around
    curr.next = prev;
    prev = curr;
    curr = following;
  }
  return prev;
}
