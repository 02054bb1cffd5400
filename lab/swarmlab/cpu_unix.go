//go:build unix && !linux

package swarmlab

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system):
// a simulation runs in one goroutine, so the difference around a call is
// what the call cost, however busy the machine is with other processes.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
