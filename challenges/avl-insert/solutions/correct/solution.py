from typing import Optional

from dsa import Recorder


class AvlNode:
    def __init__(self, node_id, value):
        self.id, self.value, self.left, self.right, self.height = node_id, value, None, None, 1


def height(node):
    return node.height if node else 0


def update(node):
    node.height = 1 + max(height(node.left), height(node.right))


def avl_insert_all(values: list[int]) -> Optional[TreeNode]:
    rec = Recorder()
    created = []  # every node, by id: the order of creation
    root = None

    def record(action, active, caption):
        def drawn_height(node):  # the height in the tree as drawn, whatever is stored yet
            return 0 if node is None else 1 + max(drawn_height(node.left), drawn_height(node.right))
        nodes = [{"id": n.id, "value": n.value, "left": n.left.id if n.left else None,
                  "right": n.right.id if n.right else None, "height": drawn_height(n)} for n in created]
        rec.step(action, root=root.id, nodes=nodes, active=[active.id], caption=caption)

    def rotate(node, parent, direction):
        """Rotates at node (its child moves up into its place under parent); returns the child."""
        nonlocal root
        if direction == "left":
            child = node.right
            node.right, child.left = child.left, node
        else:
            child = node.left
            node.left, child.right = child.right, node
        update(node)
        update(child)
        if parent is None:
            root = child
        elif parent.left is node:
            parent.left = child
        else:
            parent.right = child
        record("rotate", node, f"Rotate {direction} at {node.value}: {child.value} moves up")
        return child

    for value in values:
        node = AvlNode(len(created), value)
        created.append(node)
        path = []  # the nodes from the root down to the new node's parent
        if root is None:
            root = node
        else:
            current = root
            while current:
                path.append(current)
                current = current.left if value < current.value else current.right  # ties go right
            if value < path[-1].value:
                path[-1].left = node
            else:
                path[-1].right = node
        record("insert", node, f"Insert {value}")
        for depth in range(len(path) - 1, -1, -1):  # back up the path: heights, then balance
            ancestor = path[depth]
            parent = path[depth - 1] if depth > 0 else None
            update(ancestor)
            balance = height(ancestor.left) - height(ancestor.right)
            if balance > 1:
                if height(ancestor.left.left) < height(ancestor.left.right):  # left-right: two rotations
                    rotate(ancestor.left, ancestor, "left")
                rotate(ancestor, parent, "right")
            elif balance < -1:
                if height(ancestor.right.right) < height(ancestor.right.left):  # right-left
                    rotate(ancestor.right, ancestor, "right")
                rotate(ancestor, parent, "left")

    def to_tree(node):
        return TreeNode(node.value, to_tree(node.left), to_tree(node.right)) if node else None

    return to_tree(root)
