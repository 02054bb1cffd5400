package certify

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
	"github.com/spots-dev/spots/verify/verifytest"
)

func solved(t *testing.T, pos string, nimber bool) (*solve.DFPN[sprouts.Position], format.Claim) {
	t.Helper()
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{})
	root := sprouts.MustParse(pos)
	var c format.Claim
	var err error
	if nimber {
		g, ok := s.Grundy(context.Background(), root)
		if !ok {
			t.Fatalf("gn(%s) not found", pos)
		}
		c, err = Claim(root, 0, solve.Unknown, &g)
	} else {
		c, err = Claim(root, 0, s.Solve(context.Background(), root, 0), nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// TestCertificatesVerify writes the certificates of 0*1 … 0*12, of a Grundy
// value and of a couple with a heap, and verifies every file.
func TestCertificatesVerify(t *testing.T) {
	dir := t.TempDir()
	for n := 1; n <= 12; n++ {
		s, c := solved(t, fmt.Sprintf("0*%d", n), false)
		path, res, err := Write(dir, s.DB(), c, verify.Options{})
		if err != nil {
			t.Fatalf("0*%d: %v", n, err)
		}
		if filepath.Base(path) != res.Address+".arrow" || res.Claim != c {
			t.Errorf("0*%d: %s holds %v", n, path, res)
		}
		verifytest.Certificate(t, path)
	}
	s, c := solved(t, "0*9", true)
	if c.String() != "gn(0*9)=1" {
		t.Errorf("claim %s", c)
	}
	if _, _, err := Write(dir, s.DB(), c, verify.Options{}); err != nil {
		t.Error(err)
	}
	// 0*3 has Grundy value 1, so 0*3 + *1 is lost; 0*3+*2 is won.
	for _, text := range []string{"0*3+*1=L", "0*3+*2=W", "0*3+1a1a=W"} {
		claim, _ := format.ParseClaim(text)
		s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{})
		root := sprouts.MustParse(claim.Root)
		if out := s.Solve(context.Background(), root, claim.N); out.String() != text[len(text)-1:] {
			t.Fatalf("%s: solver says %v", text, out)
		}
		if _, _, err := Write(dir, s.DB(), claim, verify.Options{}); err != nil {
			t.Errorf("%s: %v", text, err)
		}
	}
	// A false claim cannot be certified.
	wrong, _ := format.ParseClaim("0*9=L")
	s9, _ := solved(t, "0*9", false)
	if _, err := Build(s9.DB(), wrong, verify.Options{}); !verify.IsInvalid(err) {
		t.Errorf("0*9=L: %v", err)
	}
}

// TestAddressesAreStable solves twice and writes with different batch sizes
// and compression: the content address (and so the file name) is the same.
func TestAddressesAreStable(t *testing.T) {
	s1, c := solved(t, "0*10", false)
	s2, _ := solved(t, "0*10", false)
	a, err := Build(s1.DB(), c, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Build(s2.DB(), c, verify.Options{})
	if a.Address() != b.Address() {
		t.Fatalf("two solves: %s and %s", a.Address(), b.Address())
	}
	var sizes []int
	for _, opt := range []format.WriteOptions{{}, {BatchRows: 1}, {BatchRows: 7, CompressionLevel: 1}, {CompressionLevel: 19}} {
		var buf bytes.Buffer
		if err := format.EncodeCertificate(&buf, a, opt); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, buf.Len())
		path, err := format.WriteCertificate(t.TempDir(), a, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res := verifytest.Certificate(t, path); res.Address != a.Address() {
			t.Errorf("%+v: address %s, want %s", opt, res.Address, a.Address())
		}
	}
	t.Logf("0*10: %d entries, address %s, file sizes %v bytes", len(a.Entries), a.Address()[:16], sizes)
}

// TestSolverDatabaseVerifiesUnhinted writes a solver's database as
// [Positions+Nimber] text (as spots-solve --db-out does), reads it back,
// checks it unhinted and converts it.
func TestSolverDatabaseVerifiesUnhinted(t *testing.T) {
	s, c := solved(t, "0*11", false)
	var entries []format.SPREntry
	s.DB().Range(func(key string, g uint32) bool {
		p, _ := sprouts.FromKey(key)
		entries = append(entries, format.SPREntry{Position: p.String(), Grundy: g})
		return true
	})
	var buf bytes.Buffer
	if err := format.WriteSPR(&buf, entries); err != nil {
		t.Fatal(err)
	}
	read, err := format.ReadSPR(&buf, format.SPROptions{})
	if err != nil {
		t.Fatal(err)
	}
	db, err := verify.NewDatabase(read)
	if err != nil {
		t.Fatal(err)
	}
	proof, err := db.Check(c, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verify.Certificate(proof.Certificate("test", "1")); err != nil {
		t.Error(err)
	}
}

// TestWriteRepairsCorruptFile: a corrupt file lying at the certificate's
// address (a crash, a bad disk, a hostile user) is replaced by the good
// certificate on the next Write, which used to fail on it forever.
func TestWriteRepairsCorruptFile(t *testing.T) {
	dir := t.TempDir()
	s, c := solved(t, "0*6", false)
	path, _, err := Write(dir, s.DB(), c, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, garbage := range [][]byte{nil, []byte("garbage"), []byte("ARROW1\x00\x00ARROW1")} {
		if err := os.WriteFile(path, garbage, 0o644); err != nil {
			t.Fatal(err)
		}
		again, res, err := Write(dir, s.DB(), c, verify.Options{})
		if err != nil || again != path || res.Claim != c {
			t.Fatalf("writing over %q: %s, %v", garbage, again, err)
		}
		verifytest.Certificate(t, path)
	}
}

// TestAddressIgnoresProvenance: the producer's version and the creation
// time are written into the certificate (DevVersion until a caller writes
// its build's over it, as prove.Pipeline does) and left out of its
// content address.
func TestAddressIgnoresProvenance(t *testing.T) {
	s, claim := solved(t, "0*5", true)
	var addrs []string
	for _, tc := range []struct {
		version string
		created time.Time
	}{
		{"dev", time.Time{}},
		{"v1.2.3 0123456789ab", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		{"(devel)", time.Now()},
	} {
		c, err := Build(s.DB(), claim, verify.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Version != DevVersion || c.Created.IsZero() {
			t.Errorf("certificate version %q created %v, want %q and now", c.Version, c.Created, DevVersion)
		}
		c.Version, c.Created = tc.version, tc.created
		addrs = append(addrs, c.Address())
	}
	for _, a := range addrs[1:] {
		if a != addrs[0] {
			t.Errorf("addresses %v differ with version and creation time only", addrs)
		}
	}
}
