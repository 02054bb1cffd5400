package verify

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spots-dev/spots/format"
)

// Checking what a claim uses (Options.Used).
//
// A certificate that cites others relies on their entries only where its
// own rows and its claim look a value up. With Options.Used the library
// reads the certificates cited, directly or through others, finds each
// one's content address and citations valid, and keeps their rows with
// their hints unchecked; the check of the certificate given takes their
// values as claims, and every claim it looks up is queued. Once its own
// rows and its claim hold, the queue is drained: each entry queued is
// checked by the same rules as a row of the certificate (canonical, a
// single land, every hint holds), its own lookups queue more, and so on
// until nothing is left. Every lookup names a land with fewer lives than
// the entry that looks it up, so the queue ends, and by induction on lives
// every value used is the Grundy value of its land: the claim holds. An
// entry of a cited certificate that nothing uses is never checked; the
// verdict says how many were (Result.Used) of how many were read
// (Result.Read). Two cited certificates that give one land different
// values are rejected, used or not.
//
// The certificate given is still checked whole (every row), as is every
// file spots-corpus check verifies; only citations are followed entry by
// entry. The independent check (Options.Independent) follows them the same
// way, by its own rules (independent_used.go): the entries it looks up
// while it searches for witnesses are the ones it checks. Each checker
// marks the entries it found valid apart (checkedCert.marks), so that one
// never takes the other's word.

// demand reports whether the check follows citations entry by entry.
func (o Options) demand() bool { return o.Used }

// checkOrLoad checks the cited certificate at path whole, or with
// opt.demand() loads it: its rows read and its address found to be its
// name, its rows left to be checked as they are used.
func (l *Library) checkOrLoad(path string, opt Options) (*checkedCert, error) {
	name := strings.TrimSuffix(filepath.Base(path), ".arrow")
	if res, cert, ok := opt.verdicts().known(path, name, opt.trusts()...); ok {
		res.Cited = 0
		return &checkedCert{path: path, res: res, rows: valuesOf(cert.Entries), cites: cert.Cites}, nil
	}
	if opt.demand() && opt.UsedProgress != nil {
		opt.UsedProgress(0, 0) // reading the certificates cited
	}
	if !opt.demand() {
		res, cites, rows, err := l.file(path, opt)
		if err != nil {
			return nil, err
		}
		if !opt.Independent {
			opt.verdicts().record(kindWhole, res)
		} else {
			opt.verdicts().record(kindIndependent, res)
		}
		return &checkedCert{path: path, res: res, rows: rows, cites: cites}, nil
	}
	r, err := format.OpenCertificate(path)
	if err != nil {
		return nil, fileError(err)
	}
	defer r.Close()
	h := r.Header()
	var entries []format.Entry
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fileError(err)
		}
		entries = append(entries, e)
	}
	addr, err := r.Address()
	if err != nil {
		return nil, fileError(err)
	}
	if declared := r.DeclaredAddress(); declared != addr {
		return nil, &Failure{Rule: "address", Detail: fmt.Sprintf("the file declares the address %s but its content hashes to %s", declared, addr)}
	}
	if name := strings.TrimSuffix(filepath.Base(path), ".arrow"); name != addr {
		return nil, &Failure{Rule: "address", Detail: fmt.Sprintf("the file is named %s.arrow but its content address is %s", name, addr)}
	}
	res := Result{Claim: h.Claim, Address: addr, Entries: len(entries), Cites: len(h.Cites)}
	return &checkedCert{path: path, res: res, cites: h.Cites, loaded: true, entries: entries}, nil
}

// used returns those of entries (the certificate's rows, read again) that
// were found valid: all of a certificate checked whole, those checked as
// used of one loaded.
func (c *checkedCert) used(entries []format.Entry) []format.Entry {
	if !c.loaded {
		return entries
	}
	var out []format.Entry
	for i, e := range entries {
		if c.found(i) {
			out = append(out, e)
		}
	}
	return out
}

// marks returns, for a loaded certificate, which of its entries the check
// of the kind independent found valid, made on first use.
func (c *checkedCert) marks(independent bool) []bool {
	m := &c.checked
	if independent {
		m = &c.indChecked
	}
	if *m == nil {
		*m = make([]bool, len(c.entries))
	}
	return *m
}

// found reports whether either checker found entry i valid.
func (c *checkedCert) found(i int) bool {
	return i < len(c.checked) && c.checked[i] || i < len(c.indChecked) && c.indChecked[i]
}

// usedRows returns the values the certificate proves: its rows, or those
// checked as used.
func (c *checkedCert) usedRows() []Value {
	if !c.loaded {
		return c.rows
	}
	var out []Value
	for i := range c.entries {
		if c.found(i) {
			out = append(out, Value{Position: c.entries[i].Position, Grundy: c.entries[i].Grundy})
		}
	}
	return out
}

// pendingRow is an entry of a loaded certificate, not yet checked.
type pendingRow struct {
	cert *checkedCert
	i    int // its index in cert.entries
}

