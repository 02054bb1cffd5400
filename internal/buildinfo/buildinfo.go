// Package buildinfo tells which build of spots is running, and the
// commands print it for --version and write it into the certificates they
// make (as provenance, outside the content address). It is, first found
// first:
//
//   - the version make build stamps in with the linker (the git
//     description of the checkout, see stamped), even where the Go
//     toolchain recorded no revision (-buildvcs=false);
//   - the module version and the version-control revision that the Go
//     toolchain recorded in the binary (a build with VCS stamping, or go
//     install of a released version);
//   - the commit that git archive wrote into archive.txt, for a build from
//     a source archive (a GitHub tarball) without git;
//   - "(devel)": nothing says which source this is.
package buildinfo

import (
	_ "embed"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"
)

// stamped is the version make build writes into the binary with
// -ldflags "-X github.com/spots-dev/spots/internal/buildinfo.stamped=VERSION"
// (git describe --tags --always --dirty of the checkout); empty when the
// build did not set it. It is a variable only so that the linker can set
// it: nothing writes it at run time.
var stamped string

// archive is archive.txt: "$Format:%H$" in a checkout, the commit's full
// hash in a file that git archive wrote (.gitattributes marks it
// export-subst).
//
//go:embed archive.txt
var archive string

// Version returns the running build's version (see the package comment),
// e.g. "3f2a9c1d0b7e-dirty" (stamped by make build),
// "v0.0.0-20261122180353-99ba079ea8c7+dirty" (a Go 1.24+ pseudo-version),
// "(devel) 3f2a9c1d0b7e" (a revision without a module version, or a source
// archive's commit), or "(devel)".
func Version() string {
	bi, _ := debug.ReadBuildInfo()
	return version(stamped, bi, archive)
}

// version is Version for the given stamp, build information (nil when the
// binary has none) and archive.txt.
func version(stamped string, bi *debug.BuildInfo, archive string) string {
	if s := strings.TrimSpace(stamped); s != "" {
		return s
	}
	v := "(devel)"
	if bi != nil {
		v = format(bi)
	}
	if v != "(devel)" {
		return v
	}
	if rev := archiveRevision(archive); rev != "" {
		return v + " " + rev
	}
	return v
}

// Named reports whether version v (as Version returns it) says which source
// the build is: false for "(devel)" alone, and for the "" and "dev" that
// older builds wrote.
func Named(v string) bool {
	switch strings.TrimSpace(v) {
	case "", "dev", "(devel)":
		return false
	}
	return true
}

// archiveRevision returns the first 12 hex digits of the commit that git
// archive wrote into archive.txt, or "" when git archive did not write it
// (the file still holds its placeholder).
func archiveRevision(text string) string {
	rev := strings.TrimSpace(text)
	if len(rev) != 40 && len(rev) != 64 { // SHA-1 or SHA-256 repositories
		return ""
	}
	for _, c := range rev {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return ""
		}
	}
	return rev[:12]
}

// format is Version for the given build information.
func format(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if strings.Contains(v, rev) {
		return v // a pseudo-version (Go 1.24 and later) names the revision already
	}
	if modified == "true" {
		rev += "+modified"
	}
	return v + " " + rev
}

// Std holds the flags every command has: --help and --version.
type Std struct {
	Help    bool
	Version bool
}

// AddStd defines --help (-h) and --version on flags. Defining --help
// ourselves keeps pflag from printing the usage on its own (to standard
// error): the command prints it to standard output and exits 0.
func AddStd(flags *pflag.FlagSet) *Std {
	var s Std
	flags.BoolVarP(&s.Help, "help", "h", false, "print this help to standard output and exit")
	flags.BoolVar(&s.Version, "version", false, "print the version and exit")
	return &s
}

// Handle acts on --help and --version: it prints the usage (through
// printUsage) or the version line "name version" to stdout and reports
// true when the command should exit 0.
func (s *Std) Handle(name string, stdout io.Writer, printUsage func(io.Writer)) bool {
	switch {
	case s.Help:
		printUsage(stdout)
		return true
	case s.Version:
		fmt.Fprintf(stdout, "%s %s\n", name, Version())
		return true
	}
	return false
}

// helpWidth is the width the flags of --help are wrapped to.
const helpWidth = 100

// Usage prints a command's usage text, then its flags and, when exitCodes
// is not empty, its exit codes, to w.
func Usage(w io.Writer, text string, flags *pflag.FlagSet, exitCodes string) {
	fmt.Fprint(w, text)
	// Wrapped to helpWidth columns: a flag's text ran to 520.
	fmt.Fprint(w, flags.FlagUsagesWrapped(helpWidth))
	if exitCodes != "" {
		fmt.Fprint(w, "\nExit status:\n"+strings.TrimLeft(exitCodes, "\n"))
	}
}
