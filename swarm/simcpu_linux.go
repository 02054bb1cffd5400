//go:build linux

package swarm

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread only.
const rusageThread = 1

// cpuTime returns the CPU time (user and system) of the calling thread: a
// simulation locks its goroutine to one thread, so the difference around a
// call is what the call cost — the collector's assists included, its
// background workers on other threads not — however busy the machine is
// with other processes.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
