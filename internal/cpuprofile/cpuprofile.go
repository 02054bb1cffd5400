// Package cpuprofile writes the CPU profile a command's --cpuprofile asks
// for.
package cpuprofile

import (
	"fmt"
	"io"
	"runtime/pprof"
)

// Output is a file the profile is written to as the run goes: Commit puts
// it in place, complete, and Abort drops it, leaving whatever was at its
// path. format.AtomicFile is one; the command chooses, so that this
// package depends on no file format.
type Output interface {
	io.Writer
	Commit() error
	Abort()
}

// Profile records a CPU profile (for `go tool pprof`) from start to
// stop. Written through an Output that creates it atomically (as
// format.CreateAtomic does), a crashed run never leaves a truncated
// profile under the name asked for, and an unwritable path fails at
// start, before any work is done.
type Profile struct {
	path string
	out  Output
}

// Start starts profiling for --cpuprofile path into the Output create
// makes of it (format.CreateAtomic); "" profiles nothing and returns nil,
// whose Stop does nothing.
func Start[O Output](path string, create func(path string) (O, error)) (*Profile, error) {
	if path == "" {
		return nil, nil
	}
	out, err := create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Abort()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return &Profile{path: path, out: out}, nil
}

// Stop ends profiling and puts the profile in place.
func (p *Profile) Stop() error {
	if p == nil {
		return nil
	}
	pprof.StopCPUProfile()
	if err := p.out.Commit(); err != nil {
		return fmt.Errorf("--cpuprofile %s: %w", p.path, err)
	}
	return nil
}
