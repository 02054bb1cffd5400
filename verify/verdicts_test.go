package verify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
)

// writeProof writes a certificate of 0*4=W named by its address, made
// invalid by spoil if set, and returns its path and address.
func writeProof(t *testing.T, spoil bool) (string, string) {
	t.Helper()
	proof, err := spotsDatabase(t, 4).Check(claim(t, "0*4=W"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cert := proof.Certificate("test", "1")
	if spoil { // the last row's replies made "no reply needed": some child refutes it
		last := &cert.Entries[len(cert.Entries)-1]
		for i := range last.Win {
			last.Win[i] = -1
		}
	}
	path, err := format.WriteCertificate(t.TempDir(), cert, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return path, cert.Address()
}

// TestVerdictsRemembered: a certificate found valid is answered from its
// verdict the next time, by a check of the same kind only, and a cited
// certificate checked whole is taken whole by a later check.
func TestVerdictsRemembered(t *testing.T) {
	dir := t.TempDir()
	v, err := OpenVerdicts(dir, "build1")
	if err != nil {
		t.Fatal(err)
	}
	path, addr := writeProof(t, false)
	first, err := File(path, Options{Verdicts: v})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v.lookup(addr, kindWhole); !ok {
		t.Fatal("a valid certificate's verdict was not kept")
	}
	if _, ok := v.lookup(addr, kindIndependent, kindUsed); ok {
		t.Fatal("a verdict kept for a kind of check that did not run")
	}
	again, err := File(path, Options{Verdicts: v})
	if err != nil || !again.Remembered {
		t.Fatalf("not answered from the verdict: %+v, %v", again, err)
	}
	again.Remembered = false
	if again != first {
		t.Fatalf("answered from the verdict: %+v, %v; checked: %+v", again, err, first)
	}
	other, err := OpenVerdicts(dir, "build2")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := other.lookup(addr, kindWhole); ok {
		t.Fatal("another build believed the verdict")
	}
}

// TestVerdictsPoisoned: a verdict planted for an invalid certificate, in
// every form that is not one this machine's checker sealed (another key,
// build, kind or address; damaged; not a regular file), is ignored: the
// check is done and the certificate is INVALID.
func TestVerdictsPoisoned(t *testing.T) {
	dir := t.TempDir()
	v, err := OpenVerdicts(dir, "build1")
	if err != nil {
		t.Fatal(err)
	}
	path, addr := writeProof(t, true)
	claim := claim(t, "0*4=W")
	foreign := &Verdicts{dir: dir, build: "build1", key: make([]byte, 32)}
	plant := func(t *testing.T, seal *Verdicts, vd verdict) {
		t.Helper()
		vd.Seal = seal.seal(vd)
		b, _ := json.Marshal(vd)
		p := v.path(addr, kindWhole)
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.Remove(p)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	good := verdict{Address: addr, Build: "build1", Kind: kindWhole, Claim: claim.String(), Entries: 5}
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T)
	}{
		{"another machine's key", func(t *testing.T) { plant(t, foreign, good) }},
		{"another build", func(t *testing.T) { vd := good; vd.Build = "build0"; plant(t, v, vd) }},
		{"another kind", func(t *testing.T) { vd := good; vd.Kind = kindUsed; plant(t, v, vd) }},
		{"another address", func(t *testing.T) { vd := good; vd.Address = strings.Repeat("ab", 32); plant(t, v, vd) }},
		{"damaged", func(t *testing.T) {
			plant(t, v, good)
			p := v.path(addr, kindWhole)
			b, _ := os.ReadFile(p)
			b[len(b)/2] ^= 1
			os.WriteFile(p, b, 0o600)
		}},
		{"a link to a sealed verdict", func(t *testing.T) {
			plant(t, v, good)
			p := v.path(addr, kindWhole)
			os.Rename(p, p+".real")
			os.Symlink(p+".real", p)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.plant(t)
			if _, err := File(path, Options{Verdicts: v}); !IsInvalid(err) {
				t.Fatalf("got %v, want INVALID: the planted verdict was believed", err)
			}
		})
	}
	t.Run("sealed here (the control)", func(t *testing.T) {
		plant(t, v, good)
		if _, err := File(path, Options{Verdicts: v}); err != nil {
			t.Fatalf("a verdict this machine sealed is believed, and this test plants one: %v", err)
		}
	})
}

// TestVerdictsOfCited: the certificates a whole check relies on are
// remembered as checked whole, and a later check with a new library takes
// them from their verdicts; the check of what a claim uses keeps none for
// the certificates it only loaded.
func TestVerdictsOfCited(t *testing.T) {
	paths := citationChain(t, 3)
	addr := func(p string) string { return strings.TrimSuffix(filepath.Base(p), ".arrow") }
	used, err := OpenVerdicts(t.TempDir(), "b")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := File(paths[2], Options{Used: true, Library: NewLibrary(), Verdicts: used}); err != nil {
		t.Fatal(err)
	}
	if _, ok := used.lookup(addr(paths[1]), kindWhole, kindUsed); ok {
		t.Error("a certificate loaded, its entries checked as used, has a verdict")
	}
	v, err := OpenVerdicts(t.TempDir(), "b")
	if err != nil {
		t.Fatal(err)
	}
	first, err := File(paths[2], Options{Library: NewLibrary(), Verdicts: v})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths[:2] {
		if _, ok := v.lookup(addr(p), kindWhole); !ok {
			t.Errorf("%s, checked whole as a citation, has no verdict", addr(p))
		}
	}
	// The cited files made unreadable as certificates but for their
	// names: only a verdict believed without reading them could pass.
	os.Remove(v.path(addr(paths[2]), kindWhole))
	again, err := File(paths[2], Options{Library: NewLibrary(), Verdicts: v})
	if err != nil || again != first {
		t.Fatalf("from the verdicts of what it cites: %+v, %v; want %+v", again, err, first)
	}
	if err := os.WriteFile(paths[0], []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(v.path(addr(paths[2]), kindWhole))
	if _, err := File(paths[2], Options{Library: NewLibrary(), Verdicts: v}); err == nil {
		t.Fatal("a verdict was believed for a file whose bytes it is not about")
	}
}
