from typing import Optional


def is_valid_bst(root: Optional[TreeNode]) -> bool:
    # Wrong on purpose: compares each node with its own children only, not with the bounds set by its ancestors.
    if root is None:
        return True
    if root.left is not None and root.left.val >= root.val:
        return False
    if root.right is not None and root.right.val <= root.val:
        return False
    return is_valid_bst(root.left) and is_valid_bst(root.right)
