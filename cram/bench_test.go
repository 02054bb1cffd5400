package cram

import "testing"

// BenchmarkChildren measures the children of a few boards.
func BenchmarkChildren(b *testing.B) {
	for _, board := range []string{"5x5", "6x6", "#.../..../..#./...."} {
		p := MustParse(board)
		b.Run(board, func(b *testing.B) {
			for b.Loop() {
				p.Children()
			}
		})
	}
}
