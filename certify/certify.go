// Package certify turns a solve into a certificate: from the nimber
// database a search filled and the claim it proved, it keeps only the
// entries the claim needs, chooses witnesses for every entry, sorts and
// hashes them, writes the file and checks it again. The certificate's
// header names the game (Build and Write: Sprouts; BuildFor and WriteFor:
// any game of verify.Games()) and the notation of its positions.
//
// It chooses witnesses with the unhinted checker of package verify, so an
// entry enters a certificate only once that checker has re-derived it from
// the rules; the written file is then verified once more in hinted mode.
package certify

import (
	"fmt"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// Producer is the name written into certificates made here.
const Producer = "spots"

// DevVersion is the producer version of the certificates built here. A
// caller that knows which build it is writes its own over it before the
// certificate is written (prove.Pipeline.Version: the commands give their
// build information, internal/buildinfo); it is a value passed down, not
// a setting of the process. Like the creation time, the version is
// provenance: not part of the content address, which it leaves unchanged.
const DevVersion = "dev"

// Claim returns the claim a search result makes about root (a position of
// any game, written canonically by its String method, such as a
// sprouts.Position or a game.Position): its outcome with heap n (Win or
// Loss), or with grundy set its Grundy value.
func Claim(root fmt.Stringer, n uint32, out solve.Outcome, grundy *uint32) (format.Claim, error) {
	c := format.Claim{Root: root.String(), N: n}
	switch {
	case grundy != nil:
		c.Kind, c.N = format.ClaimGrundy, *grundy
	case out.Known():
		c.Kind = format.OutcomeKind(out)
	default:
		return c, fmt.Errorf("%s + *%d was not solved: nothing to certify", root, n)
	}
	return c, nil
}

// Build returns the trimmed, hinted certificate of a Sprouts claim from the
// values in db: BuildFor(sprouts.Game, db, claim, opt).
func Build(db *solve.NimberDB, claim format.Claim, opt verify.Options) (*format.Certificate, error) {
	return BuildFor(sprouts.Game, db, claim, opt)
}

// BuildFor returns the trimmed, hinted certificate of claim from the values
// in db, whose keys are those of game's positions (game is one of
// verify.Games()). It fails (with an error wrapping
// verify.ErrInvalidCertificate) if the values do not prove the claim,
// which for a solver's database would be a bug in the solver. The
// certificate's creation time is now.
func BuildFor(game string, db *solve.NimberDB, claim format.Claim, opt verify.Options) (*format.Certificate, error) {
	return BuildCiting(game, db, nil, claim, opt)
}

// BuildCiting is BuildFor drawing on the certificates of pool (nil: none):
// an entry whose value the pool holds is not derived but cited, and the
// certificate cites the certificate of every such entry its proof relies
// on instead of holding the entry. The values of the pool replace db's
// own. The certificate is valid only if those it cites are (the checker
// of the written file checks them: give it pool.Library()).
func BuildCiting(game string, db *solve.NimberDB, pool *Pool, claim format.Claim, opt verify.Options) (*format.Certificate, error) {
	if pool.Len() > 0 && pool.Game != game {
		return nil, fmt.Errorf("certify %s: the certificates drawn on are of %s, and the claim is of %s: draw on certificates of %s", claim, pool.Game, game, game)
	}
	values, pool := ownValues(db, pool)
	d, err := verify.FromValuesOf(game, values)
	if err != nil {
		return nil, fmt.Errorf("certify %s: nimber database: %w", claim, err)
	}
	pool.cite(d)
	proof, err := d.Check(claim, opt)
	if err != nil {
		return nil, fmt.Errorf("certify %s: %w", claim, err)
	}
	cert := proof.Certificate(Producer, DevVersion)
	if keys := proof.CitedKeys(); pool != nil && len(keys) > 0 {
		cert.Cites = pool.cover(keys)
	}
	cert.Created = time.Now().UTC()
	return cert, nil
}

// Write builds the certificate of a Sprouts claim, writes it into dir as
// <address>.arrow and verifies the written file: WriteFor(sprouts.Game, …).
func Write(dir string, db *solve.NimberDB, claim format.Claim, opt verify.Options) (string, verify.Result, error) {
	return WriteFor(sprouts.Game, dir, db, claim, opt)
}

// WriteFor builds the certificate of claim about a position of game (see
// BuildFor), writes it into dir as <address>.arrow and verifies the
// written file. It returns the file's path and what the verifier found.
func WriteFor(game, dir string, db *solve.NimberDB, claim format.Claim, opt verify.Options) (string, verify.Result, error) {
	cert, err := BuildFor(game, db, claim, opt)
	if err != nil {
		return "", verify.Result{}, err
	}
	return WriteCertificate(dir, cert, opt)
}

// WriteCertificate writes cert, built by BuildFor or by another search
// that proved its claim, into dir as <address>.arrow and verifies the
// written file with opt. It returns the file's path and what the verifier
// found; a file that does not verify is an error (its path is returned).
func WriteCertificate(dir string, cert *format.Certificate, opt verify.Options) (string, verify.Result, error) {
	path, err := format.WriteCertificate(dir, cert, format.WriteOptions{})
	if err != nil {
		return "", verify.Result{}, fmt.Errorf("certify %s: %w", cert.Claim, err)
	}
	res, err := verify.File(path, opt)
	if err != nil {
		return path, res, fmt.Errorf("certify %s: the written certificate does not verify: %w", cert.Claim, err)
	}
	return path, res, nil
}

// ownValues returns the values of db to derive, and the pool to cite (nil
// when it holds nothing): the pool's values are cited, not derived, so
// they are left out, and their positions are not made again from their
// keys.
func ownValues(db *solve.NimberDB, pool *Pool) (func(yield func(key string, g uint32) bool), *Pool) {
	if pool.Len() == 0 {
		return db.Range, nil
	}
	return func(yield func(key string, g uint32) bool) {
		db.Range(func(key string, g uint32) bool {
			if _, ok := pool.values[key]; ok {
				return true
			}
			return yield(key, g)
		})
	}, pool
}
