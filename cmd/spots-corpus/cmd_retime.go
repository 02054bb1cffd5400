package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/verify"
)

// retime measures again how long each chosen committed certificate takes
// to verify, cold, in a process of its own (one that cites others: its own
// share, see verifyCiting), and records the median of
// --runs such runs in index.csv (with --independent: how long the
// independent check takes, as independent_seconds). Verify times recorded when a certificate
// was added may come from an older checker or a loaded machine; the 5 %
// rule of OUTCOMES.md should judge the checker users run today.
func runRetime(e *env) int {
	o := e.opt
	if o.runs < 1 {
		return e.fail(2, "--runs %d: want at least 1", o.runs)
	}
	c, status := e.open()
	if c == nil {
		return status
	}
	chosen, status := e.retimeChoice(c)
	if status >= 0 {
		return status
	}
	type retimed struct {
		Claim  string    `json:"claim"`
		Before float64   `json:"before_seconds"`
		After  float64   `json:"verify_seconds"`
		Solve  float64   `json:"solve_seconds"`
		Runs   []float64 `json:"runs_seconds"`
	}
	var out []retimed
	// Certificates that cite others are timed in this process, each once
	// what it relies on is checked (verifyCiting), with one library, so
	// that what they share is checked once.
	lib := verify.NewLibrary(c.Path(corpus.CertsDir))
	for k, i := range chosen {
		r := c.Records[i]
		times, status := e.timeRuns(c, i, k, len(chosen), lib)
		if status >= 0 {
			return status
		}
		slices.Sort(times)
		median := millis(times[len(times)/2])
		before, recorded := r.VerifySeconds, &c.Records[i].VerifySeconds
		if o.independent {
			before, recorded = r.IndependentSeconds, &c.Records[i].IndependentSeconds
		}
		out = append(out, retimed{Claim: r.Claim.String(), Before: before, After: median, Solve: r.SolveSeconds, Runs: times})
		*recorded = median
		if !o.json {
			e.prog.Clear()
			fmt.Fprintf(e.stdout, "%-12s  %8.2f s → %8.2f s  (%s of the solve's %.1f s; runs %s)\n", r.Claim, before, median,
				percent(median, r.ProofSolveSeconds()), r.ProofSolveSeconds(), secondsList(times))
		}
	}
	e.prog.Clear()
	if o.dryRun {
		fmt.Fprintf(e.stderr, "spots-corpus: --dry-run: %s left as it was\n", c.Path(corpus.IndexFile))
	} else if err := c.SaveIndex(); err != nil {
		return e.fail(2, "%v", err)
	}
	if o.json {
		b, _ := json.Marshal(out)
		fmt.Fprintf(e.stdout, "%s\n", b)
	}
	if o.dryRun {
		return 0
	}
	// Every certificate retimed was just verified; check verifies the rest.
	if c, status = e.open(); c == nil {
		return status
	}
	e.opt.noVerify = true
	return e.regenerate(c, false, o.json)
}

// timeRuns times the check of record i (the k-th of n chosen) --runs
// times; it returns the times, or the exit status of a failure.
func (e *env) timeRuns(c *corpus.Corpus, i, k, n int, lib *verify.Library) ([]float64, int) {
	r := c.Records[i]
	path := c.CertPath(r)
	var times []float64
	for run := 0; run < e.opt.runs; run++ {
		if e.prog != nil {
			e.prog.Show(true, "timing %d of %d: %s, run %d of %d", k+1, n, r.Claim, run+1, e.opt.runs)
		}
		opt := verify.Options{Independent: e.opt.independent}
		var res verify.Result
		var seconds float64
		var err error
		if len(r.Cites) > 0 {
			res, seconds, err = e.verifyCiting(path, r.Address, lib, opt)
		} else {
			res, seconds, err = e.verifyApart(path, opt)
		}
		if err != nil && e.ctx.Err() != nil {
			return nil, e.fail(130, "interrupted: %s left as it was", c.Path(corpus.IndexFile))
		}
		if err != nil {
			return nil, e.fail(1, "%s (%s): %v", path, r.Claim, err)
		}
		if res.Address != r.Address {
			return nil, e.fail(1, "%s: content address %s, but index.csv line %d gives %s", path, res.Address, r.Line, r.Address)
		}
		times = append(times, seconds)
	}
	return times, -1
}

// retimeChoice returns the indices of the records retime measures: the
// committed certificates of 0*N for N ≥ --min-n, or those whose claims
// --claim names. It returns the exit status of a bad choice, or -1.
func (e *env) retimeChoice(c *corpus.Corpus) ([]int, int) {
	want := map[string]bool{}
	for _, s := range e.opt.claims {
		want[s] = false
	}
	var chosen []int
	for i, r := range c.Records {
		if !r.Committed {
			continue
		}
		claim := r.Claim.String()
		if _, named := want[claim]; named {
			want[claim] = true
			chosen = append(chosen, i)
		} else if len(want) == 0 && r.N >= e.opt.minN {
			chosen = append(chosen, i)
		}
	}
	var missing []string
	for s, found := range want {
		if !found {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, e.fail(2, "--claim %s: no committed certificate in %s proves it", strings.Join(missing, ", "), c.Path(corpus.IndexFile))
	}
	if len(chosen) == 0 {
		return nil, e.fail(2, "no committed certificate of 0*N with N ≥ %d", e.opt.minN)
	}
	return chosen, -1
}

func retimeFlags(f *pflag.FlagSet, o *options) {
	f.IntVar(&o.minN, "min-n", 14, "retime the committed certificates of 0*`N` and larger")
	f.StringArrayVar(&o.claims, "claim", nil, "retime only the certificate of this `CLAIM` (e.g. 0*21=W, gn(0*15)=1); repeatable")
	f.IntVar(&o.runs, "runs", 3, "separate processes per certificate; the median is recorded")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the new times without writing index.csv")
	f.BoolVar(&o.independent, "independent", false, "time the independent check (spots-verify --independent) instead, and record it as independent_seconds")
	f.BoolVar(&o.json, "json", false, "print the times as one JSON array")
}

// percent writes part as a share of whole, "?" when whole is not positive.
func percent(part, whole float64) string {
	if whole <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.1f %%", 100*part/whole)
}

// secondsList writes times as "1.20, 1.31, 1.25".
func secondsList(times []float64) string {
	s := make([]string, len(times))
	for i, t := range times {
		s[i] = fmt.Sprintf("%.2f", t)
	}
	return strings.Join(s, ", ")
}
