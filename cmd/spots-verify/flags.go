package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/verify"
)

// commandLine is what the command line asks for.
type commandLine struct {
	flags                        *pflag.FlagSet
	stderr                       io.Writer
	spr, claim, convert, profile string
	cites                        []string // --cites
	bundle, inline               string
	lenient, json, independent   bool
	whole, noCache               bool // --whole, --no-cache
	dump                         bool
	progress                     statusline.Mode
	limits                       verify.Limits
}

// parseArgs reads the command line; it returns nil and the exit status
// when the run ends there (--help, --version, a flag it does not know).
func parseArgs(args []string, stdout, stderr io.Writer) (*commandLine, int) {
	c := &commandLine{flags: pflag.NewFlagSet("spots-verify", pflag.ContinueOnError), stderr: stderr}
	flags := c.flags
	flags.SetOutput(stderr)
	flags.StringVar(&c.spr, "spr", "", "check the [Positions+Nimber] database `DB` (needs --claim)")
	flags.StringVar(&c.claim, "claim", "", "the claim the database must prove, e.g. '0*12=L' or 'gn(0*9)=1'; with certificate files, the claim each must prove: a valid certificate of another claim is rejected")
	flags.StringVar(&c.convert, "convert", "", "with --spr: write the proof as a hinted certificate into `DIR` (made if missing)")
	flags.BoolVar(&c.lenient, "lenient", false, "with --spr: skip malformed lines with a warning")
	flags.BoolVar(&c.json, "json", false, "print one JSON object per input")
	flags.BoolVar(&c.independent, "independent", false, "check Sprouts inputs with the second, independent implementation of the rules (verify/sprouts2), searching for the witnesses instead of following the hints")
	flags.StringVar(&c.profile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	flags.BoolVar(&c.dump, "dump", false, dumpUsage)
	flags.BoolVar(&c.whole, "whole", false, "check every entry of the certificates cited, not only those the claim relies on (spots-corpus check does)")
	flags.BoolVar(&c.noCache, "no-cache", false, "check everything again: neither use nor keep the verdicts this build of the checker remembers (in the user's cache directory, spots/verdicts)")
	flags.StringArrayVar(&c.cites, "cites", nil, "look for the certificates a certificate cites in `DIR` too (after the certificate's own directory; repeatable)")
	flags.StringVar(&c.bundle, "bundle", "", "verify the one certificate given, then copy it and every certificate it cites, directly or not, into `DIR` (made if missing), or into one tar archive if DIR ends in .tar: the files a stranger needs")
	flags.StringVar(&c.inline, "inline", "", "verify the one certificate given, then write into `DIR` one self-contained certificate of its claim holding the rows of every certificate it cites (another address), and verify it alone")
	flags.Var(&c.progress, "progress", statusline.FlagUsage)
	limitFlags(flags, &c.limits)
	std := buildinfo.AddStd(flags)
	flags.Usage = func() { buildinfo.Usage(stderr, usage, flags, exitCodes) }
	if err := cmdline.Parse(flags, args); err != nil {
		fmt.Fprintf(stderr, "spots-verify: %v\n", err)
		return nil, 2
	}
	if std.Handle("spots-verify", stdout, func(w io.Writer) { buildinfo.Usage(w, usage, flags, exitCodes) }) {
		return nil, 0
	}
	return c, 0
}

// limitFlags binds the --max-… flags to l.
func limitFlags(flags *pflag.FlagSet, l *verify.Limits) {
	cmdline.LimitFlags(flags, l)
	flags.IntVar(&l.Entries, "max-entries", 0, fmt.Sprintf("with --spr: refuse a database of more entries than `N`, which bounds its memory (0: default %d, -1: no limit)", verify.DefaultLimits.Entries))
	flags.IntVar(&l.Cites, "max-cites", 0, fmt.Sprintf("refuse a certificate that relies on more than `N` others, cited directly or through others: each is found, read and checked, its rows held in memory (0: default %d, -1: no limit)", verify.DefaultLimits.Cites))
}

// usageError says what is wrong with the command line ("" if nothing).
func (c *commandLine) usageError() string {
	for _, check := range []func() string{c.limitError, c.exportError, c.modeError} {
		if msg := check(); msg != "" {
			return msg
		}
	}
	return ""
}

// limitError says which limit flag has a value out of range.
func (c *commandLine) limitError() string {
	l := c.limits
	for _, f := range []struct {
		name string
		v    int64
	}{{"max-lives", int64(l.Lives)}, {"max-boundaries", int64(l.Boundaries)}, {"max-letters", int64(l.Letters)}, {"max-cells", int64(l.Cells)}, {"max-moves", l.Moves}, {"max-work", l.Work}, {"max-entries", int64(l.Entries)}, {"max-cites", int64(l.Cites)}} {
		if f.v < -1 {
			return fmt.Sprintf("--%s %d: want a positive number, 0 for the default or -1 for no limit", f.name, f.v)
		}
	}
	return ""
}

// exportError says what is wrong with --bundle or --inline.
func (c *commandLine) exportError() string {
	switch {
	case c.bundle == "" && c.inline == "":
	case c.bundle != "" && c.inline != "":
		return "--bundle and --inline are two ways to write one proof: give one"
	case c.dump || c.spr != "":
		return "--bundle and --inline write the proof of a certificate file, not with --dump or --spr"
	case c.flags.NArg() != 1:
		return fmt.Sprintf("--bundle and --inline write the proof of one certificate (got %d files)", c.flags.NArg())
	}
	return ""
}

// modeError says what is wrong with the flags of a database's check, or
// with those flags given to a check of certificates: a flag that would
// do nothing is refused, not ignored.
func (c *commandLine) modeError() string {
	switch {
	case c.dump:
	case c.spr == "" && c.lenient:
		return "--lenient goes with --spr: it skips malformed lines of a text database; certificates have no lines to skip"
	case c.spr == "" && c.flags.Changed("max-entries"):
		return "--max-entries goes with --spr: it bounds the entries of a text database; a certificate's rows are bounded by its own size"
	case c.spr == "" && c.convert != "":
		return "--convert goes with --spr"
	case c.spr == "": // certificate files
	case c.flags.NArg() > 0:
		return fmt.Sprintf("--spr checks one database; certificate files (%s) are checked without it", c.flags.Arg(0))
	case c.claim == "":
		return "--spr needs --claim, e.g. --claim '0*12=L'"
	case c.independent && c.convert != "":
		return "--convert writes the hints of package sprouts; --independent does not make them (check without --independent to convert)"
	}
	return ""
}

// bad reports a usage error: exit status 2.
func (c *commandLine) bad(msg string, a ...any) int {
	fmt.Fprintf(c.stderr, "spots-verify: "+msg+"\n", a...)
	return 2
}
