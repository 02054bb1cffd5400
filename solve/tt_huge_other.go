//go:build unix && !linux

package solve

// hugePages does nothing where huge pages are not asked for by madvise.
func hugePages(mem []byte) {}
