package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/cmdline"
)

func regenerateFlags(f *pflag.FlagSet, o *options) {
	f.BoolVar(&o.check, "check", false, "compare with the committed files instead of writing; exit 1 if they are stale")
	f.BoolVar(&o.noVerify, "no-verify", false, "with --check: do not verify the certificates, only check that each is present as index.csv lists it (for use after spots-corpus check, which verifies them)")
	f.BoolVar(&o.noCache, "no-cache", false, "verify everything again: neither use nor keep the verdicts this build of the checker remembers (spots-verify --no-cache)")
}

func runRegenerate(e *env) int {
	if e.opt.noVerify && !e.opt.check {
		return e.fail(2, "--no-verify goes with --check (regenerate writes only what it verified)")
	}
	c, status := e.open()
	if c == nil {
		return status
	}
	return e.regenerate(c, e.opt.check, false)
}

// regenerate checks the corpus and writes (or with check compares) the
// generated files. quiet prints nothing on success (for add --json, whose
// standard output is one JSON object).
func (e *env) regenerate(c *corpus.Corpus, check, quiet bool) int {
	stdout := e.stdout
	if quiet {
		stdout = io.Discard
	}
	// A certificate this build found valid before, unchanged since with
	// all it cites, is not verified again: regenerating after a check
	// took as long as the check (587 s) and now takes seconds.
	var opt corpus.CheckOptions
	if !e.opt.noCache {
		opt.Verify.Verdicts = cmdline.Verdicts("spots-corpus", e.stderr)
	}
	rep := e.check(c, opt)
	if !rep.OK() {
		printProblems(e.stderr, rep)
		return e.fail(1, "%s does not check (%s): not regenerating", c.Dir, plural(len(rep.Problems), "problem"))
	}
	gen, err := c.Generate(rep)
	if err != nil {
		return e.fail(1, "%v", err)
	}
	stale := c.Stale(gen)
	if check {
		if len(stale) > 0 {
			return e.fail(1, "%s stale: run spots-corpus regenerate (or make corpus) and commit the result", strings.Join(stale, " and ")+map[bool]string{true: " is", false: " are"}[len(stale) == 1])
		}
		fmt.Fprintf(stdout, "%s and %s are up to date\n", c.Path(corpus.OutcomesFile), c.Path(corpus.PlotFile))
		return 0
	}
	if len(stale) == 0 {
		fmt.Fprintf(stdout, "%s and %s are up to date\n", c.Path(corpus.OutcomesFile), c.Path(corpus.PlotFile))
		return 0
	}
	if err := c.Write(gen); err != nil {
		return e.fail(2, "%v", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", strings.Join(stale, " and "))
	return 0
}
