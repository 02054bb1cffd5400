package solve

import "math"

// Proof and disproof numbers are unsigned with Inf standing for ∞. Sums
// saturate at Inf-1 rather than wrap: a sum that large only means "very
// hard", and Inf keeps its meaning of "proven".
const Inf = math.MaxUint64

// AddNumbers adds two proof or disproof numbers as every search here
// does: Inf stays Inf, and a finite sum saturates at Inf-1. It is for the
// numbers other packages keep beside the rules' (SettleAtomic, SettleSum).
func AddNumbers(a, b uint64) uint64 { return add(a, b) }

func add(a, b uint64) uint64 {
	if a == Inf || b == Inf {
		return Inf
	}
	if s := a + b; s >= a && s != Inf {
		return s
	}
	return Inf - 1
}

// sub returns a-b for b finite and b <= a; Inf-b is Inf. A negative result
// (a bug in the threshold arithmetic) is clamped to 0 and reported by assert
// in debug builds.
func sub(a, b uint64) uint64 {
	if a == Inf {
		return Inf
	}
	if b > a {
		assert(false, "threshold underflow")
		return 0
	}
	return a - b
}
