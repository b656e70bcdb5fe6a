from typing import Optional


def is_valid_bst(root: Optional[TreeNode]) -> bool:
    def within(node: Optional[TreeNode], low: Optional[int], high: Optional[int]) -> bool:
        # low and high are the open range set by the ancestors; None is "no bound".
        if node is None:
            return True
        if (low is not None and node.val <= low) or (high is not None and node.val >= high):
            return False
        return within(node.left, low, node.val) and within(node.right, node.val, high)

    return within(root, None, None)
