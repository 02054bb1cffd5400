package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/cmdline"
)

// checkOutputs checks the files the run will write before it starts (see
// cmdline.CheckOutputs): against the files named on the command line, and
// against the directories whose files the run reads or keeps
// (checkOutputDirs). --db-out may name the file of --db-in: that database
// is read whole before the search and replaced, extended, after it,
// through a temporary file.
func checkOutputs(cfg config) error {
	var inputs []cmdline.File
	if cfg.dbIn != "" && !cmdline.SameFile(cfg.dbIn, cfg.dbOut) {
		inputs = append(inputs, cmdline.File{Flag: "--db-in", Path: cfg.dbIn})
	}
	inputs = append(inputs, cmdline.File{Flag: "--key-file", Path: cfg.swarm.keyFile})
	outputs := []cmdline.File{
		{Flag: "--db-out", Path: cfg.dbOut}, {Flag: "--stats", Path: cfg.statsPath}, {Flag: "--cpuprofile", Path: cfg.cpuProfile},
		{Flag: "--status-file", Path: cfg.swarm.statusFile},
	}
	if err := cmdline.CheckOutputs(inputs, outputs); err != nil {
		return err
	}
	return checkOutputDirs(outputDirs(cfg), outputs)
}

// outputDir is a directory whose files a run reads or keeps, which no
// output of the run may write into: all its files (certOnly false), or
// those named as certificates, <address>.arrow (certOnly).
type outputDir struct {
	flag, dir string
	why       string // what the run does with the directory's files
	certOnly  bool
}

// outputDirs are the directories of cfg's run that its outputs must keep
// out of: --reuse's (every certificate there may be read, and cited),
// --state's and --resume's (the search saved there), and the names of
// certificates in --cert's (each one written there is read back to be
// verified, and cited later by its name).
func outputDirs(cfg config) []outputDir {
	return append(reuseDirs(cfg.reuse),
		outputDir{"--state", cfg.swarm.stateDir, "where the run saves its search", false},
		outputDir{"--resume", cfg.swarm.resumeDir, "whose saved search the run reads", false},
		outputDir{"--cert", cfg.certDir, "where certificates are written under their addresses, read back and cited", true})
}

// reuseDirs are the directories of --reuse as outputDirs.
func reuseDirs(reuse []string) []outputDir {
	var dirs []outputDir
	for _, d := range reuse {
		dirs = append(dirs, outputDir{"--reuse", d, "whose certificates the run reads and its certificates cite", false})
	}
	return dirs
}

// checkOutputDirs refuses an output that would write into one of dirs:
// where its bytes land (through a link, a link to nothing included) is a
// file of the directory, or a file there of another name (a hard link).
// A device or a pipe (/dev/null) is written directly and refused nowhere.
func checkOutputDirs(dirs []outputDir, outputs []cmdline.File) error {
	for _, out := range outputs {
		if out.Path == "" {
			continue
		}
		if info, err := os.Stat(out.Path); err == nil && !info.Mode().IsRegular() {
			continue // a device or a pipe (a directory CheckOutputs refused)
		}
		at := landsAt(out.Path)
		for _, d := range dirs {
			if d.dir == "" {
				continue
			}
			if (!d.certOnly || isCertName(filepath.Base(at))) && cmdline.SameFile(filepath.Dir(at), d.dir) || holdsSame(d, out.Path) {
				return fmt.Errorf("%s would write into %s %s, %s: write the output elsewhere", out, d.flag, d.dir, d.why)
			}
		}
	}
	return nil
}

// landsAt returns where writing path puts the bytes (format.CreateAtomic
// follows a link to a file, or to nothing in an existing directory): the
// path with its links and its directory's resolved.
func landsAt(path string) string {
	if t, err := filepath.EvalSymlinks(path); err == nil {
		return t
	}
	if link, err := os.Readlink(path); err == nil { // a link to nothing yet
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(dir, filepath.Base(path))
	}
	return path
}

// holdsSame reports whether the directory of d holds, under any name of
// those its rule covers, the file at path (a hard link to it, which a
// write in place would change).
func holdsSame(d outputDir, path string) bool {
	info, err := os.Stat(path)
	if err != nil {
		return false
	}
	names, err := os.ReadDir(d.dir)
	if err != nil {
		return false
	}
	for _, n := range names {
		if !n.Type().IsRegular() || d.certOnly && !isCertName(n.Name()) {
			continue
		}
		if other, err := os.Stat(filepath.Join(d.dir, n.Name())); err == nil && os.SameFile(info, other) {
			return true
		}
	}
	return false
}

// isCertName reports whether name is that of a certificate: its address
// and .arrow.
func isCertName(name string) bool {
	addr, ok := strings.CutSuffix(name, ".arrow")
	return ok && format.IsAddress(addr)
}
