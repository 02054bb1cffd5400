package prove

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// The small positions the tests prove: 0*5 is a win for the player to
// move, 0*6 a loss (corpus/literature.csv), both in well under a second.
var (
	win  = sprouts.MustParse("0*5")
	loss = sprouts.MustParse("0*6")
)

// searcher returns the search s of Sprouts (NewSearcher), filling db.
func searcher(t *testing.T, db *solve.NimberDB, s Search) solve.Searcher[sprouts.Position] {
	t.Helper()
	search, err := NewSearcher(sprouts.Rules{}, db, s)
	if err != nil {
		t.Fatal(err)
	}
	return search
}

// pipeline returns a pipeline of a DFPN search of Sprouts positions that
// writes its certificates into a new directory.
func pipeline(t *testing.T, s Search) *Pipeline[sprouts.Position] {
	t.Helper()
	return &Pipeline[sprouts.Position]{Game: sprouts.Game, Searcher: searcher(t, nil, s), CertDir: t.TempDir()}
}

// TestProveCertifies: a result with a Certificate names a file the checker
// verifies on disk, proving exactly the claim of the result, with the
// producer version the pipeline was given.
func TestProveCertifies(t *testing.T) {
	for _, tc := range []struct {
		root   sprouts.Position
		nimber bool
		want   string
	}{
		{win, false, "0*5=W"},
		{loss, false, "0*6=L"},
		{win, true, "gn(0*5)=1"},
	} {
		p := pipeline(t, Search{Algorithm: solve.SearchDFPN})
		p.Nimber, p.Version = tc.nimber, "v9.9.9 test"
		r, err := p.Prove(context.Background(), tc.root, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.want, err)
		}
		c := r.Certificate
		if c == nil || c.Claim.String() != tc.want || r.Stop != Solved {
			t.Fatalf("%s: result %+v, certificate %+v", tc.want, r, c)
		}
		res, err := verify.File(c.Path, verify.Options{})
		if err != nil || res.Claim.String() != tc.want || res.Address != c.Address || res.Entries != c.Entries {
			t.Fatalf("%s: the file verifies as %+v, %v; the pipeline said %+v", tc.want, res, err, c)
		}
		if filepath.Base(c.Path) != c.Address+".arrow" || filepath.Dir(c.Path) != p.CertDir {
			t.Errorf("%s: written to %s, want %s/<address>.arrow", tc.want, c.Path, p.CertDir)
		}
		cert, err := format.ReadCertificate(c.Path)
		if err != nil || cert.Version != "v9.9.9 test" || cert.Producer != certify.Producer {
			t.Errorf("%s: producer %q version %q (%v), want %q %q", tc.want, cert.Producer, cert.Version, err, certify.Producer, "v9.9.9 test")
		}
	}
}

// TestVersionIsProvenance: the same proof made by two builds has one
// address; without a version the certificate records certify.DevVersion.
func TestVersionIsProvenance(t *testing.T) {
	dev := pipeline(t, Search{Algorithm: solve.SearchDFPN})
	built := pipeline(t, Search{Algorithm: solve.SearchDFPN})
	built.Version = "v1.0.0"
	a, errA := dev.Prove(context.Background(), loss, 0)
	b, errB := built.Prove(context.Background(), loss, 0)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a.Certificate.Address != b.Certificate.Address {
		t.Errorf("addresses %s and %s differ by the version alone", a.Certificate.Address, b.Certificate.Address)
	}
	cert, err := format.ReadCertificate(a.Certificate.Path)
	if err != nil || cert.Version != certify.DevVersion {
		t.Errorf("version %q (%v), want %q", cert.Version, err, certify.DevVersion)
	}
}

