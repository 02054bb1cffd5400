package game

import (
	"errors"
	"strings"
	"testing"
	"unsafe"
)

// heap is a one-heap Nim for the registry's tests: a position is a
// number of counters (a count), a move takes some.
type heap struct{}

// count is a position of heap.
type count int

// String writes the count as a digit.
func (c count) String() string { return string(rune('0' + c)) }

func (heap) Parse(s string) (count, error) {
	if len(s) != 1 || s[0] < '0' || s[0] > '9' {
		return 0, errors.New("heap: want one digit")
	}
	return count(s[0] - '0'), nil
}
func (h heap) FromKey(s string) (count, error) { return h.Parse(s) }
func (heap) Key(p count) string                { return p.String() }
func (heap) Size(p count) int                  { return int(p) }
func (heap) EstimateChildren(p count) int      { return int(p) }
func (heap) Measure(p count) Cost              { return Cost{Moves: int64(p), Work: int64(p)} }
func (heap) Combine(ps []count) count {
	if len(ps) == 0 {
		return 0
	}
	return ps[0]
}
func (heap) Components(p count) []count {
	if p == 0 {
		return nil
	}
	return []count{p}
}
func (heap) Children(p count) []count {
	var out []count
	for i := range p {
		out = append(out, i)
	}
	return out
}

// TestRegister: names are lowercase words registered once, found in any
// case; an unknown name is an error naming the games.
func TestRegister(t *testing.T) {
	g := New[count](Info{Name: "heapone"}, heap{})
	Register(g)
	if h, ok := Lookup("HeapOne"); !ok || h != g {
		t.Errorf("Lookup(HeapOne) = %v, %v", h, ok)
	}
	if _, err := Get("nosuch"); err == nil || !strings.Contains(err.Error(), "heapone") {
		t.Errorf("Get(nosuch) = %v, want an error naming heapone", err)
	}
	for _, tt := range []struct{ name, want string }{
		{"heapone", "registered twice"},
		{"list", "lists the games"},
		{"Heap", "lowercase word"},
		{"", "lowercase word"},
		{"two words", "lowercase word"},
	} {
		func() {
			defer func() {
				if v := recover(); v == nil || !strings.Contains(v.(string), tt.want) {
					t.Errorf("Register(%q) panicked with %v, want %q", tt.name, v, tt.want)
				}
			}()
			Register(New[count](Info{Name: tt.name}, heap{}))
		}()
	}
}

// TestErased: a Game gives back its typed rules and positions, and its
// children and components are those of the rules.
func TestErased(t *testing.T) {
	g := New[count](Info{Name: "heaptwo"}, heap{})
	if _, ok := Typed[count](g); !ok {
		t.Error("Typed[count] of a game of counts fails")
	}
	if _, ok := Typed[boxed[count]](g); ok {
		t.Error("Typed[boxed[count]] of a game of counts succeeds")
	}
	p, err := g.Parse("3")
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := Unwrap[count](p); !ok || n != 3 {
		t.Errorf("Unwrap(Parse(3)) = %d, %v", n, ok)
	}
	if k := g.Key(Wrap(count(4))); k != "4" {
		t.Errorf("Key(Wrap(count(4))) = %q", k)
	}
	var keys []string
	for _, c := range g.Children(p) {
		keys = append(keys, g.Key(c))
	}
	if got := strings.Join(keys, ","); got != "0,1,2" {
		t.Errorf("children of 3: %s, want 0,1,2", got)
	}
	kids, complete := g.ChildrenUntil(p, func(Position) bool { return true })
	if len(kids) != 3 || !complete {
		t.Errorf("ChildrenUntil without one of the rules: %d kids, complete %v", len(kids), complete)
	}
	if n := g.NumComponents(p); n != 1 {
		t.Errorf("NumComponents(3) = %d", n)
	}
	if got := g.AppendComponents(nil, p); len(got) != 1 || g.Key(got[0]) != "3" {
		t.Errorf("AppendComponents(3) = %v", got)
	}
}

// TestPositionBytes: an erased position counts the interface, the typed
// position it points to and its key, so that a cache bounded in bytes
// (solve's cache of children) keeps no more than its bytes.
func TestPositionBytes(t *testing.T) {
	g := New[count](Info{Name: "heapthree"}, heap{})
	p, _ := g.Parse("7")
	var c count
	var x Position
	if got, want := g.PositionBytes(p), int(unsafe.Sizeof(x)+unsafe.Sizeof(c))+1; got != want {
		t.Errorf("PositionBytes(7) = %d, want %d", got, want)
	}
}

// cachedHeap is heap with a cache of the given bytes, as WithCache makes
// it (a cache the tests only look at).
type cachedHeap struct {
	heap
	bytes int64
}

func (cachedHeap) WithCache(bytes int64) Rules[count] { return cachedHeap{bytes: bytes} }

// TestWithCache: a game whose rules keep a cache makes one of the size
// asked for, a game apart from the registered one whose positions are the
// same; a game whose rules keep none is itself.
func TestWithCache(t *testing.T) {
	plain := New[count](Info{Name: "heapfour"}, heap{})
	if g := plain.WithCache(1 << 20); g != plain {
		t.Error("WithCache of rules that keep no cache makes another game")
	}
	registered := New[count](Info{Name: "heapfive"}, cachedHeap{})
	g := registered.WithCache(1 << 20)
	if g == registered {
		t.Fatal("WithCache of rules that keep a cache returns the game itself")
	}
	if r, ok := Typed[count](g); !ok || r != (cachedHeap{bytes: 1 << 20}) {
		t.Errorf("the rules of WithCache(1<<20) are %v, want a cache of 1<<20 bytes", r)
	}
	if r, _ := Typed[count](registered); r != (cachedHeap{}) {
		t.Errorf("WithCache changed the rules of the game it was called on: %v", r)
	}
	if g.Info().Name != "heapfive" {
		t.Errorf("WithCache: name %q, want heapfive", g.Info().Name)
	}
	p, _ := registered.Parse("3")
	if got := len(g.Children(p)); got != 3 {
		t.Errorf("children of a position of the registered game, by the cached one: %d, want 3", got)
	}
}
