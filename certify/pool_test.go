package certify

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// citing writes the certificate of gn(0*8) into a directory of its own,
// then solves 0*10 drawing on it and returns the pool's directory, the
// address of the cited certificate and the citing certificate written
// into another directory.
func citing(t *testing.T) (poolDir, cited, path string) {
	t.Helper()
	poolDir = t.TempDir()
	s, c := solved(t, "0*8", true)
	p, _, err := Write(poolDir, s.DB(), c, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cited = strings.TrimSuffix(filepath.Base(p), ".arrow")
	pool, err := LoadPool(context.Background(), []string{poolDir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	db := solve.NewNimberDB()
	pool.Preload(db)
	d := solve.NewDFPN(sprouts.Rules{}, db, solve.Options{})
	root := sprouts.MustParse("0*10")
	claim, err := Claim(root, 0, d.Solve(context.Background(), root, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := BuildCiting(sprouts.Game, db, pool, claim, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cert.Cites) != 1 || cert.Cites[0] != cited || cert.Format() != format.FormatCiting {
		t.Fatalf("the certificate of %s cites %v in %s, want [%s]", claim, cert.Cites, cert.Format(), cited)
	}
	// Without the pool the proof holds every entry it needs.
	alone, err := BuildFor(sprouts.Game, d.DB(), claim, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cert.Entries) >= len(alone.Entries) {
		t.Fatalf("citing, %d entries; alone, %d", len(cert.Entries), len(alone.Entries))
	}
	path, _, err = WriteCertificate(t.TempDir(), cert, verify.Options{Library: pool.Library()})
	if err != nil {
		t.Fatal(err)
	}
	return poolDir, cited, path
}

// TestCitations holds a citing certificate to the checker: valid when
// what it cites is found and valid, by both checkers; incomplete when it
// is missing; rejected, naming the address, when it is forged or invalid.
func TestCitations(t *testing.T) {
	poolDir, cited, path := citing(t)
	for _, independent := range []bool{false, true} {
		res, err := verify.File(path, verify.Options{Library: verify.NewLibrary(poolDir), Independent: independent})
		if err != nil || res.Cites != 1 || res.Cited != 1 {
			t.Fatalf("independent %v: %+v, %v", independent, res, err)
		}
	}
	citedPath := filepath.Join(poolDir, cited+".arrow")
	reject := func(what string, unreadable bool) {
		t.Helper()
		for _, independent := range []bool{false, true} {
			_, err := verify.File(path, verify.Options{Library: verify.NewLibrary(poolDir), Independent: independent})
			var ce *verify.CitationError
			if !errors.As(err, &ce) || ce.Address != cited || !strings.Contains(err.Error(), cited) ||
				verify.IsInvalid(err) == unreadable {
				t.Errorf("%s (independent %v): %v", what, independent, err)
			}
		}
	}
	// Missing: neither beside the file nor in the library's directories.
	good, err := os.ReadFile(citedPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(citedPath); err != nil {
		t.Fatal(err)
	}
	for _, independent := range []bool{false, true} { // neither valid nor invalid: incomplete
		_, err := verify.File(path, verify.Options{Library: verify.NewLibrary(poolDir), Independent: independent})
		var ie *verify.IncompleteError
		if !errors.As(err, &ie) || !slices.Equal(ie.Missing, []string{cited}) || verify.IsInvalid(err) {
			t.Errorf("missing (independent %v): %v", independent, err)
		}
	}
	// Forged: another valid certificate under its name.
	s, c := solved(t, "0*4", false)
	other, _, err := Write(t.TempDir(), s.DB(), c, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(other)
	writeFile(t, citedPath, data)
	reject("another certificate under its name", false)
	// A link is not followed.
	os.Remove(citedPath)
	saved := filepath.Join(t.TempDir(), cited+".arrow")
	writeFile(t, saved, good)
	if err := os.Symlink(saved, citedPath); err != nil {
		t.Fatal(err)
	}
	reject("a link", true)
	// Found again: valid again.
	os.Remove(citedPath)
	writeFile(t, citedPath, good)
	if _, err := verify.File(path, verify.Options{Library: verify.NewLibrary(poolDir)}); err != nil {
		t.Fatal(err)
	}
	// Invalid: a certificate under its own address whose proof is false
	// (an entry of value 1 said to be 0), cited by a certificate that is
	// otherwise the one above.
	bad, err := format.ReadCertificate(citedPath)
	if err != nil {
		t.Fatal(err)
	}
	changed := false
	for i, e := range bad.Entries {
		if e.Grundy == 1 {
			bad.Entries[i].Grundy, bad.Entries[i].Reach = 0, nil
			changed = true
			break
		}
	}
	if !changed {
		t.Fatal("no entry of value 1 to spoil")
	}
	badPath, err := format.WriteCertificate(poolDir, bad, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	citing, err := format.ReadCertificate(path)
	if err != nil {
		t.Fatal(err)
	}
	citing.Cites = []string{bad.Address()}
	spoilt, err := format.WriteCertificate(t.TempDir(), citing, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, independent := range []bool{false, true} {
		_, err := verify.File(spoilt, verify.Options{Library: verify.NewLibrary(poolDir), Independent: independent})
		var ce *verify.CitationError
		if !errors.As(err, &ce) || ce.Address != bad.Address() || ce.Path != badPath || !verify.IsInvalid(err) {
			t.Errorf("citing an invalid certificate (independent %v): %v", independent, err)
		}
	}
}

// TestPoolLeavesOut: the pool passes by the certificates it is told to
// skip, and refuses a file whose rows do not hash to its name.
func TestPoolLeavesOut(t *testing.T) {
	dir := t.TempDir()
	s, c := solved(t, "0*6", true)
	p, _, err := Write(dir, s.DB(), c, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimSuffix(filepath.Base(p), ".arrow")
	pool, err := LoadPool(context.Background(), []string{dir}, []string{addr}, nil)
	if err != nil || pool.Len() != 0 || pool.Files != 0 {
		t.Fatalf("skipping the only certificate: %d values of %d files, %v", pool.Len(), pool.Files, err)
	}
	writeFile(t, filepath.Join(dir, strings.Repeat("0", 64)+".arrow"), mustRead(t, p))
	if _, err := LoadPool(context.Background(), []string{dir}, nil, nil); err == nil || !strings.Contains(err.Error(), "hashes to") {
		t.Fatalf("a certificate under another name: %v", err)
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
