package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/solve"
)

// checkAddDirs refuses, before a search that may take hours, the
// directories add would write into that cannot take what it writes: --out
// must be a directory (or one add can make), and not the corpus's certs/,
// which holds committed certificates only (one listed as kept elsewhere
// there fails the corpus's check, after the index lists it); --state must
// be neither the corpus's directory nor its certs/, where its checkpoint
// would lie among the corpus's files. It returns the exit status of a
// refusal, or -1.
func (e *env) checkAddDirs() int {
	o := e.opt
	certs := filepath.Join(o.dir, corpus.CertsDir)
	if err := makeable(o.out); err != nil {
		return e.fail(2, "--out %s: %v: give the directory that certificates kept elsewhere go into", o.out, err)
	}
	if cmdline.SameFile(o.out, certs) {
		return e.fail(2, "--out %s is the corpus's %s directory, which holds committed certificates only: give another directory for those kept elsewhere", o.out, corpus.CertsDir)
	}
	if o.state != "" && !o.noState && (cmdline.SameFile(o.state, certs) || cmdline.SameFile(o.state, o.dir)) {
		return e.fail(2, "--state %s is the corpus's directory or its %s: add saves its search there and removes it once added; give a directory of its own", o.state, corpus.CertsDir)
	}
	return -1
}

// makeable says why dir can be no directory (nil if it is one, or can be
// made): it, or the nearest of its parents that is there, is not a
// directory.
func makeable(dir string) error {
	for p := dir; ; p = filepath.Dir(p) {
		info, err := os.Stat(p)
		switch {
		case err == nil && info.IsDir():
			return nil
		case err == nil && p == dir:
			return errors.New("not a directory")
		case err == nil:
			return fmt.Errorf("%s is not a directory", p)
		}
		// Not there, or under a file (ENOTDIR): its parent says.
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// stateDir returns the checkpoint directory of add, or "" for none.
func stateDir(o options) (string, error) {
	switch {
	case o.noState || o.algorithm == solve.SearchPNS:
		return "", nil
	case o.state != "":
		return o.state, nil
	}
	root, err := stateRoot("")
	if err != nil {
		return "", fmt.Errorf("no --state given and %w", err)
	}
	name := corpus.StartText(o.solve)
	if o.nimber {
		name = "gn(" + name + ")"
	}
	return filepath.Join(root, name), nil
}

// stateRoot returns the directory under which add keeps its checkpoints by
// default (one directory per claim, 0*n or gn(0*n)), or root if given.
func stateRoot(root string) (string, error) {
	if root != "" {
		return root, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the checkpoints: %w", err)
	}
	return filepath.Join(cache, "spots", "corpus"), nil
}
