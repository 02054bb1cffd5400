//go:build !unix

package memguard

// rlimits returns nothing where there are no resource limits to read.
func rlimits() []rlimit { return nil }
