package octal

// Rules presents octal games to game-agnostic searches (package solve):
// keys, heaps as components, children, tokens as size. Its methods are
// those of Position under the names a search expects.
type Rules struct{}

// Key returns p.Key().
func (Rules) Key(p Position) string { return p.Key() }

// Components returns the heaps of p.
func (Rules) Components(p Position) []Position { return p.Heaps() }

// AppendComponents appends the heaps of p to dst: the search asks for the
// heaps of every child it makes and keeps none of the slices.
func (Rules) AppendComponents(dst []Position, p Position) []Position { return p.AppendHeaps(dst) }

// Combine returns the sum of the positions.
func (Rules) Combine(ps []Position) Position { return Sum(ps...) }

// Children returns p.Children().
func (Rules) Children(p Position) []Position { return p.Children() }

// ChildrenUntil returns p.ChildrenUntil(stop): the search stops making
// children when it must stop, or once one is lost.
func (Rules) ChildrenUntil(p Position, stop func(Position) bool) ([]Position, bool) {
	return p.ChildrenUntil(stop)
}

// Size returns the tokens of p, which every move takes down by at least 1.
func (Rules) Size(p Position) int { return p.Tokens() }

// EstimateChildren returns p.EstimateChildren().
func (Rules) EstimateChildren(p Position) int { return p.EstimateChildren() }
