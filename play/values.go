package play

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/verify"
)

// Values holds proven Grundy values of atomic positions of one game,
// read from certificates that package verify has found valid. Every value it
// answers with is proven: Load adds nothing from a certificate that does
// not verify. A Values is not safe for concurrent use while certificates
// are being loaded.
type Values struct {
	rules game.Game
	known map[string]uint32 // by key of an atomic position
	certs []Cert
}

// Cert describes a certificate whose values a Values holds.
type Cert struct {
	Path    string       // the file it was read from
	Address string       // its content address, as verified
	Claim   format.Claim // what it proves
	Entries int          // its number of entries
}

// NewValues returns an empty Values of positions of the game r.
func NewValues(r game.Game) *Values { return &Values{rules: r, known: map[string]uint32{}} }

// Rules returns the game whose positions v holds values of.
func (v *Values) Rules() game.Game { return v.rules }

// Certs returns the certificates loaded so far, in the order they were
// loaded.
func (v *Values) Certs() []Cert { return append([]Cert(nil), v.certs...) }

// Len returns the number of atomic positions whose value is known.
func (v *Values) Len() int { return len(v.known) }

// Load reads the certificate at path, verifies it (verify.File with opt,
// whose limits bound the work any entry may cost) and adds its values:
// its rows and those of every certificate it cites, directly or not
// (found beside it or in opt.Library's directories, and checked with it).
// A certificate that is invalid, refused by a limit, unreadable, or whose
// content changed between the reading and the check (the two must have
// the same content address) adds nothing and gives an error naming path.
//
// Memory: the values held grow with the number of entries (a key and a
// value each); the reader of package format bounds what one record batch
// may cost, so a hostile file costs memory in proportion to its size.
func (v *Values) Load(ctx context.Context, path string, opt verify.Options) (Cert, error) {
	c, err := read(ctx, v.rules, path)
	if err != nil {
		return Cert{}, err
	}
	return c.cert, v.admit(c, opt)
}

// candidate is a certificate read but not yet verified: nothing in it may
// be trusted before admit.
type candidate struct {
	cert  Cert
	known map[string]uint32
}

// read reads the entries of the certificate at path, of a position of
// the game r, into a candidate, without checking the proof. It is
// cancelled by ctx between rows.
func read(ctx context.Context, r game.Game, path string) (*candidate, error) {
	f, err := format.OpenCertificate(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	h, info := f.Header(), r.Info()
	if h.Game != info.Name || h.Notation != info.Notation {
		hint := ""
		if _, ok := game.Lookup(h.Game); ok && h.Game != info.Name {
			hint = fmt.Sprintf(" (play it with --game %s)", h.Game)
		}
		return nil, fmt.Errorf("read %s: a certificate for the game %q in the notation %q; this program plays %q in %q%s", path, h.Game, h.Notation, info.Name, info.Notation, hint)
	}
	c := &candidate{cert: Cert{Path: path, Claim: h.Claim}, known: map[string]uint32{}}
	for {
		e, err := f.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if f.Row()%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		p, err := r.Parse(e.Position)
		if err != nil {
			return nil, fmt.Errorf("read %s: row %d: %w", path, f.Row(), err)
		}
		c.known[key(r, p)] = e.Grundy
		c.cert.Entries++
	}
	if c.cert.Address, err = f.Address(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return c, nil
}

// admit verifies the certificate c was read from and, if it is valid and
// still has the content that was read, adds c's values.
func (v *Values) admit(c *candidate, opt verify.Options) error {
	path := c.cert.Path
	if opt.Library == nil {
		opt.Library = verify.NewLibrary()
	}
	res, err := verify.File(path, opt)
	switch {
	case err != nil:
		return fmt.Errorf("verify %s: %w", path, err)
	case res.Address != c.cert.Address:
		return fmt.Errorf("verify %s: the file changed while it was read (content address %s, then %s)", path, c.cert.Address, res.Address)
	}
	// A certificate that cites others proves its claim with their rows
	// too: they were checked with it, and are its values as much as its
	// own.
	for _, a := range opt.Library.Closure(res.Address) {
		for _, e := range opt.Library.Rows(a) {
			p, err := v.rules.Parse(e.Position)
			if err != nil {
				return fmt.Errorf("verify %s: a row of the certificate %s it cites: %w", path, a, err)
			}
			if _, ok := c.known[key(v.rules, p)]; !ok {
				c.known[key(v.rules, p)] = e.Grundy
			}
		}
	}
	for k, g := range c.known {
		if old, ok := v.known[k]; ok && old != g {
			p, _ := v.rules.FromKey(k)
			return fmt.Errorf("verify %s: %w: it proves the value %d for %s, which an earlier certificate proves to be %d", path, errContradiction, g, p, old)
		}
	}
	for k, g := range c.known {
		v.known[k] = g
	}
	v.certs = append(v.certs, c.cert)
	return nil
}

// errContradiction says that two verified certificates disagree, which
// only a bug in the checker or the rules can cause.
var errContradiction = errors.New("two verified certificates contradict each other")

// Value returns the value of g, the xor of the values of its components
// and its heap, and true when every component's value is proven; 0 and
// false otherwise.
// A g of another game than v's has no value.
func (v *Values) Value(g Game) (uint32, bool) {
	if v.other(g) != nil {
		return 0, false
	}
	return valueOf(v.known, g)
}

// other returns an error when g is a position of another game than the
// one v holds values of, whose keys mean nothing to v.
func (v *Values) other(g Game) error {
	if g.Rules == nil || g.Rules.Info().Name != v.rules.Info().Name {
		name := "no game"
		if g.Rules != nil {
			name = g.Rules.Info().Name
		}
		return fmt.Errorf("%s is a position of %s, and the values held are of %s", cut(g.String()), name, v.rules.Info().Name)
	}
	return nil
}

func valueOf(known map[string]uint32, g Game) (uint32, bool) {
	x := g.Heap
	for _, c := range components(g.Rules, g.Position) {
		y, ok := known[key(g.Rules, c)]
		if !ok {
			return 0, false
		}
		x ^= y
	}
	return x, true
}
