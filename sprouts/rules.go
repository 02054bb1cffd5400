package sprouts

// Rules presents Sprouts to game-agnostic searches (package solve): keys,
// lands as components, children, lives as size. Its methods are those of
// Position under the names a search expects.
type Rules struct{}

// Key returns p.Key().
func (Rules) Key(p Position) string { return p.code }

// Components returns the lands of p.
func (Rules) Components(p Position) []Position { return p.Lands() }

// AppendComponents appends the lands of p to dst.
func (Rules) AppendComponents(dst []Position, p Position) []Position { return p.AppendLands(dst) }

// Combine returns the sum of the lands.
func (Rules) Combine(lands []Position) Position { return Sum(lands...) }

// Children returns p.Children().
func (Rules) Children(p Position) []Position { return p.Children() }

// ChildrenUntil returns p.ChildrenUntil(stop).
func (Rules) ChildrenUntil(p Position, stop func(Position) bool) ([]Position, bool) {
	return p.ChildrenUntil(stop)
}

// Size returns the lives of p.
func (Rules) Size(p Position) int { return p.Lives() }

// EstimateChildren returns p.EstimateChildren().
func (Rules) EstimateChildren(p Position) int { return p.EstimateChildren() }
