package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/cmdline"
)

// Outputs. Every output is checked before any work, so that a check of
// minutes never ends by refusing where it writes, nor by overwriting what
// it read: the files given (internal/cmdline.CheckOutputs), and the
// certificates it reads by address, which are not named on the command
// line. A cited certificate is read as DIR/<address>.arrow, DIR the
// directory of a file given or one of --cites, and a certificate is
// written as DIR/<address>.arrow into --bundle's, --inline's or
// --convert's DIR: a file of such a name in such a directory is no place
// for another output.

// checkOutputs refuses, before any work, an output that would overwrite
// an input (a certificate given or cited, --spr's database) or cannot be
// written, and makes the directories of --bundle, --inline and --convert.
func (c *commandLine) checkOutputs() error {
	var read, written []cmdline.File
	for _, d := range c.cites {
		read = append(read, cmdline.File{Flag: "--cites", Path: d})
	}
	inputs := []cmdline.File{{Flag: "--spr", Path: c.spr}}
	for _, a := range c.flags.Args() {
		inputs = append(inputs, cmdline.File{Path: a})
		read = append(read, cmdline.File{Path: filepath.Dir(a)})
	}
	var archive []cmdline.File
	for _, out := range []cmdline.File{{Flag: "--bundle", Path: c.bundle}, {Flag: "--inline", Path: c.inline}, {Flag: "--convert", Path: c.convert}} {
		switch {
		case out.Path == "":
		case out.Flag == "--bundle" && isArchive(out.Path):
			archive = append(archive, out)
		default:
			written = append(written, out)
		}
	}
	if dir, ok := certificateDir(c.profile, append(read, written...)); ok {
		return fmt.Errorf("--cpuprofile %s is named as a certificate in %s, where this run reads or writes certificates by address: write the profile elsewhere", c.profile, dir)
	}
	if dir, ok := certificateDir(c.spr, written); ok {
		return fmt.Errorf("--spr %s is named as a certificate in %s, where the converted certificate is written by its address: move the database, or convert into another directory", c.spr, dir)
	}
	for _, out := range written {
		if err := outputDir(out.Path); err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
	}
	for _, out := range archive {
		if err := outputDir(filepath.Dir(out.Path)); err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
	}
	return cmdline.CheckOutputs(inputs, append(archive, cmdline.File{Flag: "--cpuprofile", Path: c.profile}))
}

// outputDir makes the directory dir where certificates are to be written
// (with its parents, as spots-solve --cert makes its DIR) and checks that
// it is a directory that takes a new file.
func outputDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: name a directory you may write", err)
	}
	probe, err := os.CreateTemp(dir, ".spots-probe*")
	if err != nil {
		return fmt.Errorf("cannot write in it (%v): choose a directory you may write", err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// certificateDir reports whether the file at path (where a link leads,
// for a writer follows it) is named as a certificate, <address>.arrow,
// in one of dirs; it returns that directory.
func certificateDir(path string, dirs []cmdline.File) (cmdline.File, bool) {
	if path == "" {
		return cmdline.File{}, false
	}
	target := path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	} else if link, err := os.Readlink(path); err == nil {
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		target = link
	}
	for _, p := range []string{path, target} {
		name, ok := strings.CutSuffix(filepath.Base(p), ".arrow")
		if !ok || !format.IsAddress(strings.ToLower(name)) {
			continue
		}
		for _, d := range dirs {
			if cmdline.SameFile(filepath.Dir(p), d.Path) {
				return d, true
			}
		}
	}
	return cmdline.File{}, false
}
