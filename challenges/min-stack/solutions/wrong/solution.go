package main

import (
	"dsa"
	"fmt"
)

const stepped = 50 // operations that record steps

func MinStack(ops []string, values []int) []int {
	rec := dsa.NewSearchRecorder()
	var stack, ids, mins []int // mins[k]: the minimum of stack[0..k]
	answers := []int{}
	nextID := 0
	for i, op := range ops {
		switch op {
		case "push":
			value := values[i]
			minimum := value
			stack = append(stack, value)
			ids = append(ids, nextID)
			if len(mins) == 0 || value < mins[len(mins)-1] { // wrong: a repeated minimum gets no record of its own
				mins = append(mins, minimum)
			}
			nextID++
			if i < stepped {
				record(rec, "push", stack, ids, ids[len(ids)-1], value, mins)
			}
		case "pop":
			last := len(stack) - 1
			value, id := stack[last], ids[last]
			if value == mins[len(mins)-1] {
				mins = mins[:len(mins)-1]
			}
			stack, ids = stack[:last], ids[:last]
			if i < stepped {
				record(rec, "pop", stack, ids, id, value, mins)
			}
		case "top":
			answers = append(answers, stack[len(stack)-1])
		default:
			answers = append(answers, mins[len(mins)-1])
		}
	}
	return answers
}

func record(rec *dsa.Recorder, action string, stack, ids []int, movedID, movedValue int, mins []int) {
	var minimum any
	caption := fmt.Sprintf("Pop %d: the stack is empty", movedValue)
	if len(mins) > 0 {
		minimum = mins[len(mins)-1]
		verb := "Pop"
		if action == "push" {
			verb = "Push"
		}
		caption = fmt.Sprintf("%s %d: the minimum is %d", verb, movedValue, mins[len(mins)-1])
	}
	rec.Step(action, map[string]any{
		"stack": append([]int{}, stack...), "ids": append([]int{}, ids...),
		"moved": map[string]any{"id": movedID, "value": movedValue}, "min": minimum,
	}, caption)
}
