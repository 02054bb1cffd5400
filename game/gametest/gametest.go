// Package gametest is the conformance suite of package game: the contracts
// of game.Rules, checked on a sample of a game's positions. Every
// registered game runs it (package game/all's tests); a new game runs it
// from its own tests too, before it is registered.
package gametest

import (
	"slices"
	"strings"

	"github.com/spots-dev/spots/game"
)

// T is what Run needs of a *testing.T; its own tests give it a recorder.
// Fatalf must not return.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// maxSample bounds the positions Run checks: the example's descendants,
// breadth first, with those of the extra texts.
const maxSample = 400

// Run checks that g keeps the contracts of game.Rules on the positions
// reachable from its example position and from extra (texts of positions
// it should also cover): the example parses, Parse and String round-trip,
// Key is injective and FromKey reads it back, Components and Combine are
// inverse, Size is positive, adds up and falls along every move, each
// child is made once and ChildrenUntil agrees with Children, Measure
// bounds the moves, and bad text is an error, not a panic.
func Run(t T, g game.Game, extra ...string) {
	t.Helper()
	checkInfo(t, g.Info())
	sample := Sample(t, g, append([]string{g.Info().Example}, extra...), maxSample)
	texts := map[string]string{} // canonical text -> key
	for _, p := range sample {
		key, text := g.Key(p), p.String()
		if other, ok := texts[text]; ok && other != key {
			t.Errorf("%s has two keys %q and %q", text, other, key)
		}
		texts[text] = key
		checkText(t, g, p)
		checkComponents(t, g, p)
		if g.NumComponents(p) == 1 {
			checkChildren(t, g, p)
		}
	}
	checkBadText(t, g)
}

// checkInfo checks that every field people read is filled in.
func checkInfo(t T, info game.Info) {
	t.Helper()
	for name, v := range map[string]string{"Name": info.Name, "Title": info.Title, "Noun": info.Noun,
		"Notation": info.Notation, "Description": info.Description, "Example": info.Example,
		"Doc": info.Doc, "SizeName": info.SizeName, "ComponentName": info.ComponentName} {
		if v == "" {
			t.Errorf("%s: Info.%s is empty", info.Name, name)
		}
	}
	if strings.Contains(info.Description, "\n") {
		t.Errorf("%s: Info.Description is more than one line: %q", info.Name, info.Description)
	}
	if info.MaxInput <= 0 {
		t.Errorf("%s: Info.MaxInput is %d, want a positive bound", info.Name, info.MaxInput)
	}
}

// Sample returns up to n positions of g: those of texts (each must parse)
// and their descendants (children and components), breadth first, each
// once. Two positions met with one key but two canonical texts fail t.
func Sample(t T, g game.Game, texts []string, n int) []game.Position {
	t.Helper()
	var queue []game.Position
	seen := map[string]string{} // key -> canonical text
	add := func(p game.Position) {
		k, text := g.Key(p), p.String()
		if other, ok := seen[k]; ok {
			if other != text {
				t.Errorf("%s and %s have the same key %q: Key is not injective", other, text, k)
			}
			return
		}
		if len(queue) < n {
			seen[k] = text
			queue = append(queue, p)
		}
	}
	for _, s := range texts {
		p, err := g.Parse(s)
		if err != nil {
			t.Fatalf("%s: %q does not parse: %v", g.Info().Name, s, err)
		}
		add(p)
	}
	for i := 0; i < len(queue) && len(queue) < n; i++ {
		p := queue[i]
		if g.NumComponents(p) != 1 {
			for _, c := range g.Components(p) {
				add(c)
			}
			continue
		}
		for _, c := range g.Children(p) {
			add(c)
		}
	}
	return queue
}

