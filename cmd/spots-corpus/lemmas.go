package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/buildinfo"
)

// Lemmas: what a search that stops unsolved has proved, kept in the corpus
// as a certificate (corpus/lemmas/, listed in corpus/lemmas.csv) that a
// later add of the same n, on any machine, draws on. The checkpoint of
// --state is local to the machine; the lemmas are committed with the
// repository.

// defaultLemmaEntries bounds a certificate of lemmas: about 7 MB at the
// 29 bytes an entry of the corpus's largest certificates take, under the
// corpus's 16 MB rule for one file.
const defaultLemmaEntries = 250_000

// drawOnLemmas adds the values of the corpus's lemmas to pool, for the
// search to draw on (no proof cites them: the final certificate holds
// those it relies on, and the lemmas are retired).
func (a *adder) drawOnLemmas(pool *certify.Pool) int {
	dir := filepath.Join(a.c.Dir, corpus.LemmaCertsDir)
	files, values, err := pool.AddUncited(dir)
	if err != nil {
		return a.fail(2, "%v (remove the lemmas it names from %s and %s, or give --no-reuse)", err, dir, corpus.LemmaIndexFile)
	}
	if files > 0 {
		a.prog.Clear()
		fmt.Fprintf(a.stderr, "spots-corpus: drawing on %d values of %d certificates of lemmas in %s\n", values, files, dir)
	}
	return -1
}

// keepLemmas writes the certificate of lemmas of the search that stopped
// unsolved into the corpus and lists it in place of the older lemmas of
// 0*N; it returns what to tell the user ("" when nothing was kept).
func (a *adder) keepLemmas() string {
	if a.db == nil || a.opt.lemmaEntries <= 0 || a.opt.noCommit || a.opt.nimber {
		return ""
	}
	dir := filepath.Join(a.c.Dir, corpus.LemmaCertsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Sprintf("; no lemmas kept: %v", err)
	}
	release, err := lockCorpus(a.c.Dir, func() {
		a.prog.Clear()
		fmt.Fprintf(a.stderr, "spots-corpus: waiting for another add into %s to finish\n", a.c.Dir)
	})
	if err != nil {
		return fmt.Sprintf("; no lemmas kept: %v", err)
	}
	defer release()
	rec, path, skipped, err := a.writeLemmas(dir)
	if err != nil {
		return fmt.Sprintf("; no lemmas kept: %v", err)
	}
	return a.listLemmas(rec, path, skipped)
}

// writeLemmas certifies the search's values as lemmas, writes them into
// dir and verifies the file; it returns their record (but the fields of
// the listing), the file and the number of values left out.
func (a *adder) writeLemmas(dir string) (corpus.LemmaRecord, string, int, error) {
	a.prog.Show(false, "keeping what the search of 0*%d proved: certifying its values", a.n)
	defer a.prog.Clear()
	start := time.Now()
	vopt := a.pipeline.Verify
	if vopt.Library == nil {
		vopt.Library = a.pool.Library()
	}
	cert, st, err := certify.BuildLemmas(a.db, a.pool, a.root, a.opt.lemmaEntries, vopt)
	if err != nil {
		return corpus.LemmaRecord{}, "", 0, err
	}
	cert.Version = buildinfo.Version()
	a.prog.Show(false, "keeping what the search of 0*%d proved: verifying %d entries", a.n, len(cert.Entries))
	path, res, err := certify.WriteCertificate(dir, cert, vopt)
	if err == nil {
		err = os.Chmod(path, 0o644)
	}
	var info os.FileInfo
	if err == nil {
		info, err = os.Stat(path)
	}
	if err != nil {
		if path != "" {
			os.Remove(path)
		}
		return corpus.LemmaRecord{}, "", 0, err
	}
	o := a.opt
	o.runs = 0
	rec := corpus.LemmaRecord{N: a.n, Claim: res.Claim, Address: res.Address, Entries: res.Entries, Bytes: info.Size(),
		Algorithm: o.algorithm, SolveSeconds: millis(a.stats.Seconds), VerifySeconds: millis(time.Since(start).Seconds()),
		Added: time.Now().UTC().Format(time.DateOnly), Producer: certify.Producer + " " + cert.Version,
		Machine: fmt.Sprintf("%s/%s %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Command: command(o), Iterations: a.stats.Iterations, Cites: cert.Cites}
	return rec, path, st.Invalid + st.Refused, nil
}

// listLemmas lists rec, whose file is at path, in the corpus as it is now
// (another add may have listed something meanwhile), in place of the
// older lemmas of 0*N, whose files it removes; lemmas over the size rule
// are moved to --out instead. It returns what to tell the user.
func (a *adder) listLemmas(rec corpus.LemmaRecord, path string, skipped int) string {
	c, status := a.open()
	if c == nil {
		return fmt.Sprintf("; no lemmas kept: the corpus could not be read again (status %d)", status)
	}
	var freed int64 // the older lemmas of 0*N, which these replace
	for _, r := range c.LemmasOf(a.n) {
		if r.Address != rec.Address {
			freed += r.Bytes
		}
	}
	if fits, why, err := c.Fits(limits, rec.Bytes, true, freed); err != nil || !fits {
		if err != nil {
			why = err.Error()
		}
		moved, err := moveFile(path, a.opt.out)
		if err != nil {
			return fmt.Sprintf("; no lemmas kept: %s, and moving them out: %v", why, err)
		}
		return fmt.Sprintf("\nspots-corpus: the lemmas of what it proved (%d entries) are not committed: %s; moved to %s (give a smaller --lemma-entries, or make room in the corpus, to keep them there)", rec.Entries, why, moved)
	}
	replaced := c.PutLemmas(rec)
	if err := c.SaveLemmas(); err != nil {
		return fmt.Sprintf("; no lemmas kept: %v", err)
	}
	for _, r := range replaced {
		if err := os.Remove(c.LemmaPath(r)); err != nil && !os.IsNotExist(err) {
			fmt.Fprintf(a.stderr, "spots-corpus: warning: removing the lemmas they replace: %v\n", err)
		}
	}
	left := ""
	if skipped > 0 {
		left = fmt.Sprintf("; %d values the rules do not derive left out", skipped)
	}
	return fmt.Sprintf("\nspots-corpus: kept what it proved: %d entries (%d bytes) in %s%s, listed in %s; commit both, and add --solve %d on any machine goes on from them",
		rec.Entries, rec.Bytes, path, left, c.Path(corpus.LemmaIndexFile), a.n)
}

// retireLemmas drops the lemmas of 0*N from the corpus once 0*N is
// certified: its certificate holds what it needed of them.
func (a *adder) retireLemmas() int {
	gone := a.c.RetireLemmas(a.n)
	if len(gone) == 0 {
		return -1
	}
	if err := a.c.SaveLemmas(); err != nil {
		return a.fail(2, "%v", err)
	}
	for _, r := range gone {
		if err := os.Remove(a.c.LemmaPath(r)); err != nil && !os.IsNotExist(err) {
			return a.fail(2, "removing the lemmas of 0*%d: %v", a.n, err)
		}
	}
	fmt.Fprintf(a.stderr, "spots-corpus: retired %d certificate(s) of lemmas of 0*%d, which its certificate makes redundant\n", len(gone), a.n)
	return -1
}
