package gametest_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/game/gametest"
)

// kayles is Kayles (octal 0.77) on rows of pins: a move knocks down one
// pin or two neighbours, which may split a row in two. A position is its
// rows, sorted, written "3+1" ("!" for none); rows of 0 pins are dropped.
// The broken fields each break one contract of game.Rules.
type kayles struct {
	dupChildren bool // a child appears twice
	flatSize    bool // Size does not fall along moves
	oneKey      bool // every position has the same key
	badCombine  bool // Combine drops a component
	acceptAll   bool // Parse accepts anything as the empty position
}

// rows is a position of kayles.
type rows []int

// String writes the rows as kayles does.
func (p rows) String() string {
	if len(p) == 0 {
		return "!"
	}
	var b []string
	for _, n := range p {
		b = append(b, strconv.Itoa(n))
	}
	return strings.Join(b, "+")
}

func (k kayles) Parse(s string) (rows, error) {
	if s == "!" {
		return nil, nil
	}
	var rs rows
	for f := range strings.SplitSeq(s, "+") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 64 {
			if k.acceptAll {
				return nil, nil
			}
			return nil, fmt.Errorf("kayles: %q: want rows of 0 to 64 pins joined by +", s)
		}
		if n > 0 {
			rs = append(rs, n)
		}
	}
	slices.Sort(rs)
	return rs, nil
}

func (k kayles) FromKey(s string) (rows, error) { return k.Parse(s) }

func (k kayles) Key(p rows) string {
	if k.oneKey {
		return "k"
	}
	return p.String()
}

func (k kayles) Components(p rows) []rows {
	var out []rows
	for _, n := range p {
		out = append(out, rows{n})
	}
	return out
}

func (k kayles) Combine(ps []rows) rows {
	var rs rows
	for i, p := range ps {
		if k.badCombine && i == 0 {
			continue
		}
		rs = append(rs, p...)
	}
	slices.Sort(rs)
	return rs
}

func (k kayles) Children(p rows) []rows {
	n := p[0]
	var out []rows
	seen := map[string]bool{}
	for take := 1; take <= 2; take++ {
		for left := 0; left+take <= n; left++ {
			kid, _ := k.Parse(fmt.Sprintf("%d+%d", left, n-left-take))
			if s := kid.String(); !seen[s] || k.dupChildren {
				seen[s] = true
				out = append(out, kid)
			}
		}
	}
	return out
}

func (k kayles) Size(p rows) int {
	if k.flatSize && len(p) > 0 {
		return 100 * len(p)
	}
	s := 0
	for _, n := range p {
		s += n
	}
	return s
}

func (k kayles) EstimateChildren(p rows) int { return 2 * k.Size(p) }

func (k kayles) Measure(p rows) game.Cost {
	return game.Cost{Cells: k.Size(p), Moves: int64(2 * k.Size(p)), Work: int64(2 * k.Size(p))}
}

// info describes kayles.
var info = game.Info{Name: "kayles", Title: "Kayles", Noun: "row", Notation: "kayles/test",
	Description: "pins in rows", Example: "7+3", Doc: "here", SizeName: "pins", ComponentName: "rows", MaxInput: 64}

// recorder is a gametest.T that keeps what fails.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// fatal is what recorder.Fatalf panics with, to stop Run as t.Fatalf
// would.
type fatal struct{}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(fatal{})
}

// run runs the suite on g and returns what failed.
func run(g game.Game) (errs []string) {
	r := &recorder{}
	defer func() {
		if v := recover(); v != nil && v != (fatal{}) {
			panic(v)
		}
		errs = r.errs
	}()
	gametest.Run(r, g)
	return r.errs
}

// TestRunCatches: the suite passes a correct game and catches each broken
// contract, naming it.
func TestRunCatches(t *testing.T) {
	for _, tt := range []struct {
		name string
		k    kayles
		info func(*game.Info)
		want string // in the first failure; "" for none
	}{
		{name: "correct"},
		{name: "duplicate children", k: kayles{dupChildren: true}, want: "appears twice"},
		{name: "size does not fall", k: kayles{flatSize: true}, want: "want less"},
		{name: "key not injective", k: kayles{oneKey: true}, want: "Key is not injective"},
		{name: "combine not inverse", k: kayles{badCombine: true}, want: "Combine(Components(p))"},
		{name: "parse accepts garbage", k: kayles{acceptAll: true}, want: "want an error"},
		{name: "example does not parse", info: func(i *game.Info) { i.Example = "seven" }, want: "does not parse"},
		{name: "no description", info: func(i *game.Info) { i.Description = "" }, want: "Info.Description is empty"},
		{name: "two-line description", info: func(i *game.Info) { i.Description = "a\nb" }, want: "more than one line"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := info
			if tt.info != nil {
				tt.info(&in)
			}
			errs := run(game.New[rows](in, tt.k))
			switch {
			case tt.want == "" && len(errs) > 0:
				t.Errorf("failures on a correct game: %q", errs)
			case tt.want != "" && !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tt.want) }):
				t.Errorf("failures %q, want one saying %q", errs, tt.want)
			}
		})
	}
}
