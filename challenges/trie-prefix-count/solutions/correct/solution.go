package main

func CountPrefixes(words []string, prefixes []string) []int {
	children := [][26]int32{{}} // node 0 is the root, so 0 also means "no child"
	passing := []int{0}         // passing[node]: how many words' paths pass through the node
	for _, word := range words {
		node := int32(0)
		passing[0]++
		for i := 0; i < len(word); i++ {
			letter := word[i] - 'a'
			if children[node][letter] == 0 {
				children[node][letter] = int32(len(children))
				children = append(children, [26]int32{})
				passing = append(passing, 0)
			}
			node = children[node][letter]
			passing[node]++
		}
	}
	answers := make([]int, len(prefixes))
	for p, prefix := range prefixes {
		node := int32(0)
		count := passing[0]
		for i := 0; i < len(prefix); i++ {
			node = children[node][prefix[i]-'a']
			if node == 0 {
				count = 0
				break
			}
			count = passing[node]
		}
		answers[p] = count
	}
	return answers
}
