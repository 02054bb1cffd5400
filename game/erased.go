package game

// erased is the Game of typed rules. A position is held as a *P: a
// pointer fits an interface without another allocation, so the children
// of a position are erased with one allocation for the slice, pointing
// into the typed slice Children made.
type erased[P any] struct {
	info  Info
	r     Rules[P]
	until ChildrenUntil[P]    // nil when r has no ChildrenUntil
	count ComponentCounter[P] // nil when r has no NumComponents
}

// of returns the typed position x holds.
func (*erased[P]) of(x Position) P { return *x.(*P) }

// wrapAll returns the positions of ps, erased, pointing into ps.
func wrapAll[P any](ps []P) []Position {
	if ps == nil {
		return nil
	}
	out := make([]Position, len(ps))
	for i := range ps {
		out[i] = &ps[i]
	}
	return out
}

func (e *erased[P]) Info() Info               { return e.info }
func (e *erased[P]) rules() any               { return e.r }
func (e *erased[P]) String(x Position) string { return e.r.String(e.of(x)) }
func (e *erased[P]) Key(x Position) string    { return e.r.Key(e.of(x)) }
func (e *erased[P]) Size(x Position) int      { return e.r.Size(e.of(x)) }
func (e *erased[P]) Measure(x Position) Cost  { return e.r.Measure(e.of(x)) }

func (e *erased[P]) EstimateChildren(x Position) int {
	return e.r.EstimateChildren(e.of(x))
}

func (e *erased[P]) Parse(text string) (Position, error) {
	p, err := e.r.Parse(text)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

func (e *erased[P]) FromKey(key string) (Position, error) {
	p, err := e.r.FromKey(key)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

func (e *erased[P]) Components(x Position) []Position {
	return wrapAll(e.r.Components(e.of(x)))
}

func (e *erased[P]) AppendComponents(dst []Position, x Position) []Position {
	comps := e.r.Components(e.of(x))
	for i := range comps {
		dst = append(dst, &comps[i])
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
	return &p
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
	kids, complete := e.until.ChildrenUntil(e.of(x), func(p P) bool { return stop(&p) })
	return wrapAll(kids), complete
}
