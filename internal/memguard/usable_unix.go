//go:build unix

package memguard

import (
	"fmt"
	"syscall"
)

// goReserve is the address space the Go runtime reserves beside the heap
// (its arenas' metadata, the stacks, the binary): a spots-solve of a few
// megabytes of heap dies at start under ulimit -v of 1.6 GB, and
// --memory 1000MB runs under 2.5 GB but 1300MB does not.
const goReserve = 1750 << 20

// dataReserve is what the process's data, beside a table, takes under
// RLIMIT_DATA, which counts only memory written to.
const dataReserve = 64 << 20

// rlimits returns the limits of RLIMIT_AS and RLIMIT_DATA that are set,
// with what the heap may take under each.
func rlimits() []rlimit {
	var out []rlimit
	for _, l := range []struct {
		res     int
		reserve uint64
		name    string
	}{{syscall.RLIMIT_AS, goReserve, "RLIMIT_AS, ulimit -v"}, {syscall.RLIMIT_DATA, dataReserve, "RLIMIT_DATA, ulimit -d"}} {
		var r syscall.Rlimit // RLIM_INFINITY is all ones: past 2^60
		if syscall.Getrlimit(l.res, &r) != nil || uint64(r.Cur) >= 1<<60 {
			continue
		}
		usable := uint64(1) // a limit under the reserve leaves nothing
		if uint64(r.Cur) > l.reserve {
			usable = uint64(r.Cur) - l.reserve
		}
		out = append(out, rlimit{usable, fmt.Sprintf("the process's limit of %s (%s), less the %s kept for the rest of the process", BytesText(float64(r.Cur)), l.name, BytesText(float64(l.reserve)))})
	}
	return out
}
