package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

// Lemmas: what a search that stops unsolved has proved, kept in the corpus
// as a certificate (corpus/lemmas/, listed in corpus/lemmas.csv) that a
// later add of the same n, on any machine, draws on. The checkpoint of
// --state is local to the machine; the lemmas are committed with the
// repository.

// defaultLemmaEntries bounds a set of lemmas: about 3.7 MB at the 37
// bytes an entry 0*45's lemmas take, in files of lemmaPartEntries.
const defaultLemmaEntries = 100_000

// lemmaPartEntries bounds one file of a set of lemmas: about 0.9 MB, under
// corpus.MaxLemmaBytes (a set with a file over it is not committed:
// listLemmas). A variable for tests, which make parts small.
var lemmaPartEntries = 25_000

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
	if !a.keepsLemmas() {
		return ""
	}
	vopt := a.pipeline.Verify
	if a.keeper != nil {
		// The keeper has ended and its library has checked what the
		// lemmas cite: checking it again took 976 s at 0*45's stop.
		vopt.Library = a.keeper.lib
	}
	if vopt.Library == nil {
		vopt.Library = a.pool.Library()
	}
	defer a.prog.Clear()
	return a.keepLemmasOf(a.db, a.stats.Iterations, a.stats.Seconds, vopt, a.prog.Show)
}

// keepsLemmas says whether this add keeps lemmas.
func (a *adder) keepsLemmas() bool {
	return a.db != nil && a.opt.lemmaEntries > 0 && !a.opt.noCommit && !a.opt.nimber
}

// keepLemmasOf is keepLemmas of the values of db, found by a search of
// its iterations and seconds (over all runs), checked with vopt; show,
// if set, shows what it is doing.
func (a *adder) keepLemmasOf(db *solve.NimberDB, its uint64, secs float64, vopt verify.Options, show func(bool, string, ...any)) string {
	dir := filepath.Join(a.c.Dir, corpus.LemmaCertsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Sprintf("; no lemmas kept: %v", err)
	}
	release, err := lockCorpus(a.c.Dir, func() {})
	if err != nil {
		return fmt.Sprintf("; no lemmas kept: %v", err)
	}
	defer release()
	recs, paths, skipped, err := a.writeLemmas(dir, db, its, secs, vopt, show)
	if errors.Is(err, certify.ErrNoLemmas) {
		return "" // nothing of its own proved yet
	}
	if err != nil {
		return fmt.Sprintf("; no lemmas kept: %v", err)
	}
	return a.listLemmas(recs, paths, skipped)
}

