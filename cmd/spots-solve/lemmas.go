package main

import (
	"errors"
	"fmt"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// Lemmas (--lemmas DIR): what a search that stops unsolved has proved,
// written as a certificate of lemmas (claim lemmas(POS)) that both
// checkers check like any other and that a later run, on any machine,
// draws on with --reuse DIR. A checkpoint (--state) is local to the
// machine and holds the table too; the lemmas are a few files to carry.

// lemmasApply says whether --lemmas applies to the run of cfg: a search
// of Sprouts in this process.
func lemmasApply(cfg config) bool {
	return cfg.algorithm != solve.SearchSwarm && cfg.game == sprouts.Game
}

// lemmaEntries bounds a certificate of lemmas: about 7 MB.
const lemmaEntries = 250_000

// keepLemmas writes, for each position that stopped unsolved but not
// interrupted (an interrupt stops at once), a certificate of lemmas of
// what the search proved into --lemmas DIR (none without the flag). It
// returns the exit status, at least status.
func keepLemmas(r *runner, p *prove.Pipeline[sprouts.Position], pool *certify.Pool, roots []sprouts.Position, results []result, status int) int {
	if r.cfg.lemmasDir == "" {
		return status
	}
	for i, res := range results {
		if res.Outcome.Known() || res.Reason == string(prove.Interrupted) || r.ctx.Err() != nil {
			continue
		}
		r.prog.Show(false, "%s: keeping what the search proved in %s", res.Input, r.cfg.lemmasDir)
		cert, st, err := certify.BuildLemmas(p.Searcher.DB(), pool, roots[i], lemmaEntries, p.Verify)
		if errors.Is(err, certify.ErrNoLemmas) {
			r.prog.Clear()
			fmt.Fprintf(r.stderr, "spots-solve: %s: --lemmas: the search proved no value of its own: nothing to keep\n", res.Input)
			continue
		}
		if err != nil {
			r.prog.Clear()
			fmt.Fprintf(r.stderr, "spots-solve: %s: --lemmas %s: %v\n", res.Input, r.cfg.lemmasDir, err)
			status = max(status, 1)
			continue
		}
		cert.Version = p.Version
		path, vres, err := certify.WriteCertificate(r.cfg.lemmasDir, cert, p.Verify)
		r.prog.Clear()
		if err != nil {
			fmt.Fprintf(r.stderr, "spots-solve: %s: --lemmas %s: %v\n", res.Input, r.cfg.lemmasDir, err)
			status = max(status, 1)
			continue
		}
		skipped := ""
		if n := st.Invalid + st.Refused; n > 0 {
			skipped = fmt.Sprintf(" (%d values the rules do not derive left out)", n)
		}
		fmt.Fprintf(r.stderr, "spots-solve: %s: kept what the search proved: %d entries%s in %s (%s); a later run goes on from them with --reuse %s\n",
			res.Input, vres.Entries, skipped, path, vres.Claim, r.cfg.lemmasDir)
	}
	return status
}
