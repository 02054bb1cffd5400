package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// cpuProfile records a CPU profile (for `go tool pprof`) from start to
// stop. It is written to a temporary file beside its path and renamed into
// place when complete, so a crashed run never leaves a truncated profile
// under the name asked for; an unwritable path fails at start, before any
// work is done.
type cpuProfile struct {
	path string
	f    *os.File
}

// startCPUProfile starts profiling for --cpuprofile path; "" profiles
// nothing and returns nil, whose stop does nothing.
func startCPUProfile(path string) (*cpuProfile, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(f.Name())
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
	err := p.f.Chmod(0o644)
	if err == nil {
		err = p.f.Sync()
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p.f.Name(), p.path)
	}
	if err != nil {
		os.Remove(p.f.Name())
		return fmt.Errorf("--cpuprofile %s: %w", p.path, err)
	}
	return nil
}
