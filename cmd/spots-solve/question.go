package main

import (
	"fmt"
	"strings"

	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
	"github.com/spots-dev/spots/verify/sprouts2"
)

// An answer is tied to its question: the position a run solves, and so the
// claim its certificate proves, is what package sprouts read from the
// text given. A certificate is checked against its claim only, so a
// parser that read the text as another position (0*12 as 0*11) would make
// a valid proof of the wrong question. sameReading reads the text again
// with the second implementation of the rules, which shares no code with
// package sprouts, and refuses the run when the two disagree.

// sameReading reports, as an error, a position text that package sprouts
// read as canonical (the canonical text of what it read) and package
// sprouts2 reads as another position. The input was measured against the
// limits before, so the comparison is bounded; one that runs out of its
// budget is not an error (the two could not be compared).
func sameReading(input, text, canonical string) error {
	given, err := sprouts2.Parse(text)
	if err != nil {
		return fmt.Errorf("%q: the second implementation of the rules cannot read it (%v), though package sprouts read it as %s; one of them is wrong, so nothing is solved", input, err, canonical)
	}
	read, err := sprouts2.Parse(canonical)
	if err != nil {
		return fmt.Errorf("%q: the second implementation of the rules cannot read %s, which package sprouts made of it (%v); nothing is solved", input, canonical, err)
	}
	same, err := sprouts2.SamePosition(given, read, verify.DefaultLimits.Work)
	if err != nil || same {
		return nil
	}
	return fmt.Errorf("%q: package sprouts reads it as %s, the second implementation of the rules as %s: one of them is wrong, so nothing is solved",
		input, canonical, strings.TrimSpace(sprouts2.Text(given)))
}

// checkReadings refuses the run when a position given is read as another
// by the two implementations of the rules (sameReading); it returns the
// exit status of a refusal, or -1.
func (r *runner) checkReadings(inputs []string, roots []sprouts.Position) int {
	for i, in := range inputs {
		text := in
		if j := strings.LastIndex(in, "+*"); j >= 0 {
			text = in[:j]
		}
		if t, err := fromGLOP(text); err == nil {
			text = t
		}
		if err := sameReading(in, text, roots[i].String()); err != nil {
			return r.fail("%v", err)
		}
	}
	return -1
}
