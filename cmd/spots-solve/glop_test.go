package main

import (
	"strings"
	"testing"

	"github.com/spots-dev/spots/sprouts"
)

func TestFromGLOP(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"0*12", "0*12", ""},          // ours: unchanged
		{"0.1a1a|0", "0.1a1a|0", ""},  // ours: unchanged
		{"2AB.}AB.}]!", "2AB|AB", ""}, // the README's example
		{"2AB.}AB.}]", "2AB|AB", ""},  // without the final '!'
		{"0.0.}]!", "0.0", ""},        // two boundaries in one region
		{"0.}]0.}]!", "0+0", ""},      // two lands
		{"1a1a.}0.}]0*3.}]!", "1a1a|0+0*3", ""},
		{"0.}", "", "must end with ']'"},
		{"0.]!", "", "land 1 must end with '}'"},
		{"0}]!", "", "region 1 of land 1 must end with '.'"},
	}
	for _, tt := range tests {
		got, err := fromGLOP(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("fromGLOP(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("fromGLOP(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			continue
		}
		if _, err := sprouts.Parse(got); err != nil {
			t.Errorf("fromGLOP(%q) = %q, which does not parse: %v", tt.in, got, err)
		}
	}
}

// FuzzFromGLOP: the converter never panics; what it accepts comes out
// without GLOP's terminators, and what has none of them comes out as it
// went in.
func FuzzFromGLOP(f *testing.F) {
	for _, s := range []string{"2AB.}AB.}]!", "0.0.}]", "0*3", "}]", "]!", "a.}b.}]c.}]!", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := fromGLOP(s)
		if err != nil {
			return
		}
		if !strings.ContainsAny(s, "}]") {
			if out != s {
				t.Fatalf("fromGLOP(%q) = %q, want it unchanged", s, out)
			}
			return
		}
		if strings.ContainsAny(out, "}]") {
			t.Fatalf("fromGLOP(%q) = %q still holds a terminator", s, out)
		}
	})
}
