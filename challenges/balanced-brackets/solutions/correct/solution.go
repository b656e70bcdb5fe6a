package main

func IsBalanced(s string) bool {
	opener := map[rune]rune{')': '(', ']': '[', '}': '{'}
	stack := []rune{}
	for _, bracket := range s {
		if bracket == '(' || bracket == '[' || bracket == '{' {
			stack = append(stack, bracket)
			continue
		}
		if len(stack) == 0 || stack[len(stack)-1] != opener[bracket] {
			return false
		}
		stack = stack[:len(stack)-1]
	}
	return len(stack) == 0
}