// TestStoppedWritesNothing: a search stopped early (its iteration limit,
// its context, the pipeline's Timeout) gives an Unknown result saying
// why, and writes no certificate.
func TestStoppedWritesNothing(t *testing.T) {
	big := sprouts.MustParse("0*30")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		s    Search
		want Stop
	}{
		{"iteration limit", context.Background(), Search{Algorithm: solve.SearchDFPN, MaxIterations: 20}, IterationLimit},
		{"interrupted", cancelled, Search{Algorithm: solve.SearchDFPN}, Interrupted},
		{"timeout", context.Background(), Search{Algorithm: solve.SearchPNS}, TimedOut},
		{"memory", context.Background(), Search{Algorithm: solve.SearchPNS}, MemoryLimit},
	} {
		p := pipeline(t, tc.s)
		switch tc.want {
		case TimedOut:
			p.Timeout = 1 // a nanosecond
		case MemoryLimit:
			p.Memory = 1 // a byte: over at the first check
		}
		r, err := p.Prove(tc.ctx, big, 0)
		if err != nil || r.Outcome.Known() || r.Stop != tc.want || r.Certificate != nil {
			t.Errorf("%s: result %+v, %v; want unknown, stopped by %q, no certificate", tc.name, r, err, tc.want)
		}
		if names, _ := os.ReadDir(p.CertDir); len(names) != 0 {
			t.Errorf("%s: %d files written into %s", tc.name, len(names), p.CertDir)
		}
		if over := errors.Is(r.StopCause, memguard.ErrOverBudget); over != (tc.want == MemoryLimit) {
			t.Errorf("%s: stop cause %v", tc.name, r.StopCause)
		}
	}
}

