package sprouts

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The golden vectors were written by the reference solver (SPOTS); see
// ../testdata/README.md. Its strings are not canonical, so everything is
// compared as sets of our canonical forms.
var vectorsPath = filepath.Join("..", "testdata", "notation_vectors.jsonl")

type vector struct {
	Kind string `json:"kind"`
	// kind "position"
	Pos         string   `json:"pos"`
	Terminal    bool     `json:"terminal"`
	NChildren   int      `json:"n_children"`
	Children    []string `json:"children"`
	Grundy      *int     `json:"grundy"`
	Lives       int      `json:"lives"`
	Lands       int      `json:"lands"`
	Recanonical string   `json:"recanonical"`
	// kinds "noncanonical" and "malformed"
	Transform  string `json:"transform"`
	Base       string `json:"base"`
	Input      string `json:"input"`
	Canonical  string `json:"canonical"`
	Error      string `json:"error"`
	SameAsBase bool   `json:"same_canonical_as_base"`
}

func readVectors(t *testing.T) []vector {
	t.Helper()
	f, err := os.Open(vectorsPath)
	if err != nil {
		t.Fatalf("golden vectors (part of the repository): %v", err)
	}
	defer f.Close()
	var vs []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", vectorsPath, err)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

func canonicalSet(t *testing.T, strs []string) []string {
	var out []string
	for _, s := range strs {
		p, err := Parse(s)
		if err != nil {
			t.Errorf("reference string %q: %v", s, err)
			continue
		}
		out = append(out, p.String())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestGoldenPositions(t *testing.T) {
	n, withChildren := 0, 0
	for _, v := range readVectors(t) {
		if v.Kind != "position" {
			continue
		}
		n++
		p, err := Parse(v.Pos)
		if err != nil {
			t.Errorf("%s: %v", v.Pos, err)
			continue
		}
		if r := MustParse(v.Recanonical); r != p {
			t.Errorf("%s: its reference normal form %s is %s for us, not %s", v.Pos, v.Recanonical, r, p)
		}
		if p.Lives() != v.Lives || p.NumLands() != v.Lands || p.IsTerminal() != v.Terminal {
			t.Errorf("%s: lives %d, lands %d, terminal %v; reference %d, %d, %v",
				v.Pos, p.Lives(), p.NumLands(), p.IsTerminal(), v.Lives, v.Lands, v.Terminal)
		}
		var got []string
		for _, c := range p.Children() {
			got = append(got, c.String())
		}
		slices.Sort(got)
		if v.Children == nil {
			// Only the reference's count is known; its children may hold
			// the same position under several names, never fewer positions.
			if len(got) > v.NChildren || (v.NChildren > 0) != (len(got) > 0) {
				t.Errorf("%s: %d children, reference %d strings", v.Pos, len(got), v.NChildren)
			}
			continue
		}
		withChildren++
		if want := canonicalSet(t, v.Children); !slices.Equal(got, want) {
			t.Errorf("%s: children\n got  %s\n want %s", v.Pos, strings.Join(got, " "), strings.Join(want, " "))
		}
	}
	t.Logf("%d position vectors, %d with children compared", n, withChildren)
}

// differentGames lists the noncanonical vectors whose input is a different
// game from its base, so no canonical form may merge them. The vectors'
// "shorthand" transform wrote k spots as k regions or k lands ("0|0",
// "0+0"); spots in different regions cannot be joined, so those are sums
// of one-spot games, whose children ({0+AB|AB} for "0|0") differ from the
// k-spot game's ({0.AB|AB, 1a1a} for "0*2"). The reference agrees: it gives
// them different forms (same_canonical_as_base is false).
func differentGames(v vector) bool {
	return v.Transform == "shorthand" && strings.ContainsAny(v.Input, "|+")
}

func TestGoldenNoncanonical(t *testing.T) {
	n, refDiffers, exceptions := 0, 0, 0
	for _, v := range readVectors(t) {
		if v.Kind != "noncanonical" {
			continue
		}
		n++
		in, err := Parse(v.Input)
		if err != nil {
			t.Errorf("%s (%s of %s): %v", v.Input, v.Transform, v.Base, err)
			continue
		}
		base := MustParse(v.Base)
		if differentGames(v) {
			exceptions++
			if in == base || v.SameAsBase || slices.Equal(in.Children(), base.Children()) {
				t.Errorf("%s and %s should be different games", v.Input, v.Base)
			}
			continue
		}
		if !v.SameAsBase {
			refDiffers++
		}
		if in != base {
			t.Errorf("%s (%s of %s): canonical %s, base %s", v.Input, v.Transform, v.Base, in, base)
		}
	}
	t.Logf("%d noncanonical vectors: all equal their base (the reference differs on %d), %d are different games by the rules",
		n, refDiffers, exceptions)
}

// malformedDecisions says, for each malformed vector, what Parse does with
// it: "" for an error, else the canonical form. Every input the reference
// rejected is an error here too; of those it accepted (silently dropping
// characters and separators), these decide by the notation's rules.
var malformedDecisions = map[string]string{
	"":             "", // empty text: the empty position is written "!"
	" ":            "", // white space is not notation
	"xyz":          "", // unknown characters
	"0*":           "", // a run needs a count
	"*3":           "", // '*' must follow a 0
	"0**3":         "",
	"0*-1":         "",
	"0*3*2":        "", // a run must end at a separator
	"m(":           "", // unfinished long letter
	"m()":          "", // rejected by the reference
	"m(x)":         "", // rejected by the reference
	"m(1":          "",
	"m(201)m(201)": "", // rejected by the reference: letter numbers stop at 200
	"n(0)":         "", // rejected by the reference
	"Z":            "", // Z is not a letter
	"ZZ":           "",
	"4":            "", // spots are 0, 1, 2 (and 3, dead)
	"5.5":          "",
	"0||0":         "", // empty region between separators
	"++":           "",
	"0 0":          "",
	"0*3 1":        "",
	"AA":           "!", // one spot seen twice on one boundary, nothing between: a 2 alone, dead
	"AAA":          "",  // a letter is seen exactly twice
	"a":            "",
	"aaa":          "",
	"0.A|0":        "", // A seen once
	"!0*3":         "", // '!' may only end a position
	"0*3!0*2":      "",
	"(":            "",
	"1":            "1",
	"2":            "!", // one life alone in its region: no move
	"3":            "!", // a dead spot
	"22":           "22",
	"ab.ab|ab":     "", // each boundary sees a and b once
	"é0":           "",
	"0\t0":         "",
	"#":            "", // the reference's marks are not notation
	"0#0":          "",
	"AB|AB|AB":     "", // A seen three times
}

func TestGoldenMalformed(t *testing.T) {
	seen := 0
	for _, v := range readVectors(t) {
		if v.Kind != "malformed" {
			continue
		}
		seen++
		want, ok := malformedDecisions[v.Input]
		if !ok {
			t.Errorf("malformed vector %q has no decision", v.Input)
			continue
		}
		p, err := Parse(v.Input)
		switch {
		case v.Error != "" && err == nil:
			t.Errorf("%q: the reference rejected it (%s); we accept it as %s", v.Input, v.Error, p)
		case want == "" && err == nil:
			t.Errorf("%q: want an error, got %s", v.Input, p)
		case want != "" && err != nil:
			t.Errorf("%q: want %s, got %v", v.Input, want, err)
		case want != "" && p.String() != want:
			t.Errorf("%q: want %s, got %s", v.Input, want, p)
		}
	}
	if seen != len(malformedDecisions) {
		t.Errorf("%d malformed vectors, %d decisions", seen, len(malformedDecisions))
	}
}

// TestGoldenGrundy compares Grundy values computed by plain mex over
// Children with those the reference computed.
func TestGoldenGrundy(t *testing.T) {
	g := fastGrundy{}
	n := 0
	for _, v := range readVectors(t) {
		if v.Kind != "position" || v.Grundy == nil {
			continue
		}
		p := MustParse(v.Pos)
		if p.Lives() > 14 {
			continue // kept for the solver's tests
		}
		n++
		if got := g.of(p); got != *v.Grundy {
			t.Errorf("%s: Grundy value %d, reference %d", v.Pos, got, *v.Grundy)
		}
	}
	t.Logf("%d Grundy values compared", n)
}
