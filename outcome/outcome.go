// Package outcome names who wins a position of a normal-play impartial
// game: Win when the player to move wins with perfect play, Loss when the
// other player does, Unknown when it is not (yet) known. It is the one
// outcome type of the project: package solve reports it, package format
// relates claims to it, the swarm sends it, and the corpus tabulates it.
//
// It imports nothing of this project, so every package may use it, the
// independent checker (package verify) and the rules (package sprouts)
// included.
//
// An Outcome has two text forms that differ only for Unknown: String
// writes "unknown" (the solver's output, and every JSON document of the
// project: MarshalText writes the same) and Mark writes "?" (the form of
// the literature table and the corpus's tables). Parse reads both, and
// UnmarshalText also the empty text that JSON documents of earlier
// versions wrote for Unknown.
package outcome

import (
	"fmt"
	"strconv"
)

// Outcome is who wins a position for the player to move. The zero value
// is Unknown. Values other than Unknown, Win and Loss are invalid: String
// and Mark write them as "Outcome(N)", MarshalText refuses them, and no
// function of this package returns one.
type Outcome int8

// The outcomes.
const (
	// Unknown is an outcome not known: a search that stopped early, a case
	// the literature leaves open, a job still unsolved.
	Unknown Outcome = iota
	// Win is a win for the player to move.
	Win
	// Loss is a loss for the player to move: a win for the other player.
	Loss
)

// Known reports whether o is Win or Loss.
func (o Outcome) Known() bool { return o == Win || o == Loss }

// String returns "W" for Win, "L" for Loss and "unknown" for Unknown, the
// words spots-solve prints; Parse reads each back.
func (o Outcome) String() string {
	if o == Unknown {
		return "unknown"
	}
	return o.Mark()
}

// Mark returns "W" for Win, "L" for Loss and "?" for Unknown, as the
// literature table and the corpus's tables write them; Parse reads each
// back.
func (o Outcome) Mark() string {
	switch o {
	case Unknown:
		return "?"
	case Win:
		return "W"
	case Loss:
		return "L"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Parse reads "W" (Win), "L" (Loss), and "?" or "unknown" (Unknown): what
// String and Mark write. Anything else, in any other case or with spaces,
// is an error naming the text.
func Parse(s string) (Outcome, error) {
	switch s {
	case "W":
		return Win, nil
	case "L":
		return Loss, nil
	case "?", "unknown":
		return Unknown, nil
	}
	return Unknown, fmt.Errorf("outcome %q is not W, L, ? or unknown", cut(s))
}

// OfGrundy returns the outcome of a position alone (without a heap) whose
// Grundy value is g: Loss when g is 0, Win otherwise.
func OfGrundy(g uint32) Outcome {
	if g == 0 {
		return Loss
	}
	return Win
}

// MarshalText writes what String does: "W" for Win, "L" for Loss and
// "unknown" for Unknown, the one spelling of an outcome in every JSON
// document of the project (command output, the swarm's messages and
// files); it is an error for an invalid value.
func (o Outcome) MarshalText() ([]byte, error) {
	switch o {
	case Unknown, Win, Loss:
		return []byte(o.String()), nil
	}
	return nil, fmt.Errorf("invalid outcome %d", int(o))
}

// UnmarshalText reads whatever Parse reads, and the empty text as Unknown
// (what versions before "unknown" wrote in JSON: a swarm's worker or file
// of such a version is still read); anything else is an error naming the
// text and leaves o unchanged.
func (o *Outcome) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*o = Unknown
		return nil
	}
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*o = v
	return nil
}

// cut shortens s for an error message.
func cut(s string) string {
	const limit = 40
	if len(s) > limit {
		return s[:limit] + "…"
	}
	return s
}
