package main

import (
	"strings"
	"testing"
)

// TestSameReading: a position that package sprouts read as another (as a
// parser bug reading 0*k as at most 11 spots would) is refused, naming
// both readings; one it read right, in any notation, passes.
func TestSameReading(t *testing.T) {
	tests := []struct {
		input, text, canonical string
		want                   string // "" for no error
	}{
		{"0*12", "0*12", "0*12", ""},
		{"0.1a1a", "0.1a1a", "0.1a1a", ""},
		{"0.1a1a", "0.1a1a", "0.AB|AB", "the second implementation of the rules as 0.1a1a"},
		{"2AB.}AB.}]!", "2AB|AB", "2AB|AB", ""},
		{"0*12", "0*12", "0*11", "package sprouts reads it as 0*11"},
		{"AB|AB", "AB|AB", "12", "one of them is wrong"},
		{"0*3", "0*3", "0*3.", "cannot read 0*3."},
	}
	for _, tt := range tests {
		err := sameReading(tt.input, tt.text, tt.canonical)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s read as %s: %v", tt.input, tt.canonical, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s read as %s: %v, want an error saying %q", tt.input, tt.canonical, err, tt.want)
		}
	}
}
