import java.util.*;

class Solution {
    public static boolean isValidBst(TreeNode root) {
        return within(root, null, null);
    }

    // low and high are the open range set by the ancestors; null is "no bound".
    private static boolean within(TreeNode node, Long low, Long high) {
        if (node == null) return true;
        if ((low != null && node.val <= low) || (high != null && node.val >= high)) return false;
        return within(node.left, low, node.val) && within(node.right, node.val, high);
    }
}
