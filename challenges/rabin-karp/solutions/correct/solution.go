package main

import "dsa"

const (
	base      = 256
	modulus   = 1_000_000_007
	stepsUpTo = 100 // a longer text records only the done step
)

func mod(x int) int { return (x%modulus + modulus) % modulus }

func FindAll(text string, pattern string) []int {
	rec := dsa.NewSearchRecorder()
	recording := len(text) <= stepsUpTo
	n, m := len(text), len(pattern)
	found := []int{}
	patternHash, windowHash := 0, 0
	step := func(action string, offset, index, hash any) {
		rec.Step(action, map[string]any{
			"text": text, "pattern": pattern, "offset": offset, "index": index,
			"found": append([]int{}, found...), "window_hash": hash, "pattern_hash": patternHash,
		})
	}
	for i := 0; i < m; i++ {
		patternHash = mod(patternHash*base + int(pattern[i]))
	}
	high := 1 // the weight of a window's first character: base^(m-1)
	for i := 1; i < m; i++ {
		high = mod(high * base)
	}
	for offset := 0; offset+m <= n; offset++ {
		if offset == 0 {
			for i := 0; i < m; i++ {
				windowHash = mod(windowHash*base + int(text[i]))
			}
			if recording {
				step("hash", 0, nil, windowHash)
			}
		} else {
			windowHash = mod((windowHash-int(text[offset-1])*high)*base + int(text[offset+m-1]))
			if recording {
				step("roll", offset, nil, windowHash)
			}
		}
		if windowHash != patternHash {
			continue
		}
		index := 0 // a hash hit: the characters decide
		for ; index < m; index++ {
			if recording {
				step("compare", offset, index, windowHash)
			}
			if text[offset+index] != pattern[index] {
				break
			}
		}
		if index == m {
			found = append(found, offset)
		}
	}
	step("done", nil, nil, nil)
	return found
}
