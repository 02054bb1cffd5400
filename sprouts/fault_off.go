//go:build !spotsfault

package sprouts

// faulty is false: the planted faults of fault_on.go exist only in builds
// with the tag spotsfault, which only their tests use.
const faulty = false

func faultChildren(p Position, dst []Position, stop func(Position) bool, lands *Cache) ([]Position, bool) {
	return p.generateChildren(dst, stop, lands)
}
