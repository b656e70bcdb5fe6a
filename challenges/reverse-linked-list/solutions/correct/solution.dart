import 'driver.dart' show ListNode;

ListNode? reverseList(ListNode? head) {
  ListNode? prev;
  var curr = head;
  while (curr != null) {
    final following = curr.next; // saved before the link is turned around
    curr.next = prev;
    prev = curr;
    curr = following;
  }
  return prev;
}
