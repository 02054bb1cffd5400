package swarm

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// poolOf writes the certificate of gn(pos) into a directory of its own and
// returns the directory, the certificate's address and the pool read from
// it.
func poolOf(t *testing.T, pos string) (dir, addr string, pool *certify.Pool) {
	t.Helper()
	dir = t.TempDir()
	db := solve.NewNimberDB()
	root := sprouts.MustParse(pos)
	g, ok := solve.NewDFPN(sprouts.Rules{}, db, solve.Options{Capacity: 1 << 16}).Grundy(context.Background(), root)
	if !ok {
		t.Fatalf("gn(%s) not found", pos)
	}
	claim, err := certify.Claim(root, 0, solve.Unknown, &g)
	if err != nil {
		t.Fatal(err)
	}
	path, _, err := certify.Write(dir, db, claim, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, strings.TrimSuffix(filepath.Base(path), ".arrow"), readPool(t, dir)
}

func readPool(t *testing.T, dir string) *certify.Pool {
	t.Helper()
	pool, err := certify.LoadPool(context.Background(), []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pool
}

// TestDrawingOnCertificates: a master and its groups (one drawing on the
// pool too, one not) solve 0*10 drawing on the certificate of gn(0*8).
// The audit's certificate cites it instead of repeating its entries, and
// verifies with a library that finds it.
func TestDrawingOnCertificates(t *testing.T) {
	poolDir, cited, pool := poolOf(t, "0*8")
	p := DefaultParams()
	p.Capacity = 4096
	root := sprouts.MustParse("0*10")
	m, err := NewMaster(root, p, nil, WithPool(pool))
	if err != nil {
		t.Fatal(err)
	}
	if m.DB().Len() < pool.Len() {
		t.Fatalf("the master holds %d values; the pool has %d", m.DB().Len(), pool.Len())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var out solve.Outcome
	wg.Add(1)
	go func() {
		defer wg.Done()
		var failed []AuditResult
		out, err = m.Supervise(ctx, SuperviseOptions{CheckEvery: time.Second, Report: func(res AuditResult) { failed = append(failed, res) }})
		if err != nil || len(failed) > 0 {
			t.Errorf("supervise: %v, %d audits failed", err, len(failed))
		}
	}()
	for i, opts := range [][]GroupOption{{WithGroupPool(pool)}, nil} {
		g, err := NewGroup(string(rune('a'+i)), p, opts...)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.Run(ctx, localLink{m}); err != nil {
				t.Errorf("group %s: %v", g.Name, err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if out != solve.Win {
		t.Fatalf("0*10 is %s, want W", out)
	}
	cert := m.Certificate()
	if cert == nil || len(cert.Cites) != 1 || cert.Cites[0] != cited || cert.Format() != format.FormatCiting {
		t.Fatalf("the audit's certificate cites %v, want [%s]", cert.Cites, cited)
	}
	path, _, err := certify.WriteCertificate(t.TempDir(), cert, verify.Options{Library: m.Library()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := verify.File(path, verify.Options{Library: verify.NewLibrary(poolDir)})
	if err != nil || res.Cites != 1 || res.Cited != 1 {
		t.Fatalf("%s: %+v, %v", path, res, err)
	}
}

// TestDrawingOnAForgery: the pool's certificate gives the root a wrong
// value (its content hashes to its name, but it proves nothing). The
// master's DAG settles the root by it at once; the audit's proof cites the
// certificate, which does not hold: the outcome is not proved, and the
// error names the certificate.
func TestDrawingOnAForgery(t *testing.T) {
	addr, pool := forgedPool(t, "0*10", 0)
	p := DefaultParams()
	p.Capacity = 4096
	m, err := NewMaster(sprouts.MustParse("0*10"), p, nil, WithPool(pool))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := m.Supervise(ctx, SuperviseOptions{})
	if out != solve.Unknown || !errors.Is(err, ErrCited) || !strings.Contains(err.Error(), addr) {
		t.Fatalf("drawing on a forgery: %s, %v; want ErrCited naming %s", out, err, addr)
	}
	if m.Certificate() != nil {
		t.Fatal("the audit kept a certificate that cites a forgery")
	}
}

// forgedPool writes a certificate that gives gn(pos) = g in one row (its
// content hashes to its name, but it proves nothing) and returns its
// address and the pool read from it.
func forgedPool(t *testing.T, pos string, g uint32) (string, *certify.Pool) {
	t.Helper()
	dir := t.TempDir()
	forged := &format.Certificate{Claim: format.Claim{Root: pos, Kind: format.ClaimGrundy, N: g},
		Entries: []format.Entry{{Position: pos, Grundy: g, Reach: make([]uint32, g)}}, Game: sprouts.Game, Notation: sprouts.Notation}
	path, err := format.WriteCertificate(dir, forged, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(filepath.Base(path), ".arrow"), readPool(t, dir)
}

// TestDisputedPoolValue: a group sends a value of a pooled position other
// than the pool's. The master solves the position: when the pool is
// right the group is banned, and the pooled value stays; when the pool
// gives a wrong value the group is not blamed: the check fails with
// ErrCited, naming the certificate.
func TestDisputedPoolValue(t *testing.T) {
	const pos = "0*4"
	key := sprouts.MustParse(pos).Key()
	truth, ok := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12}).Grundy(context.Background(), sprouts.MustParse(pos))
	if !ok {
		t.Fatalf("gn(%s) not found", pos)
	}
	_, _, right := poolOf(t, pos)
	forgedAddr, forged := forgedPool(t, pos, truth+1)
	p := DefaultParams()
	p.Capacity, p.Probation = 4096, 0 // g's values, sent without a job, are heard
	for _, tt := range []struct {
		name string
		pool *certify.Pool
		sent uint32
	}{{"the pool is right", right, truth + 1}, {"the pool is forged", forged, truth}} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewMaster(sprouts.MustParse("0*10"), p, nil, WithPool(tt.pool))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Exchange(ExchangeRequest{Group: "g", Slots: 1, Nimbers: []solve.NimberEntry{{Key: key, G: tt.sent}}}); err != nil {
				t.Fatal(err)
			}
			res, err := m.check(context.Background())
			if tt.pool == forged {
				if !errors.Is(err, ErrCited) || !strings.Contains(err.Error(), forgedAddr) {
					t.Fatalf("check: %+v, %v; want ErrCited naming %s", res, err, forgedAddr)
				}
				return
			}
			if err != nil || len(res.Banned) != 1 || res.Banned[0] != "g" {
				t.Fatalf("check: %+v, %v; want g banned", res, err)
			}
			if g, ok := m.DB().Get(key); !ok || g != truth {
				t.Fatalf("gn(%s) is %d (%v) after the check; want the pool's %d", pos, g, ok, truth)
			}
		})
	}
}
