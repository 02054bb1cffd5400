package main

import (
	"fmt"
	"runtime/pprof"

	"github.com/spots-dev/spots/format"
)

// cpuProfile records a CPU profile (for `go tool pprof`) from start to
// stop, through a format.AtomicFile: a crashed run never leaves a
// truncated profile under the name asked for, and an unwritable path fails
// at start, before any work is done.
type cpuProfile struct {
	path string
	f    *format.AtomicFile
}

// startCPUProfile starts profiling for --cpuprofile path; "" profiles
// nothing and returns nil, whose stop does nothing.
func startCPUProfile(path string) (*cpuProfile, error) {
	if path == "" {
		return nil, nil
	}
	f, err := format.CreateAtomic(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Abort()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return &cpuProfile{path: path, f: f}, nil
}

// stop ends profiling and puts the profile in place.
func (p *cpuProfile) stop() error {
	if p == nil {
		return nil
	}
	pprof.StopCPUProfile()
	if err := p.f.Commit(); err != nil {
		return fmt.Errorf("--cpuprofile %s: %w", p.path, err)
	}
	return nil
}
