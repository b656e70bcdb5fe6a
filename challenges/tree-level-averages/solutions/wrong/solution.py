from typing import Optional


def level_averages(root: Optional[TreeNode]) -> list[float]:
    averages: list[float] = []
    level = [root] if root else []
    while level:
        # Wrong on purpose: integer division drops the fraction of the average.
        averages.append(sum(node.val for node in level) // len(level))
        level = [child for node in level for child in (node.left, node.right) if child]
    return averages