// citedRows returns, for a check with opt.demand(), the rows of the
// certificates cites names and of all they rely on: the values of those
// checked (rows of certificates checked whole, entries of loaded ones
// found valid before by a check of the kind independent) and the entries
// still to be checked.
func (l *Library) citedRows(cites []string, independent bool) ([]Value, []pendingRow) {
	var trusted []Value
	var pending []pendingRow
	// In the order of addresses: of two entries of one land, the first
	// is the one checked if used, and its hints decide what else is.
	for _, addr := range slices.Sorted(maps.Keys(l.closure(cites))) {
		c := l.valid[addr]
		if c == nil {
			continue
		}
		if !c.loaded {
			trusted = append(trusted, c.rows...)
			continue
		}
		marks := c.marks(independent)
		for i := range c.entries {
			if marks[i] {
				trusted = append(trusted, Value{Position: c.entries[i].Position, Grundy: c.entries[i].Grundy})
			} else {
				pending = append(pending, pendingRow{cert: c, i: i})
			}
		}
	}
	return trusted, pending
}

// citePending takes the entries of loaded certificates as claims: their
// values known, each queued for its check once a lookup uses it.
func (c *hinted[P]) citePending(pending []pendingRow) error {
	if len(pending) == 0 {
		return nil
	}
	c.pending = make(map[string]pendingRow, len(pending))
	for _, r := range pending {
		e := &r.cert.entries[r.i]
		p, err := c.g.parse(e.Position)
		if err != nil {
			return citedFailure(r, &Failure{Row: r.i + 1, Position: e.Position, Rule: "position", Detail: err.Error()})
		}
		k := c.g.key(p)
		if old, ok := c.known[k]; ok {
			if old != e.Grundy {
				return &Failure{Position: e.Position, Rule: "citation", Detail: fmt.Sprintf("two cited certificates give it the values %d and %d", old, e.Grundy)}
			}
			if _, queued := c.pending[k]; !queued {
				continue // a value already checked
			}
		}
		c.known[k] = e.Grundy
		if _, dup := c.pending[k]; !dup {
			c.pending[k] = r
		}
	}
	return nil
}

// get returns the value known for the key k, queueing the check of a
// cited entry the first time it is used (or, in a worker of drain,
// recording that it was).
func (c *hinted[P]) get(k string) (uint32, bool) {
	v, ok := c.known[k]
	if !ok || c.pending == nil {
		return v, ok
	}
	if r, queued := c.pending[k]; queued {
		if c.record != nil {
			*c.record = append(*c.record, k)
		} else {
			delete(c.pending, k)
			c.queue = append(c.queue, r)
		}
	}
	return v, ok
}

// peek is get without queueing: for a search among candidates, of which
// only the one chosen is used.
func (c *hinted[P]) peek(k string) (uint32, bool) {
	v, ok := c.known[k]
	return v, ok
}

// drain checks every cited entry queued, and those their checks queue,
// and counts them in res.Used. The queue is checked in waves on workers
// goroutines: during a wave the values and the pending entries are only
// read, each worker generating children with its own cache and recording
// the keys each entry used; between waves they are queued in the order of
// the wave, so the entries checked, and the error reported (the first of
// its wave), are the same for every number of workers.
func (c *hinted[P]) drain(res *Result, workers int, progress func(checked, found int)) error {
	for len(c.queue) > 0 {
		wave := c.queue
		c.queue = nil
		done := c.wave(wave, workers, func(n int) {
			if progress != nil {
				progress(res.Used+n, res.Used+len(wave))
			}
		})
		for i, d := range done {
			if d.err != nil {
				return citedFailure(wave[i], d.err)
			}
			wave[i].cert.marks(false)[wave[i].i] = true
			for _, k := range d.used {
				if r, queued := c.pending[k]; queued {
					delete(c.pending, k)
					c.queue = append(c.queue, r)
				}
			}
		}
		res.Used += len(wave)
	}
	return nil
}

// checked is what checking one entry of a wave found: its error, or the
// keys of pending entries it used.
type checked struct {
	used []string
	err  error
}

// wave checks the entries of wave on up to workers goroutines, each with
// a copy of c that records what it uses instead of queueing it; progress
// hears, from the first worker, how many were checked.
func (c *hinted[P]) wave(wave []pendingRow, workers int, progress func(checked int)) []checked {
	done := make([]checked, len(wave))
	workers = max(1, min(workers, len(wave)/16))
	var wg sync.WaitGroup
	var checkedN atomic.Int64
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wc := &hinted[P]{g: c.g, known: c.known, pending: c.pending, moves: landMoves[P]{g: c.g, limits: c.moves.limits, perEntry: true}}
			for i := w; i < len(wave); i += workers {
				if n := checkedN.Add(1); w == 0 && n%512 == 0 {
					progress(int(n)) // the first worker alone reports
				}
				r := wave[i]
				e := &r.cert.entries[r.i]
				wc.record = &done[i].used
				p, err := c.g.parse(e.Position)
				done[i].err = wc.checkEntry(r.i+1, e, p, err, err == nil && c.g.text(p) == e.Position)
			}
		}()
	}
	wg.Wait()
	return done
}

// citedFailure is err, found in the entry r of a cited certificate, as
// the citing certificate's error.
func citedFailure(r pendingRow, err error) error {
	return &CitationError{Address: r.cert.res.Address, Path: r.cert.path, Err: err}
}
