package verify

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/sprouts"
)

// eighteen is a land of one region with 18 boundaries of different
// lengths: about 10^8 moves, which exhausted memory before limits.
const eighteen = "0.1.11.111.1111.11111.111111.1111111.11111111.111111111.1111111111.11111111111.111111111111.1111111111111.11111111111111.111111111111111.1111111111111111.11111111111111111"

func hostileCert(t *testing.T, claim string, entries ...string) *format.Certificate {
	t.Helper()
	c := &format.Certificate{Claim: mustClaim(t, claim), Game: sprouts.Game, Notation: sprouts.Notation, Producer: "test", Version: "1"}
	for _, e := range entries {
		c.Entries = append(c.Entries, format.Entry{Position: e})
	}
	return c
}

func mustClaim(t *testing.T, s string) format.Claim {
	t.Helper()
	c, err := format.ParseClaim(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHostileCertificatesAreRefused checks that positions too large to
// expand are refused, with ErrLimit and not as invalid proofs, both in
// memory and from a file, and that raising the limit lets the check go on
// to its verdict.
func TestHostileCertificatesAreRefused(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		cert    *format.Certificate
		opt     Options
		limit   string // the limit that refuses it
		row     int
		raised  Limits // with these limits it is checked, and found invalid
		invalid bool
	}{
		{"claim 0*100000", hostileCert(t, "0*100000=W"), Options{}, "lives", 0, Limits{}, false},
		{"claim gn(0*100000)", hostileCert(t, "gn(0*100000)=1"), Options{}, "lives", 0, Limits{}, false},
		{"claim of many lands", hostileCert(t, strings.Repeat("0*5+", 399)+"0*5=W"), Options{}, "lives", 0, Limits{}, false},
		{"entry 0*100000", hostileCert(t, "0=L", "0*100000"), Options{}, "lives", 1, Limits{}, false},
		{"entry of 18 boundaries", hostileCert(t, "0=L", eighteen), Options{}, "moves", 1, Limits{}, false},
		{"claim of 18 boundaries", hostileCert(t, eighteen+"=W"), Options{}, "moves", 0, Limits{}, false},
		{"claim 0*2000", hostileCert(t, "0*2000=W"), Options{}, "lives", 0, Limits{Lives: -1, Boundaries: 2000}, true},
		{"entry 0*2000", hostileCert(t, "0=L", "0*2000"), Options{Limits: Limits{Lives: 6000}}, "boundaries", 1, Limits{Lives: 6000, Boundaries: -1}, true},
		{"entry 0*1500, work", hostileCert(t, "0=L", "0*1500"), Options{Limits: Limits{Lives: -1, Boundaries: -1, Work: 1 << 20}}, "work", 1, Limits{Lives: -1, Boundaries: -1}, true},
		{"entry 0*200, letters", hostileCert(t, "0=L", "0*200.1a1a"), Options{Limits: Limits{Letters: 1}}, "letters", 1, Limits{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(err error, where string) {
				t.Helper()
				var le *LimitError
				switch {
				case !errors.As(err, &le) || !IsLimit(err):
					t.Fatalf("%s: got %v, want a *LimitError", where, err)
				case IsInvalid(err):
					t.Errorf("%s: a refusal is not an invalid proof: %v", where, err)
				case le.Limit != tt.limit || le.Row != tt.row || le.Value <= le.Max || le.Entry != "":
					t.Errorf("%s: %+v, want the limit %s at row %d", where, le, tt.limit, tt.row)
				case !strings.Contains(err.Error(), tt.limit):
					t.Errorf("%s: the message %q does not name the limit", where, err)
				}
			}
			_, err := CertificateWith(tt.cert, tt.opt)
			check(err, "in memory")
			path, err := format.WriteCertificate(dir, tt.cert, format.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = File(path, tt.opt)
			check(err, "file")
			if tt.invalid {
				if _, err := CertificateWith(tt.cert, Options{Limits: tt.raised}); !IsInvalid(err) || IsLimit(err) {
					t.Errorf("with limits %+v: got %v, want an invalid proof", tt.raised, err)
				}
			}
		})
	}
}

// TestHostileClaimOnDatabase: a database check refuses a huge root before
// expanding it, and a huge entry when the search reaches it.
func TestHostileClaimOnDatabase(t *testing.T) {
	db, err := NewDatabase([]format.SPREntry{{Position: "0", Grundy: 0, Line: 1}, {Position: eighteen, Grundy: 0, Line: 2}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		claim string
		limit string
	}{
		{"0*100000=W", "lives"},
		{"gn(0*100000)=0", "lives"},
		{eighteen + "=L", "moves"},
		{"0+" + eighteen + "=W", "moves"},
	}
	for _, tt := range tests {
		_, err := db.Check(mustClaim(t, tt.claim), Options{})
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != tt.limit || le.Row != 0 || IsInvalid(err) {
			t.Errorf("%.20s: got %v, want the limit %s on the claim", tt.claim, err, tt.limit)
		}
	}
}

// TestDatabaseSearchRefusesEntries: a limit met by the search, past the
// claim's root, refuses the check and names the database line.
func TestDatabaseSearchRefusesEntries(t *testing.T) {
	db := spotsDatabase(t, 8)
	_, err := db.Check(mustClaim(t, "0*8=L"), Options{Limits: Limits{Moves: 10}})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "moves" || le.Row <= 0 || IsInvalid(err) {
		t.Fatalf("got %v, want the limit on moves at a line of the database", err)
	}
	if _, err := db.Check(mustClaim(t, "0*8=L"), Options{}); err != nil {
		t.Errorf("within the default limits: %v", err)
	}
}

// TestMeasure checks the measures of a few positions and that Moves bounds
// the number of children from above.
func TestMeasure(t *testing.T) {
	tests := []struct {
		pos                        string
		lives, boundaries, letters int
	}{
		{"0", 3, 1, 0},
		{"0*23", 69, 23, 0},
		{"0.1a1a", 8, 2, 2},
		{"0.AB|AB", 5, 3, 4},
		{"1.11.111.1111", 20, 4, 0},
		{"0*3+0*2.1", 17, 6, 0},
		{eighteen, 309, 18, 0},
	}
	for _, tt := range tests {
		p := sprouts.MustParse(tt.pos)
		c := Measure(p)
		if c.Lives != tt.lives || c.Boundaries != tt.boundaries || c.Letters != tt.letters {
			t.Errorf("%.20s: %+v, want %d lives, %d boundaries, %d letters", tt.pos, c, tt.lives, tt.boundaries, tt.letters)
		}
		if c.Moves < 1<<20 {
			if n := len(p.Children()); int64(n) > c.Moves {
				t.Errorf("%s: %d children, more than the %d moves estimated", tt.pos, n, c.Moves)
			}
		}
	}
}

// TestCorpusWithinDefaultLimits: every entry of the corpus, and every land
// of its children, is within the default limits, and its children are at
// most the moves estimated. (The smallest certificates; all of them with
// SPOTS_MUTATION=all. spots-corpus check verifies every certificate with
// the default limits.)
func TestCorpusWithinDefaultLimits(t *testing.T) {
	files := campaignFiles(t, 4, 16)
	var worst Cost
	for _, path := range files {
		r, err := format.OpenCertificate(path)
		if err != nil {
			t.Fatal(err)
		}
		for {
			e, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			p := sprouts.MustParse(e.Position)
			c := Measure(p)
			if err := (Limits{}).Check(p); err != nil || c.Moves < int64(len(e.Win)) {
				t.Errorf("%s: %s: %+v, %d children: %v", path, e.Position, c, len(e.Win), err)
			}
			worst.Work = max(worst.Work, c.Work)
			for _, child := range p.Children() {
				for _, land := range child.Lands() {
					if err := (Limits{}).Check(land); err != nil {
						t.Errorf("%s: %s: a land of a child: %v", path, e.Position, err)
					}
				}
			}
		}
		r.Close()
	}
	t.Logf("%d certificates: the most work an entry needs is %d (limit %d)", len(files), worst.Work, DefaultLimits.Work)
}

// TestWorkPerEntry: in hinted checking the work of every generation one
// entry needs is added up and held to Limits.Work; lands already
// generated cost nothing, and each entry starts afresh.
func TestWorkPerEntry(t *testing.T) {
	a, b, c := sprouts.MustParse("0*20.1"), sprouts.MustParse("0*21.2"), sprouts.MustParse("0*22.1")
	wa, wb, wc := Measure(a).Work, Measure(b).Work, Measure(c).Work
	limit := wa + wb - 1
	if wc < wa || wc > limit {
		t.Fatalf("works %d, %d, %d do not suit the test", wa, wb, wc)
	}
	lm := newLandMoves(mustRules(sprouts.Game), Limits{Work: limit}, true)
	steps := []struct {
		land     sprouts.Position
		newEntry bool
		refused  int64 // the work refused, or 0
	}{
		{a, true, 0},
		{b, false, wa + wb},
		{b, true, 0},
		{a, false, 0}, // remembered: no work
		{c, false, wb + wc},
		{c, true, 0},
	}
	for i, s := range steps {
		if s.newEntry {
			lm.startEntry()
		}
		_, err := lm.of(game.Wrap(s.land))
		var le *LimitError
		switch {
		case s.refused == 0 && err != nil:
			t.Errorf("step %d: %v", i, err)
		case s.refused != 0 && (!errors.As(err, &le) || le.Limit != "work" || le.Value != s.refused):
			t.Errorf("step %d: %v, want the work %d refused", i, err, s.refused)
		}
	}
	// Without perEntry (the database search) only each generation counts.
	lm = newLandMoves(mustRules(sprouts.Game), Limits{Work: max(wa, wb)}, false)
	for _, p := range []sprouts.Position{a, b} {
		if _, err := lm.of(game.Wrap(p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
