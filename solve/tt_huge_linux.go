package solve

import "syscall"

// hugePages asks the kernel to back mem with huge pages: lookups land
// anywhere in the table and miss the TLB far less often on them. The
// kernel may ignore the advice (transparent huge pages off).
func hugePages(mem []byte) {
	const madvHugePage = 14 // MADV_HUGEPAGE
	_ = syscall.Madvise(mem, madvHugePage)
}
