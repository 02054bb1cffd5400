package certify

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// BuildLemmas returns a certificate of lemmas about a search of root
// (claim lemmas(root)): the Grundy values of db that the rules derive,
// largest lands first, each with its witnesses, until it holds maxEntries
// entries (0: all; see verify.Database.Lemmas). Values of pool are cited,
// not repeated, as BuildCiting does. A value of db that the rules do not
// derive is left out, and counted in the stats: db may be a checkpoint's,
// which is input, not truth. It fails when no value is derived (a
// certificate of no lemma is worth nothing).
func BuildLemmas(db *solve.NimberDB, pool *Pool, root sprouts.Position, maxEntries int, opt verify.Options) (*format.Certificate, verify.LemmaStats, error) {
	claim := format.Claim{Root: root.String(), Kind: format.ClaimLemmas}
	values, pool := ownValues(db, pool)
	d, err := verify.FromValuesOf(sprouts.Game, values)
	if err != nil {
		return nil, verify.LemmaStats{}, fmt.Errorf("certify %s: nimber database: %w", claim, err)
	}
	pool.cite(d)
	proof, st, err := d.Lemmas(claim.Root, maxEntries, opt)
	if err != nil {
		return nil, st, fmt.Errorf("certify %s: %w", claim, err)
	}
	if proof.Entries() == 0 {
		return nil, st, fmt.Errorf("certify %s: %w", claim, ErrNoLemmas)
	}
	cert := proof.Certificate(Producer, DevVersion)
	if keys := proof.CitedKeys(); pool != nil && len(keys) > 0 {
		cert.Cites = pool.cover(keys)
	}
	cert.Created = time.Now().UTC()
	return cert, st, nil
}

// ErrNoLemmas is BuildLemmas finding no value of its own to keep: every
// value of the database is cited, or none is derived.
var ErrNoLemmas = errors.New("no value of the search's own to keep")

// LemmaPart returns the part of a certificate of lemmas that holds at
// most n of its rows from row start, in row order, and cites what the
// whole cites and the parts before it (before). A row's witnesses have
// fewer lives than it, so they are in its part or an earlier one: each
// part is valid with the parts before it at hand, and the parts together
// prove what the whole does. Parts keep a set of lemmas within a size per
// file (corpus.MaxLemmaBytes).
func LemmaPart(cert *format.Certificate, start, n int, before []string) *format.Certificate {
	p := *cert
	p.Entries = cert.Entries[start:min(start+max(n, 1), len(cert.Entries))]
	p.Cites = slices.Sorted(slices.Values(append(slices.Clone(cert.Cites), before...)))
	return &p
}
