from typing import Optional

from dsa import Recorder


def inorder(root: Optional[TreeNode]) -> list[int]:
    rec = Recorder()
    # Ids in level order (root 0, then each level left to right), as the test's array lists them.
    ids, order = {}, []
    queue = [root] if root else []
    while queue:
        node = queue.pop(0)
        ids[id(node)] = len(order)
        order.append(node)
        queue += [child for child in (node.left, node.right) if child]
    nodes = [{"id": k, "value": node.val,
              "left": ids[id(node.left)] if node.left else None,
              "right": ids[id(node.right)] if node.right else None} for k, node in enumerate(order)]
    root_id = 0 if root else None
    visited, values = [], []

    def walk(node):
        if node is None:
            return
        # Wrong on purpose: the node is visited before its left subtree (pre-order).
        visited.append(ids[id(node)])
        values.append(node.val)
        rec.step("visit", root=root_id, nodes=nodes, active=[ids[id(node)]], visited=list(visited),
                 caption=f"Visit {node.val}: its left subtree is done")
        walk(node.left)
        walk(node.right)

    walk(root)
    rec.step("done", root=root_id, nodes=nodes, active=[], visited=visited, caption="Every node visited")
    return values