// checkText checks the round trips of the notation and of keys.
func checkText(t T, g game.Game, p game.Position) {
	t.Helper()
	text, key := p.String(), g.Key(p)
	q, err := g.Parse(text)
	if err != nil {
		t.Errorf("%s: Parse(String(p)) fails: %v", text, err)
		return
	}
	if g.Key(q) != key || q.String() != text {
		t.Errorf("%s: Parse(String(p)) is %s (key %q), want key %q", text, q.String(), g.Key(q), key)
	}
	r, err := g.FromKey(key)
	if err != nil {
		t.Errorf("%s: FromKey(Key(p)) fails: %v", text, err)
		return
	}
	if g.Key(r) != key {
		t.Errorf("%s: FromKey(Key(p)) has key %q, want %q", text, g.Key(r), key)
	}
}

// checkComponents checks Components against Combine, NumComponents,
// AppendComponents and Size.
func checkComponents(t T, g game.Game, p game.Position) {
	t.Helper()
	text := p.String()
	comps := g.Components(p)
	if n := g.NumComponents(p); n != len(comps) {
		t.Errorf("%s: NumComponents is %d, Components has %d", text, n, len(comps))
	}
	if got := g.AppendComponents(nil, p); !sameKeys(g, got, comps) {
		t.Errorf("%s: AppendComponents differs from Components", text)
	}
	if s := g.Combine(comps); g.Key(s) != g.Key(p) {
		t.Errorf("%s: Combine(Components(p)) is %s", text, s.String())
	}
	size := 0
	for _, c := range comps {
		if n := g.NumComponents(c); n != 1 {
			t.Errorf("%s: component %s has %d components, want 1", text, c.String(), n)
		}
		if s := g.Size(c); s <= 0 {
			t.Errorf("%s: component %s has size %d, want a positive size", text, c.String(), s)
		}
		size += g.Size(c)
	}
	if s := g.Size(p); s != size {
		t.Errorf("%s: size %d, but its components add up to %d", text, s, size)
	}
	if len(comps) == 0 && g.Size(p) != 0 {
		t.Errorf("%s: no components, but size %d", text, g.Size(p))
	}
}

// checkChildren checks the children of an atomic position.
func checkChildren(t T, g game.Game, p game.Position) {
	t.Helper()
	text, size := p.String(), g.Size(p)
	kids := g.Children(p)
	seen := map[string]bool{}
	for _, k := range kids {
		key := g.Key(k)
		if seen[key] {
			t.Errorf("%s: child %s appears twice", text, k.String())
		}
		seen[key] = true
		if s := g.Size(k); s >= size {
			t.Errorf("%s (size %d): child %s has size %d, want less", text, size, k.String(), s)
		}
	}
	if c := g.Measure(p); c.Moves < int64(len(kids)) || c.Work < c.Moves {
		t.Errorf("%s: Measure %+v does not bound its %d children", text, c, len(kids))
	}
	all, complete := g.ChildrenUntil(p, func(game.Position) bool { return false })
	if !complete || !sameKeys(g, all, kids) {
		t.Errorf("%s: ChildrenUntil(never stop) differs from Children (complete %v)", text, complete)
	}
	if len(kids) > 0 {
		some, _ := g.ChildrenUntil(p, func(game.Position) bool { return true })
		for _, k := range some {
			if !seen[g.Key(k)] {
				t.Errorf("%s: ChildrenUntil made %s, which Children does not", text, k.String())
			}
		}
	}
}

// checkBadText checks that text that is no position is an error.
func checkBadText(t T, g game.Game) {
	t.Helper()
	for _, s := range []string{"\x00", "\xff\xfe", "((((", "+", "?", strings.Repeat("x", g.Info().MaxInput+1)} {
		if p, err := g.Parse(s); err == nil {
			t.Errorf("%s: Parse(%.20q) = %s, want an error", g.Info().Name, s, p.String())
		}
		if p, err := g.FromKey(s); err == nil && p.String() == s {
			t.Errorf("%s: FromKey(%.20q) accepted it", g.Info().Name, s)
		}
	}
}

// sameKeys reports whether a and b are the same positions in the same
// order.
func sameKeys(g game.Game, a, b []game.Position) bool {
	return slices.EqualFunc(a, b, func(x, y game.Position) bool { return g.Key(x) == g.Key(y) })
}
