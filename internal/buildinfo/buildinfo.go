// Package buildinfo tells which build of spots is running: the module
// version and the version-control revision that the Go toolchain recorded
// in the binary. The commands print it for --version and write it into the
// certificates they make (as provenance, outside the content address).
package buildinfo

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"
)

// Version returns the running build's version: the main module's version
// ("(devel)" when the toolchain does not know it, as in a build from a
// checkout), followed by the VCS revision when one was recorded (its first
// 12 hex digits, with "+modified" when the work tree had uncommitted
// changes), e.g. "(devel) 3f2a9c1d0b7e+modified", unless the version
// already names the revision, as the pseudo-versions of Go 1.24 and later
// do ("v0.0.0-20261122180353-99ba079ea8c7+dirty").
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return format(bi)
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

// Usage prints a command's usage text, then its flags and, when exitCodes
// is not empty, its exit codes, to w.
func Usage(w io.Writer, text string, flags *pflag.FlagSet, exitCodes string) {
	fmt.Fprint(w, text)
	flags.SetOutput(w)
	flags.PrintDefaults()
	if exitCodes != "" {
		fmt.Fprint(w, "\nExit status:\n"+strings.TrimLeft(exitCodes, "\n"))
	}
}
