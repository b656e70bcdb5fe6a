package main

func CourseOrder(n int, prerequisites [][]int) []int {
	unlocks := make([][]int, n)
	waiting := make([]int, n) // unmet prerequisites of each course
	for _, pair := range prerequisites {
		unlocks[pair[1]] = append(unlocks[pair[1]], pair[0])
		waiting[pair[0]]++
	}
	// Wrong on purpose: a FIFO queue, so a course freed later comes after bigger ones that waited.
	queue := []int{}
	for c := 0; c < n; c++ {
		if waiting[c] == 0 {
			queue = append(queue, c)
		}
	}
	for head := 0; head < len(queue); head++ {
		for _, next := range unlocks[queue[head]] {
			waiting[next]--
			if waiting[next] == 0 {
				queue = append(queue, next)
			}
		}
	}
	if len(queue) != n {
		return []int{}
	}
	return queue
}
