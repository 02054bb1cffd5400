package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/zeebo/blake3"

	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// Checkpoints by default. A dfpn or pdfpn search of one Sprouts position
// without --state keeps its checkpoint in the user's cache directory
// (spots/solve/<position>), saved every --state-every and when it stops,
// so that a Ctrl-C, a --timeout or a crash loses nothing: the same command
// run again resumes it. The directory is removed once the answer is
// printed. --state none keeps no checkpoint.

// stateNone is the --state that keeps no checkpoint.
const stateNone = "none"

// defaultStateRoot is where the default checkpoints are kept.
func defaultStateRoot() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "spots", "solve"), nil
}

// stateName is the directory name of the default checkpoint of the search
// of root + *heap (gn(root) with nimber): the claim's text, or a hash of
// it where that text would not make a file name.
func stateName(root sprouts.Position, heap uint32, nimber bool) string {
	name := root.String()
	switch {
	case nimber:
		name = "gn(" + name + ")"
	case heap > 0:
		name += "+*" + strconv.FormatUint(uint64(heap), 10)
	}
	if len(name) > 100 || strings.ContainsAny(name, "/\\\x00") || name == "." || name == ".." {
		sum := blake3.Sum256([]byte(name))
		return "position-" + hex.EncodeToString(sum[:12])
	}
	return name
}

// autoState sets the run up to keep the default checkpoint (r.auto), and
// to resume the search it holds, when the run is one dfpn or pdfpn search
// of one position without --state or --resume. It returns the exit status
// of a failure, or -1.
func (r *runner) autoState(roots []sprouts.Position, heaps []uint32) int {
	cfg := &r.cfg
	if root, err := defaultStateRoot(); err == nil && cfg.swarm.stateDir == "" && cfg.swarm.resumeDir != "" &&
		filepath.Dir(filepath.Clean(cfg.swarm.resumeDir)) == root {
		r.auto = cfg.swarm.resumeDir // a default checkpoint resumed by name: removed once solved, as it would be
		return -1
	}
	if cfg.noState || cfg.swarm.stateDir != "" || cfg.swarm.resumeDir != "" || len(roots) != 1 ||
		cfg.algorithm != solve.SearchDFPN && cfg.algorithm != solve.SearchPDFPN {
		return -1
	}
	root, err := defaultStateRoot()
	if err != nil {
		return -1 // no cache directory: no default checkpoint
	}
	dir := filepath.Join(root, stateName(roots[0], heaps[0], cfg.nimber))
	if err := lockStateDir("--state", dir); err != nil {
		return r.fail("%v (the default checkpoint of this search; --state none keeps none)", err)
	}
	cfg.swarm.stateDir, r.auto = dir, dir
	if m, err := checkpoint.Load(dir); err == nil {
		cfg.swarm.resumeDir = dir
		fmt.Fprintf(r.stderr, "spots-solve: going on with the search of %s that an earlier run left in %s (--state none starts afresh)\n", m.Position, dir)
	} else if !errors.Is(err, checkpoint.ErrNone) {
		to, err := moveAside(dir)
		if err != nil {
			return r.fail("the default checkpoint %s cannot be read, nor moved aside: %v (remove it, or give --state none)", dir, err)
		}
		fmt.Fprintf(r.stderr, "spots-solve: the default checkpoint in %s cannot be read: moved it aside into %s, starting afresh\n", dir, to)
	}
	return -1
}

// afterState ends the run's checkpoint: the default one is removed once
// every position is solved; a search that stopped unsolved says how to go
// on from where it is saved.
func (r *runner) afterState(results []result) {
	dir := r.cfg.swarm.stateDir
	if dir == "" {
		dir = r.cfg.swarm.resumeDir
	}
	if dir == "" {
		return
	}
	unsolved := ""
	for _, res := range results {
		if !res.Outcome.Known() {
			unsolved = res.Input
		}
	}
	switch {
	case unsolved == "" && len(results) > 0 && r.auto != "":
		if err := checkpoint.Remove(dir); err != nil {
			fmt.Fprintf(r.stderr, "spots-solve: warning: removing the checkpoint in %s: %v\n", dir, err)
		}
		os.Remove(filepath.Join(dir, stateLockFile))
		os.Remove(dir)
	case unsolved == "":
	case r.auto != "":
		fmt.Fprintf(r.stderr, "spots-solve: %s: the search is saved in %s: run the same command again to go on (or spots-solve --resume %s)\n", unsolved, dir, dir)
	default:
		fmt.Fprintf(r.stderr, "spots-solve: %s: the search is saved in %s: spots-solve --resume %s goes on\n", unsolved, dir, dir)
	}
}

// resumeArgs returns the position of the search saved in --resume's
// directory, for a command line that gives none (spots-solve --resume
// DIR), and sets --nimber as the search had it.
func resumeArgs(flags *pflag.FlagSet, cfg *config) ([]string, error) {
	m, err := checkpoint.Load(cfg.swarm.resumeDir)
	if err != nil {
		return nil, fmt.Errorf("--resume %s with no position: %w", cfg.swarm.resumeDir, err)
	}
	if flags.Changed("nimber") && cfg.nimber != m.Nimber {
		return nil, fmt.Errorf("--resume %s holds a search of %s with --nimber %v: give it as it was, or leave --nimber out", cfg.swarm.resumeDir, m.Position, m.Nimber)
	}
	cfg.nimber = m.Nimber
	if !flags.Changed("algorithm") && (m.Algorithm == solve.SearchDFPN || m.Algorithm == solve.SearchPDFPN) {
		cfg.algorithm = m.Algorithm
	}
	pos := m.Position
	if m.Heap > 0 {
		pos += "+*" + strconv.FormatUint(uint64(m.Heap), 10)
	}
	return []string{pos}, nil
}
