package swarm

import (
	"context"
	"errors"
	"fmt"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// Drawing on certificates.
//
// A master given a pool (WithPool) starts from the Grundy values that the
// pool's certificates prove: they are in its database, its DAG settles
// couples by them and the groups are sent them as any other value. They
// are input, not truth. The audit does not derive them but cites them
// (certify.BuildCiting): the certificate it builds cites the certificate
// of every pooled value its proof relies on, and before the outcome is
// believed every certificate it cites is checked, with what those cite
// (verify.Library). A pooled value is never dropped, nor its position
// solved again as a suspect: its certificate answers for it. A pooled
// value found wrong all the same (a group's value disputed it, or a value
// or claim the master found wrong by solving it is right by the pool's
// values) is a certificate that does not hold, which ends the solve with
// ErrCited naming it, rather than banning groups that believed it.
//
// A group given a pool (WithGroupPool) starts from its values too, and
// keeps them across epochs; it sends the master only what it derives. A
// value derived from pooled values is derivable by the master's audit
// only if the master draws on the same values: a master without them
// refuses it as it refuses any value it cannot derive.

// ErrCited is returned by Supervise (from its audit or a check) when a certificate
// the master draws on (WithPool) does not hold: one the audit's proof
// cites is not valid, or a value of the pool was found wrong by solving
// its position again. The error names the certificate's address. The
// outcome is then not proved.
var ErrCited = errors.New("swarm: a certificate drawn on does not hold")

// WithPool has the master draw on the certificates of pool (nil: none):
// their values are preloaded into its database (a value it holds already
// is kept), its audit cites them instead of deriving them, and checks the
// certificates its proof cites before it believes the outcome.
func WithPool(pool *certify.Pool) MasterOption {
	return func(m *Master) { m.pool.pool = pool }
}

// drawOn puts the values of the master's pool into its database and
// notes them. NewMaster calls it before it gives the database's values
// their origin.
func (m *Master) drawOn() {
	if m.pool.pool == nil {
		return
	}
	db := solve.NewNimberDB()
	m.pool.pool.Preload(db)
	m.pool.pooled = make(map[string]uint32, db.Len())
	db.Range(func(k string, g uint32) bool {
		m.pool.pooled[k] = g
		m.work.db.Put(k, g)
		return true
	})
	m.pool.lib = m.pool.pool.Library()
}

// isPooled reports whether gn(key) = g is a value of the master's pool.
func (m *Master) isPooled(key string, g uint32) bool {
	v, ok := m.pool.pooled[key]
	return ok && v == g
}

// Library returns the checker's library with which the audit checked the
// certificates its proof cites (nil without a pool): the checker of the
// written certificate, given it, does not check them again. It is not safe
// for use while the master audits or checks.
func (m *Master) Library() *verify.Library {
	m.pool.mu.Lock()
	defer m.pool.mu.Unlock()
	return m.pool.lib
}

// checkCited checks the certificates that cert, built by the audit, cites
// (and cert with them). A cited certificate that does not hold is an
// error wrapping ErrCited that names it.
func (m *Master) checkCited(cert *format.Certificate) error {
	if len(cert.Cites) == 0 {
		return nil
	}
	m.pool.mu.Lock()
	defer m.pool.mu.Unlock()
	_, err := verify.CertificateWith(cert, verify.Options{Library: m.pool.lib})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, verify.ErrCitation):
		return fmt.Errorf("%w: %w", ErrCited, err)
	}
	return fmt.Errorf("audit: the certificate of %s built from the values does not verify: %w", cert.Claim, err)
}

// blamePool is called when the master, solving pos + *n by a search that
// trusts no value, found that its outcome is not out, which a group (or
// the master's database) gave. If a search that draws on the pool finds
// out, the pool contradicts the rules: it returns an error wrapping
// ErrCited that names the certificate that does not hold. It returns nil
// when the pool agrees with the rules here (or there is none), and an
// error when ctx ends.
func (m *Master) blamePool(ctx context.Context, pos sprouts.Position, n uint32, out solve.Outcome) error {
	if m.pool.pool == nil {
		return nil
	}
	m.pool.mu.Lock()
	defer m.pool.mu.Unlock()
	if m.pool.db == nil {
		// Made at the first blame, which an honest swarm with a sound
		// pool never meets: it is another copy of the pool.
		m.pool.db = solve.NewNimberDB()
		m.pool.pool.Preload(m.pool.db)
	}
	s := solve.NewDFPN(sprouts.Rules{Cache: sprouts.NewCache(sprouts.DefaultCacheBytes)}, m.pool.db, solve.Options{Capacity: max(m.params.Capacity, 1024)})
	if got := s.Solve(ctx, pos, n); got != out {
		return ctx.Err()
	}
	claim, err := certify.Claim(pos, n, out, nil)
	if err != nil {
		return nil
	}
	cert, err := certify.BuildCiting(sprouts.Game, m.pool.db, m.pool.pool, claim, verify.Options{})
	if err != nil || len(cert.Cites) == 0 {
		return nil // not the pool's doing
	}
	if _, err := verify.CertificateWith(cert, verify.Options{Library: m.pool.lib}); errors.Is(err, verify.ErrCitation) {
		return fmt.Errorf("%w: %s, found wrong by solving it again, follows from its values: %w", ErrCited, claim, err)
	}
	return nil
}

// citePool cites the master's pooled values in d, as the audit's
// certificate does.
func (m *Master) citePool(d *verify.Database) {
	for k, g := range m.pool.pooled {
		d.Cite(k, g)
	}
}

// WithGroupPool has the group's solvers draw on the certificates of pool
// (nil: none): their values are in the group's database from the start,
// and again after a new epoch clears it. The group does not send them to
// the master, which checks what the group derives from them only if it
// draws on them too (WithPool).
func WithGroupPool(pool *certify.Pool) GroupOption {
	return func(c *groupConfig) { c.pool = pool }
}

// preload puts the pooled values into the group's database, kept out of
// what it sends the master.
func (g *Group) preload() {
	for k, v := range g.pooled {
		g.db.LearnProved(k, v)
	}
}
