package cram

// Rules presents Cram to game-agnostic searches (package solve): keys,
// regions as components, children, empty cells as size. Its methods are
// those of Position under the names a search expects.
type Rules struct{}

// Key returns p.Key().
func (Rules) Key(p Position) string { return p.Key() }

// Components returns the regions of p.
func (Rules) Components(p Position) []Position { return p.Regions() }

// AppendComponents appends the regions of p to dst.
func (Rules) AppendComponents(dst []Position, p Position) []Position { return p.AppendRegions(dst) }

// Combine returns the sum of the regions.
func (Rules) Combine(rs []Position) Position { return Sum(rs...) }

// Children returns p.Children().
func (Rules) Children(p Position) []Position { return p.Children() }

// ChildrenUntil returns p.ChildrenUntil(stop): the search stops making
// children when it must stop, or once one is lost.
func (Rules) ChildrenUntil(p Position, stop func(Position) bool) ([]Position, bool) {
	return p.ChildrenUntil(stop)
}

// Size returns the empty cells of p, which every move takes down by at
// least 2.
func (Rules) Size(p Position) int { return p.Cells() }

// EstimateChildren returns p.EstimateChildren().
func (Rules) EstimateChildren(p Position) int { return p.EstimateChildren() }
