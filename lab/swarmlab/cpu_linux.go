//go:build linux

package swarmlab

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID: the calling
// thread's CPU time, to the nanosecond. (getrusage(RUSAGE_THREAD) counts
// in scheduler ticks, so a short exchange often measured 0.)
const clockThreadCPUTime = 3

// cpuTime returns the CPU time (user and system) of the calling thread: a
// simulation locks its goroutine to one thread, so the difference around a
// call is what the call cost — the collector's assists included, its
// background workers on other threads not — however busy the machine is
// with other processes.
func cpuTime() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