// writeLemmas certifies the search's values as lemmas, writes them into
// dir in parts of at most lemmaPartEntries rows (certify.LemmaPart; fewer
// where a file would be over corpus.MaxLemmaBytes) and
// verifies each file; it returns their records (but the fields of the
// listing), the files and the number of values left out. On an error it
// removes the files it made.
func (a *adder) writeLemmas(dir string, db *solve.NimberDB, its uint64, secs float64, vopt verify.Options, show func(bool, string, ...any)) ([]corpus.LemmaRecord, []string, int, error) {
	if show == nil {
		show = func(bool, string, ...any) {}
	}
	show(false, "keeping what the search of 0*%d proved: certifying its values", a.n)
	cert, st, err := certify.BuildLemmas(db, a.pool, a.root, a.opt.lemmaEntries, vopt)
	if err != nil {
		return nil, nil, 0, err
	}
	cert.Version = buildinfo.Version()
	o := a.opt
	o.runs = 0
	var recs []corpus.LemmaRecord
	var paths, made []string
	fail := func(err error) ([]corpus.LemmaRecord, []string, int, error) {
		for _, p := range made {
			os.Remove(p)
		}
		return nil, nil, 0, err
	}
	var before []string
	for start, per := 0, lemmaPartEntries; start < len(cert.Entries); {
		part := certify.LemmaPart(cert, start, per, before)
		show(false, "keeping what the search of 0*%d proved: verifying %d entries (file %d)", a.n, len(part.Entries), len(recs)+1)
		begun := time.Now()
		path := filepath.Join(dir, part.Address()+".arrow")
		_, statErr := os.Lstat(path)
		path, res, err := certify.WriteCertificate(dir, part, vopt)
		fresh := path != "" && os.IsNotExist(statErr)
		if err == nil {
			err = os.Chmod(path, 0o644)
		}
		var info os.FileInfo
		if err == nil {
			info, err = os.Stat(path)
		}
		if err == nil && info.Size() > corpus.MaxLemmaBytes && per > 1 {
			// Rows differ in size: this file is over the limit of one,
			// so the rest goes in files of half as many rows.
			if fresh {
				os.Remove(path)
			}
			per /= 2
			continue
		}
		if fresh {
			made = append(made, path)
		}
		if err != nil {
			return fail(err)
		}
		recs = append(recs, corpus.LemmaRecord{N: a.n, Claim: res.Claim, Address: res.Address, Entries: res.Entries, Bytes: info.Size(),
			Algorithm: o.algorithm, SolveSeconds: millis(secs), VerifySeconds: millis(time.Since(begun).Seconds()),
			Added: time.Now().UTC().Format(time.DateOnly), Producer: certify.Producer + " " + cert.Version,
			Machine: fmt.Sprintf("%s/%s %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
			Command: command(o), Iterations: its, Cites: part.Cites})
		paths = append(paths, path)
		before = append(before, res.Address)
		start += len(part.Entries)
	}
	return recs, paths, st.Invalid + st.Refused, nil
}

// listLemmas lists recs, whose files are at paths, in the corpus as it
// is now (another add may have listed something meanwhile), in place of
// the older lemmas of 0*N, whose files it removes; lemmas over the size
// rule are moved to --out instead. It returns what to tell the user.
func (a *adder) listLemmas(recs []corpus.LemmaRecord, paths []string, skipped int) string {
	c, status := a.open()
	if c == nil {
		return fmt.Sprintf("; no lemmas kept: the corpus could not be read again (status %d)", status)
	}
	var bytes, freed int64 // of these, and of the older lemmas of 0*N, which these replace
	entries, fresh := 0, map[string]bool{}
	for _, r := range recs {
		bytes, entries, fresh[r.Address] = bytes+r.Bytes, entries+r.Entries, true
	}
	for _, r := range c.LemmasOf(a.n) {
		if !fresh[r.Address] {
			freed += r.Bytes
		}
	}
	fits, why, err := c.Fits(limits, bytes, true, freed)
	for _, r := range recs {
		if r.Bytes > corpus.MaxLemmaBytes {
			fits, why = false, fmt.Sprintf("a file of them has %d bytes (%s), over the %s a file outside certs/ may have", r.Bytes, corpus.SizeText(r.Bytes), corpus.SizeText(corpus.MaxLemmaBytes))
		}
	}
	if err != nil || !fits {
		if err != nil {
			why = err.Error()
		}
		var out []string // not those listed already: an older set holds them
		for k, p := range paths {
			if !slices.ContainsFunc(c.Lemmas, func(r corpus.LemmaRecord) bool { return r.Address == recs[k].Address }) {
				out = append(out, p)
			}
		}
		return a.moveLemmasOut(out, entries, why)
	}
	replaced := c.PutLemmas(recs...)
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
	where := paths[0]
	if len(paths) > 1 {
		where = fmt.Sprintf("%d files of %s", len(paths), filepath.Dir(paths[0]))
	}
	return fmt.Sprintf("\nspots-corpus: kept what it proved: %d entries (%d bytes) in %s%s, listed in %s; commit both, and add --solve %d on any machine goes on from them",
		entries, bytes, where, left, c.Path(corpus.LemmaIndexFile), a.n)
}

// moveLemmasOut moves the files of lemmas that are not to be committed
// (why) to --out; it returns what to tell the user.
func (a *adder) moveLemmasOut(paths []string, entries int, why string) string {
	var moved []string
	for _, p := range paths {
		to, err := moveFile(p, a.opt.out)
		if err != nil {
			return fmt.Sprintf("; no lemmas kept: %s, and moving them out: %v", why, err)
		}
		moved = append(moved, to)
	}
	return fmt.Sprintf("\nspots-corpus: the lemmas of what it proved (%d entries) are not committed: %s; moved to %s (give a smaller --lemma-entries, or make room in the corpus, to keep them there)", entries, why, strings.Join(moved, " "))
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

// lemmaKeeper keeps the lemmas of a running search every --lemmas-every,
// so that a search whose machine is lost (a kill, the end of a lease)
// leaves what it proved up to its last keep in the corpus, not only in
// its local checkpoint. It works on a copy of the search's values (the
// database is safe for concurrent use) with a library of its own (a
// verify.Library is not), so that the closure of the corpus certificates
// the lemmas cite is checked once for the whole run. Its messages are
// printed by the search's progress callback, which owns the status line.
type lemmaKeeper struct {
	last atomic.Pointer[solve.Progress]
	lib  *verify.Library // its own; the final keep takes it once the keeper has ended
	stop context.CancelFunc
	done chan struct{}

	mu   sync.Mutex
	note string // what the last keep has to say, until printed
}

// startLemmas starts the keeper of a's search (nil when it keeps none
// while it runs).
func (a *adder) startLemmas() *lemmaKeeper {
	if a.opt.lemmasEvery <= 0 || !a.keepsLemmas() {
		return nil
	}
	ctx, stop := context.WithCancel(a.ctx)
	k := &lemmaKeeper{stop: stop, done: make(chan struct{})}
	vopt := a.pipeline.Verify
	vopt.Library = a.pool.Library()
	vopt.Progress = nil
	k.lib = vopt.Library
	go func() {
		defer close(k.done)
		tick := time.NewTicker(a.opt.lemmasEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			snapshot := solve.NewNimberDB()
			a.db.Range(func(key string, g uint32) bool {
				snapshot.Put(key, g)
				return true
			})
			var its uint64
			var secs float64
			if p := k.last.Load(); p != nil {
				its, secs = p.Iterations, p.Elapsed.Seconds()
				if a.saver != nil {
					its, secs = a.saver.Totals(p.Iterations)
				}
			}
			note := a.keepLemmasOf(snapshot, its, secs, vopt, nil)
			if note != "" {
				k.mu.Lock()
				k.note = strings.TrimPrefix(strings.TrimPrefix(note, "\n"), "; ")
				k.mu.Unlock()
			}
		}
	}()
	return k
}

// progress notes the search's progress p, and prints what the keeper has
// to say (in the search's goroutine, which owns the status line).
func (k *lemmaKeeper) progress(a *adder, p solve.Progress) {
	if k == nil {
		return
	}
	k.last.Store(&p)
	k.print(a)
}

func (k *lemmaKeeper) print(a *adder) {
	k.mu.Lock()
	note := k.note
	k.note = ""
	k.mu.Unlock()
	if note != "" {
		a.prog.Clear()
		if !strings.HasPrefix(note, "spots-corpus: ") {
			note = "spots-corpus: " + note
		}
		fmt.Fprintf(a.stderr, "%s (while it runs)\n", note)
	}
}

// end stops the keeper and waits for it (a keep under way is finished:
// what it writes is whole), then prints what it had left to say. After
// an interrupt it does not wait: the command stops at once, and a keep
// cut short leaves no file (each is written through a temporary file and
// a rename) and no row.
func (k *lemmaKeeper) end(a *adder) {
	if k == nil {
		return
	}
	k.stop()
	if a.ctx.Err() != nil {
		return
	}
	<-k.done
	k.print(a)
}

// withKeeper returns the search's progress callback and period with the
// keeper's note of the progress added (it needs the iterations, also
// when no progress is shown).
func (a *adder) withKeeper(show func(solve.Progress), every time.Duration) (func(solve.Progress), time.Duration) {
	if a.opt.lemmasEvery <= 0 {
		return show, every
	}
	if every <= 0 {
		every = 10 * time.Second
	}
	every = min(every, a.opt.lemmasEvery) // the keeper's count of iterations is of the last call
	return func(p solve.Progress) {
		a.keeper.progress(a, p)
		if show != nil {
			show(p)
		}
	}, every
}
