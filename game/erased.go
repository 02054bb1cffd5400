package game

import "unsafe"

// erased is the Game of typed rules. A position is held as a boxed[P], a
// pointer to it: a pointer fits an interface without another allocation,
// so the children of a position are erased with one allocation for the
// slice, pointing into the typed slice Children made.
type erased[P Position] struct {
	info  Info
	r     Rules[P]
	until ChildrenUntil[P]    // nil when r has no ChildrenUntil
	count ComponentCounter[P] // nil when r has no NumComponents
}

// of returns the typed position x holds.
func (*erased[P]) of(x Position) P { return *x.(boxed[P]).p }

// boxed is how an erased position holds its typed position.
type boxed[P Position] struct{ p *P }

// String writes the position as its type does.
func (b boxed[P]) String() string { return (*b.p).String() }

// wrapAll returns the positions of ps, erased, pointing into ps.
func wrapAll[P Position](ps []P) []Position {
	if ps == nil {
		return nil
	}
	out := make([]Position, len(ps))
	for i := range ps {
		out[i] = boxed[P]{&ps[i]}
	}
	return out
}

func (e *erased[P]) Info() Info              { return e.info }
func (e *erased[P]) rules() any              { return e.r }
func (e *erased[P]) Key(x Position) string   { return e.r.Key(e.of(x)) }
func (e *erased[P]) Size(x Position) int     { return e.r.Size(e.of(x)) }
func (e *erased[P]) Measure(x Position) Cost { return e.r.Measure(e.of(x)) }

func (e *erased[P]) PositionBytes(x Position) int {
	var p P
	return int(unsafe.Sizeof(x)+unsafe.Sizeof(p)) + len(e.Key(x))
}

func (e *erased[P]) EstimateChildren(x Position) int {
	return e.r.EstimateChildren(e.of(x))
}

func (e *erased[P]) Parse(text string) (Position, error) {
	p, err := e.r.Parse(text)
	if err != nil {
		return nil, err
	}
	return boxed[P]{&p}, nil
}

func (e *erased[P]) FromKey(key string) (Position, error) {
	p, err := e.r.FromKey(key)
	if err != nil {
		return nil, err
	}
	return boxed[P]{&p}, nil
}

func (e *erased[P]) Components(x Position) []Position {
	return wrapAll(e.r.Components(e.of(x)))
}

func (e *erased[P]) AppendComponents(dst []Position, x Position) []Position {
	if e.count != nil && e.count.NumComponents(e.of(x)) == 1 {
		return append(dst, x) // an atomic position is its own component, without an allocation
	}
	comps := e.r.Components(e.of(x))
	for i := range comps {
		dst = append(dst, boxed[P]{&comps[i]})
	}
	return dst
}

func (e *erased[P]) NumComponents(x Position) int {
	if e.count != nil {
		return e.count.NumComponents(e.of(x))
	}
	return len(e.r.Components(e.of(x)))
}

func (e *erased[P]) Combine(xs []Position) Position {
	ps := make([]P, len(xs))
	for i, x := range xs {
		ps[i] = e.of(x)
	}
	p := e.r.Combine(ps)
	return boxed[P]{&p}
}

func (e *erased[P]) Children(x Position) []Position {
	return wrapAll(e.r.Children(e.of(x)))
}

func (e *erased[P]) ChildrenUntil(x Position, stop func(Position) bool) ([]Position, bool) {
	if e.until == nil {
		kids := e.Children(x)
		for _, k := range kids {
			if stop(k) {
				return kids, true
			}
		}
		return kids, true
	}
	cell := new(P) // one for all the children stop sees, which it does not keep
	kids, complete := e.until.ChildrenUntil(e.of(x), func(p P) bool {
		*cell = p
		return stop(boxed[P]{cell})
	})
	return wrapAll(kids), complete
}

func (e *erased[P]) WithCache(bytes int64) Game {
	c, ok := e.r.(WithCache[P])
	if !ok {
		return e
	}
	return New(e.info, c.WithCache(bytes))
}
