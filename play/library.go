package play

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/verify"
)

// Library is where a player's values come from: one certificate, or the
// certificates of a corpus directory (corpus/index.csv and
// corpus/certs/*.arrow), loaded when a position needs them. Only verified
// certificates contribute values (see Values.Load).
type Library struct {
	Values *Values
	opt    verify.Options
	// With a corpus: the certificate files not loaded yet, and those read
	// (not verified) and kept, up to maxPeeked entries in all.
	pending []pendingCert
	peeked  map[string]*candidate
	kept    int
}

// pendingCert is a certificate of a corpus not loaded yet.
type pendingCert struct {
	path    string
	root    string // the canonical text of its claim's root
	entries int
}

// maxPeeked bounds the entries of the certificates a Library keeps read
// but not loaded (those that covered no position asked about so far), so
// that it need not read them again; beyond it they are read again when
// needed.
const maxPeeked = 1 << 20

// OpenCert returns a Library of the one certificate at path, loaded and
// verified with opt.
func OpenCert(ctx context.Context, path string, opt verify.Options) (*Library, error) {
	l := &Library{Values: NewValues(), opt: opt}
	if _, err := l.Values.Load(ctx, path, opt); err != nil {
		return nil, err
	}
	return l, nil
}

// OpenCorpus returns a Library of the certificates of the corpus in dir
// (package corpus: its index and its certs directory). It reads the index
// only; Analyze loads the certificates a position needs. Certificates
// listed in the index but absent (kept elsewhere) are skipped.
func OpenCorpus(dir string, opt verify.Options) (*Library, error) {
	c, err := corpus.Open(dir)
	if err != nil {
		return nil, err
	}
	l := &Library{Values: NewValues(), opt: opt, peeked: map[string]*candidate{}}
	for _, r := range c.Records {
		path := filepath.Join(dir, corpus.CertsDir, r.FileName())
		if _, err := os.Stat(path); err != nil {
			continue
		}
		l.pending = append(l.pending, pendingCert{path: path, root: r.Claim.Root, entries: r.Entries})
	}
	if len(l.pending) == 0 {
		return nil, fmt.Errorf("corpus %s: no certificate file in %s", dir, filepath.Join(dir, corpus.CertsDir))
	}
	return l, nil
}

// ErrNotCovered says that no certificate of a Library proves who wins a
// position.
var ErrNotCovered = errors.New("no certificate covers the position")

// Analyze is Values.Analyze on the values of the library. When they do not
// decide the game and the library is a corpus, it first loads, one at a
// time, the corpus certificates not loaded yet that decide it: those about
// the game's own position first, then the smaller first; it reads each
// and verifies only one that decides the game. The Analysis it returns
// has the Outcome Unknown when none does. ctx cancels the reading between
// certificates and rows.
func (l *Library) Analyze(ctx context.Context, g Game) (Analysis, error) {
	moves, err := Moves(g, l.opt.Limits)
	if err != nil {
		return Analysis{Game: g}, err
	}
	a, err := analyze(l.Values.known, g, moves)
	if err != nil || a.Outcome.Known() || len(l.pending) == 0 {
		return a, err
	}
	root := g.Position.String()
	order := slices.Clone(l.pending)
	slices.SortStableFunc(order, func(x, y pendingCert) int {
		return cmp.Or(-cmp.Compare(boolInt(x.root == root), boolInt(y.root == root)), cmp.Compare(x.entries, y.entries))
	})
	for _, pc := range order {
		c, err := l.peek(ctx, pc.path)
		if err != nil {
			return a, err
		}
		if ca, err := analyze(c.known, g, moves); err != nil || !ca.Outcome.Known() {
			continue
		}
		if err := l.Values.admit(c, l.opt); err != nil {
			return a, err
		}
		l.drop(pc.path)
		return analyze(l.Values.known, g, moves)
	}
	return a, nil
}

// peek returns the certificate at path read, not verified.
func (l *Library) peek(ctx context.Context, path string) (*candidate, error) {
	if c, ok := l.peeked[path]; ok {
		return c, nil
	}
	c, err := read(ctx, path)
	if err != nil {
		return nil, err
	}
	if l.kept+c.cert.Entries <= maxPeeked {
		l.peeked[path] = c
		l.kept += c.cert.Entries
	}
	return c, nil
}

// drop forgets the pending certificate at path, now loaded.
func (l *Library) drop(path string) {
	l.pending = slices.DeleteFunc(l.pending, func(pc pendingCert) bool { return pc.path == path })
	if c, ok := l.peeked[path]; ok {
		l.kept -= c.cert.Entries
		delete(l.peeked, path)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Toughest is Values.Toughest on the values loaded so far, under the
// library's limits.
func (l *Library) Toughest(a Analysis) (Move, int, bool) {
	return l.Values.Toughest(a, l.opt.Limits)
}
