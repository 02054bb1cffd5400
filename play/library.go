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
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/verify"
)

// Library is where a player's values come from: one certificate, or the
// certificates of a game's table in a corpus directory (for Sprouts,
// the default game, corpus/index.csv and corpus/certs/*.arrow; for
// another, corpus/<game>.csv and corpus/<game>/*.arrow), loaded when a
// position needs them. Only verified certificates contribute values (see
// Values.Load).
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

// OpenCert returns a Library of the one certificate at path, of a
// position of the game r, loaded and verified with opt.
func OpenCert(ctx context.Context, r game.Game, path string, opt verify.Options) (*Library, error) {
	l := &Library{Values: NewValues(r), opt: opt}
	if _, err := l.Values.Load(ctx, path, opt); err != nil {
		return nil, err
	}
	return l, nil
}

// OpenCorpus returns a Library of the certificates of the game r in the
// corpus in dir (package corpus: the index and certificates of the
// default game, or the table of another). It reads the index only;
// Analyze loads the certificates a position needs. Certificates listed in
// the index but absent (kept elsewhere) are skipped.
func OpenCorpus(r game.Game, dir string, opt verify.Options) (*Library, error) {
	c, err := corpus.Open(dir)
	if err != nil {
		return nil, err
	}
	l := &Library{Values: NewValues(r), opt: opt, peeked: map[string]*candidate{}}
	add := func(path, root string, entries int) {
		if _, err := os.Stat(path); err == nil {
			l.pending = append(l.pending, pendingCert{path: path, root: root, entries: entries})
		}
	}
	name, certs := r.Info().Name, filepath.Join(dir, corpus.CertsDir)
	if def := game.Default(); def != nil && name == def.Info().Name {
		for _, rec := range c.Records {
			add(c.CertPath(rec), rec.Claim.Root, rec.Entries)
		}
	} else {
		t := c.GameTable(name)
		if t == nil {
			return nil, fmt.Errorf("corpus %s: no table of %s (%s)", dir, r.Info().Title, filepath.Join(dir, corpus.GameIndexFile(name)))
		}
		for _, rec := range t.Records {
			add(c.GamePath(name, rec), rec.Position, rec.Entries)
		}
		certs = filepath.Join(dir, corpus.GameCertsDir(name))
	}
	if len(l.pending) == 0 {
		return nil, fmt.Errorf("corpus %s: no certificate file of %s in %s", dir, r.Info().Title, certs)
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
// and verifies only one that decides the game. When no certificate
// decides it alone (a sum whose components were proven apart, such as
// heaps of a game whose table proves one heap a certificate), it loads, for each component whose value is
// not known, the first certificate in that order (those about the
// component itself first) that proves it. The Analysis it returns has the
// Outcome Unknown when that does not decide the game either. ctx cancels
// the reading between certificates and rows.
func (l *Library) Analyze(ctx context.Context, g Game) (Analysis, error) {
	if err := l.Values.other(g); err != nil {
		return Analysis{Game: g}, err
	}
	moves, err := Moves(g, l.opt.Limits)
	if err != nil {
		return Analysis{Game: g}, err
	}
	a, err := analyze(l.Values.known, g, moves)
	if err != nil || a.Outcome.Known() || len(l.pending) == 0 {
		return a, err
	}
	for _, pc := range l.order(g.Position.String()) {
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
	if err := l.cover(ctx, g); err != nil {
		return a, err
	}
	return analyze(l.Values.known, g, moves)
}

// order returns the pending certificates, those whose claim's root is
// root first, then the smaller first.
func (l *Library) order(root string) []pendingCert {
	order := slices.Clone(l.pending)
	slices.SortStableFunc(order, func(x, y pendingCert) int {
		return cmp.Or(-cmp.Compare(boolInt(x.root == root), boolInt(y.root == root)), cmp.Compare(x.entries, y.entries))
	})
	return order
}

// cover loads, for each component of g whose value is not known, the
// first pending certificate (by order, about the component first) that
// proves its value, until all are known or a component has none.
func (l *Library) cover(ctx context.Context, g Game) error {
	r := g.Rules
	for _, comp := range components(r, g.Position) {
		k := key(r, comp)
		if _, ok := l.Values.known[k]; ok {
			continue
		}
		found := false
		for _, pc := range l.order(comp.String()) {
			c, err := l.peek(ctx, pc.path)
			if err != nil {
				return err
			}
			if _, ok := c.known[k]; !ok {
				continue
			}
			if err := l.Values.admit(c, l.opt); err != nil {
				return err
			}
			l.drop(pc.path)
			found = true
			break
		}
		if !found {
			return nil // the game stays undecided
		}
	}
	return nil
}

// peek returns the certificate at path read, not verified.
func (l *Library) peek(ctx context.Context, path string) (*candidate, error) {
	if c, ok := l.peeked[path]; ok {
		return c, nil
	}
	c, err := read(ctx, l.Values.rules, path)
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
