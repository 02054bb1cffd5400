// Package cpuprofile writes the CPU profile a command's --cpuprofile asks
// for.
package cpuprofile

import (
	"fmt"
	"runtime/pprof"

	"github.com/spots-dev/spots/format"
)

// Profile records a CPU profile (for `go tool pprof`) from start to
// stop, through a format.AtomicFile: a crashed run never leaves a
// truncated profile under the name asked for, and an unwritable path fails
// at start, before any work is done.
type Profile struct {
	path string
	f    *format.AtomicFile
}

// Start starts profiling for --cpuprofile path; "" profiles nothing and
// returns nil, whose Stop does nothing.
func Start(path string) (*Profile, error) {
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
	return &Profile{path: path, f: f}, nil
}

// Stop ends profiling and puts the profile in place.
func (p *Profile) Stop() error {
	if p == nil {
		return nil
	}
	pprof.StopCPUProfile()
	if err := p.f.Commit(); err != nil {
		return fmt.Errorf("--cpuprofile %s: %w", p.path, err)
	}
	return nil
}
