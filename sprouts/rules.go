package sprouts

// Rules presents Sprouts to game-agnostic searches (package solve): keys,
// lands as components, children, lives as size. Its methods are those of
// Position under the names a search expects; the children are made through
// Cache, which the search's owner sizes (NewCache) and which no other
// search shares unless it is given the same one. The zero Rules caches
// nothing: the same children, made more slowly.
type Rules struct {
	Cache *Cache
}

// Key returns p.Key().
func (Rules) Key(p Position) string { return p.code }

// Components returns the lands of p.
func (Rules) Components(p Position) []Position { return p.Lands() }

// AppendComponents appends the lands of p to dst.
func (Rules) AppendComponents(dst []Position, p Position) []Position { return p.AppendLands(dst) }

// Combine returns the sum of the lands.
func (Rules) Combine(lands []Position) Position { return Sum(lands...) }

// Children returns p.Children(), made through r.Cache.
func (r Rules) Children(p Position) []Position {
	kids, _ := p.appendChildren(nil, nil, r.Cache)
	return kids
}

// ChildrenUntil returns p.ChildrenUntil(stop), made through r.Cache.
func (r Rules) ChildrenUntil(p Position, stop func(Position) bool) ([]Position, bool) {
	return p.appendChildren(nil, stop, r.Cache)
}

// Size returns the lives of p.
func (Rules) Size(p Position) int { return p.Lives() }

// EstimateChildren returns p.EstimateChildren().
func (Rules) EstimateChildren(p Position) int { return p.EstimateChildren() }
