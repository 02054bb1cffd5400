package play

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
)

// Values holds proven Grundy values of atomic positions, read from
// certificates that package verify has found valid. Every value it
// answers with is proven: Load adds nothing from a certificate that does
// not verify. A Values is not safe for concurrent use while certificates
// are being loaded.
type Values struct {
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

// NewValues returns an empty Values.
func NewValues() *Values { return &Values{known: map[string]uint32{}} }

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
	c, err := read(ctx, path)
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

// read reads the entries of the certificate at path into a candidate,
// without checking the proof. It is cancelled by ctx between rows.
func read(ctx context.Context, path string) (*candidate, error) {
	r, err := format.OpenCertificate(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer r.Close()
	h := r.Header()
	if h.Game != gameName || h.Notation != notation {
		return nil, fmt.Errorf("read %s: a certificate for the game %q in the notation %q; this program plays %q in %q", path, h.Game, h.Notation, gameName, notation)
	}
	c := &candidate{cert: Cert{Path: path, Claim: h.Claim}, known: map[string]uint32{}}
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if r.Row()%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		p, err := parsePosition(e.Position)
		if err != nil {
			return nil, fmt.Errorf("read %s: row %d: %w", path, r.Row(), err)
		}
		c.known[key(p)] = e.Grundy
		c.cert.Entries++
	}
	if c.cert.Address, err = r.Address(); err != nil {
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
			p, err := parsePosition(e.Position)
			if err != nil {
				return fmt.Errorf("verify %s: a row of the certificate %s it cites: %w", path, a, err)
			}
			if _, ok := c.known[key(p)]; !ok {
				c.known[key(p)] = e.Grundy
			}
		}
	}
	for k, g := range c.known {
		if old, ok := v.known[k]; ok && old != g {
			p, _ := fromKey(k)
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

// Value returns the value of g, the xor of the values of its lands and its
// heap, and true when every land's value is proven; 0 and false otherwise.
func (v *Values) Value(g Game) (uint32, bool) { return valueOf(v.known, g) }

func valueOf(known map[string]uint32, g Game) (uint32, bool) {
	x := g.Heap
	for _, land := range lands(g.Position) {
		y, ok := known[key(land)]
		if !ok {
			return 0, false
		}
		x ^= y
	}
	return x, true
}