// TestResumedGivesTheSameAnswer: a search stopped unsolved is saved whole
// by the pipeline; one resumed from its checkpoint, in a new search, goes
// on from it and proves the same verified claim as a search from nothing.
func TestResumedGivesTheSameAnswer(t *testing.T) {
	root := sprouts.MustParse("0*8") // a loss, in some hundreds of iterations
	dir := filepath.Join(t.TempDir(), "state")
	q := Question{Root: root.String(), Algorithm: solve.SearchDFPN, Version: "test"}

	first := NewCheckpoint(dir, q, nil)
	p := pipeline(t, Search{Algorithm: solve.SearchDFPN, Checkpoint: first, MaxIterations: 50})
	p.Checkpoint = first
	r, err := p.Prove(context.Background(), root, 0)
	if err != nil || r.Stop != IterationLimit {
		t.Fatalf("first run: %+v, %v; want stopped by its iteration limit", r, err)
	}

	second := NewCheckpoint(dir, q, nil)
	resumed := pipeline(t, Search{Algorithm: solve.SearchDFPN, Checkpoint: second})
	if err := second.Resume(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	if second.Runs() != 1 {
		t.Errorf("resumed %d earlier runs, want 1", second.Runs())
	}
	if its, _ := second.Totals(0); its < r.Spent.Iterations {
		t.Errorf("the checkpoint holds %d iterations, the first run did %d", its, r.Spent.Iterations)
	}
	got, err := resumed.Prove(context.Background(), root, 0)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := pipeline(t, Search{Algorithm: solve.SearchDFPN}).Prove(context.Background(), root, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Certificate == nil || got.Certificate.Claim != fresh.Certificate.Claim || got.Outcome != solve.Loss {
		t.Fatalf("resumed: %+v; from nothing: %+v", got.Certificate, fresh.Certificate)
	}
	if _, err := verify.File(got.Certificate.Path, verify.Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestResumeRefusesAnotherQuestion: a checkpoint of another position is
// not loaded; a directory without one says so (ErrNoCheckpoint).
func TestResumeRefusesAnotherQuestion(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	cp := NewCheckpoint(dir, Question{Root: "0*8"}, nil)
	searcher(t, nil, Search{Algorithm: solve.SearchDFPN, Checkpoint: cp})
	if err := cp.Resume(context.Background(), dir); !errors.Is(err, ErrNoCheckpoint) {
		t.Fatalf("resume from an empty directory: %v, want ErrNoCheckpoint", err)
	}
	cp.save(solve.Progress{})
	other := NewCheckpoint(dir, Question{Root: "0*9"}, nil)
	searcher(t, nil, Search{Algorithm: solve.SearchDFPN, Checkpoint: other})
	if err := other.Resume(context.Background(), dir); err == nil {
		t.Fatal("a checkpoint of 0*8 resumed as one of 0*9")
	}
	if err := NewCheckpoint(dir, Question{Root: "0*8"}, nil).Resume(context.Background(), dir); err == nil {
		t.Fatal("resumed into no search")
	}
}

// TestUnbackedValuesForceASolveWithoutThem: values the search did not
// derive (a checkpoint's, a database's) are input, not truth. A false
// one that makes the search answer wrongly is caught before the answer is
// reported: the position is solved again without it, and the answer and
// its certificate are right.
func TestUnbackedValuesForceASolveWithoutThem(t *testing.T) {
	for _, nimber := range []bool{false, true} {
		forged := solve.NewNimberDB()
		forged.Put(loss.Key(), 1) // 0*6 is a loss: its Grundy value is 0
		var why error
		s := &Resumed[sprouts.Position]{Searcher: searcher(t, forged, Search{Algorithm: solve.SearchDFPN}), Game: sprouts.Game,
			Restart: func(err error) solve.Searcher[sprouts.Position] {
				why = err
				return searcher(t, nil, Search{Algorithm: solve.SearchDFPN})
			}}
		p := &Pipeline[sprouts.Position]{Game: sprouts.Game, Searcher: s, Nimber: nimber, CertDir: t.TempDir()}
		r, err := p.Prove(context.Background(), loss, 0)
		if err != nil {
			t.Fatal(err)
		}
		if why == nil {
			t.Errorf("nimber %v: the forged value was not caught", nimber)
		}
		if r.Outcome != solve.Loss || (nimber && *r.Grundy != 0) {
			t.Fatalf("nimber %v: 0*6 found %v (Grundy %v) with a forged value", nimber, r.Outcome, r.Grundy)
		}
		if _, err := verify.File(r.Certificate.Path, verify.Options{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBackedValuesAreKept: values that do prove the result are used, not
// thrown away: the search is not restarted.
func TestBackedValuesAreKept(t *testing.T) {
	db := solve.NewNimberDB()
	first := searcher(t, db, Search{Algorithm: solve.SearchDFPN})
	if first.Solve(context.Background(), loss, 0) != solve.Loss {
		t.Fatal("0*6 is not a loss")
	}
	s := &Resumed[sprouts.Position]{Searcher: searcher(t, db, Search{Algorithm: solve.SearchDFPN}), Game: sprouts.Game,
		Restart: func(err error) solve.Searcher[sprouts.Position] {
			t.Errorf("restarted: %v", err)
			return searcher(t, nil, Search{Algorithm: solve.SearchDFPN})
		}}
	if out := s.Solve(context.Background(), loss, 0); out != solve.Loss {
		t.Fatalf("0*6: %v", out)
	}
}

// TestBackedCertificateIsWritten: the check of a resumed search's result
// derives its certificate, and the pipeline writes that one instead of
// deriving the same proof a second time (of a large proof, minutes).
func TestBackedCertificateIsWritten(t *testing.T) {
	for _, nimber := range []bool{false, true} {
		db := solve.NewNimberDB()
		if searcher(t, db, Search{Algorithm: solve.SearchDFPN}).Solve(context.Background(), loss, 0) != solve.Loss {
			t.Fatal("0*6 is not a loss")
		}
		s := &Resumed[sprouts.Position]{Searcher: searcher(t, db, Search{Algorithm: solve.SearchDFPN}), Game: sprouts.Game,
			Restart: func(err error) solve.Searcher[sprouts.Position] {
				t.Errorf("restarted: %v", err)
				return searcher(t, nil, Search{Algorithm: solve.SearchDFPN})
			}}
		p := &Pipeline[sprouts.Position]{Game: sprouts.Game, Searcher: s, Nimber: nimber}
		r := p.Solve(context.Background(), loss, 0)
		built := s.Certificate()
		if r.Outcome != solve.Loss || built == nil {
			t.Fatalf("nimber %v: 0*6 %v, certificate %v", nimber, r.Outcome, built)
		}
		if s.CheckSeconds() <= 0 {
			t.Errorf("nimber %v: the check took %v s", nimber, s.CheckSeconds())
		}
		// A time no derivation of now gives: the file written has it only
		// if it is the certificate the check built.
		built.Created = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
		p.CertDir = t.TempDir()
		if err := p.Certify(loss, 0, &r); err != nil {
			t.Fatal(err)
		}
		written, err := format.ReadCertificate(r.Certificate.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !written.Created.Equal(built.Created) || written.Claim != built.Claim {
			t.Errorf("nimber %v: wrote %v of %v, not the certificate the check built (%v)", nimber, written.Claim, written.Created, built.Created)
		}
		stopped, cancel := context.WithCancel(context.Background())
		cancel()
		if s.Solve(stopped, sprouts.MustParse("0*9"), 0) != solve.Unknown || s.Certificate() != nil {
			t.Errorf("nimber %v: a later solve that stopped unsolved left the certificate of the one before", nimber)
		}
	}
}

// TestForgedPoolForcesASolveWithoutIt: a certificate drawn on is input,
// not truth. One that gives 0*6 a false value, preloaded into the
// search, makes it answer wrongly; the answer is checked with the
// certificates it relies on, the forged one fails, and the position is
// solved again without the pool: the right answer, a certificate citing
// nothing.
func TestForgedPoolForcesASolveWithoutIt(t *testing.T) {
	ctx := context.Background()
	db := solve.NewNimberDB()
	if g, ok := searcher(t, db, Search{Algorithm: solve.SearchDFPN}).Grundy(ctx, loss); !ok || g != 0 {
		t.Fatalf("gn(0*6) = %d, %v", g, ok)
	}
	cert, err := certify.BuildFor(sprouts.Game, db, format.Claim{Root: loss.String(), Kind: format.ClaimGrundy}, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	forged := false
	for i := range cert.Entries {
		if e := &cert.Entries[i]; e.Position == loss.String() {
			e.Grundy, e.Reach = 1, []uint32{0}
			forged = true
		}
	}
	if !forged {
		t.Fatalf("no entry of %s in its certificate", loss)
	}
	cert.Claim.N = 1
	dir := t.TempDir()
	if _, err := format.WriteCertificate(dir, cert, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	pool, err := certify.LoadPool(ctx, []string{dir}, nil, nil)
	if err != nil || pool.Len() == 0 {
		t.Fatalf("pool of %d values: %v", pool.Len(), err)
	}
	drawing := solve.NewNimberDB()
	pool.Preload(drawing)
	var why error
	s := &Resumed[sprouts.Position]{Searcher: searcher(t, drawing, Search{Algorithm: solve.SearchDFPN}), Game: sprouts.Game, Pool: pool,
		Restart: func(err error) solve.Searcher[sprouts.Position] {
			why = err
			return searcher(t, nil, Search{Algorithm: solve.SearchDFPN})
		}}
	p := &Pipeline[sprouts.Position]{Game: sprouts.Game, Searcher: s, Pool: pool, CertDir: t.TempDir()}
	r, err := p.Prove(ctx, loss, 0)
	if err != nil {
		t.Fatal(err)
	}
	if why == nil {
		t.Error("the forged certificate was not caught")
	}
	if r.Outcome != solve.Loss || r.Certificate == nil || len(r.Certificate.Cites) != 0 {
		t.Fatalf("0*6 found %v, certificate %+v; want a loss citing nothing", r.Outcome, r.Certificate)
	}
	if _, err := verify.File(r.Certificate.Path, verify.Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestNewSearcherRefusesOtherAlgorithms: NewSearcher makes the searches
// it names and refuses every other algorithm, where it once made a DFPN
// of any name it did not know.
func TestNewSearcherRefusesOtherAlgorithms(t *testing.T) {
	for _, tc := range []struct {
		alg  solve.Algorithm
		want string // the search's type, "" for an error
	}{
		{solve.SearchDFPN, "*solve.DFPN[github.com/spots-dev/spots/sprouts.Position]"},
		{solve.SearchPDFPN, "*solve.DFPN[github.com/spots-dev/spots/sprouts.Position]"},
		{solve.SearchPNS, "*solve.PNS[github.com/spots-dev/spots/sprouts.Position]"},
		{solve.SearchSwarm, ""},
		{0, ""},
		{solve.SearchSwarm + 1, ""},
	} {
		s, err := NewSearcher(sprouts.Rules{}, nil, Search{Algorithm: tc.alg, Threads: 2, Capacity: 1 << 10})
		if tc.want == "" {
			if err == nil || s != nil {
				t.Errorf("%v: made %T, want an error", tc.alg, s)
			}
			continue
		}
		if err != nil || fmt.Sprintf("%T", s) != tc.want {
			t.Errorf("%v: %T, %v; want a %s", tc.alg, s, err, tc.want)
		}
	}
}
