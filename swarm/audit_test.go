package swarm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// trueValues solves root with a DFPN solver and returns the Grundy values
// it proved, sorted by key.
func trueValues(t *testing.T, root string) []solve.NimberEntry {
	t.Helper()
	db := solve.NewNimberDB()
	s := solve.NewDFPN(sprouts.Rules{}, db, solve.Options{Capacity: 1 << 16})
	if out := s.Solve(context.Background(), sprouts.MustParse(root), 0); !out.Known() {
		t.Fatalf("%s not solved", root)
	}
	var es []solve.NimberEntry
	db.Range(func(k string, g uint32) bool {
		es = append(es, solve.NimberEntry{Key: k, G: g})
		return true
	})
	slices.SortFunc(es, func(a, b solve.NimberEntry) int { return cmp.Compare(a.Key, b.Key) })
	if len(es) < 10 {
		t.Fatalf("%s: only %d values", root, len(es))
	}
	return es
}

// smallMaster returns a master of root with 4,096-entry tables and no
// values, that trusts every group from its first exchange (the tests
// drive groups by hand).
func smallMaster(t *testing.T, root string) *Master {
	t.Helper()
	p := DefaultParams()
	p.Capacity, p.Probation = 4096, 0
	m, err := NewMaster(sprouts.MustParse(root), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// proves reports whether the master's values prove its root's outcome.
func proves(m *Master) error {
	claim, err := certify.Claim(m.root, 0, m.Outcome(), nil)
	if err != nil {
		return err
	}
	cert, err := certify.Build(m.DB(), claim, verify.Options{})
	if err == nil {
		_, err = verify.Certificate(cert)
	}
	return err
}

// TestLiarSentFirst: a liar sends true values before an honest group that
// derived them too, and one wrong value. Dropping the liar's values must
// keep those the honest group sent (its other values rest on them), so the
// values left still prove the root.
func TestLiarSentFirst(t *testing.T) {
	const root = "0*6"
	values := trueValues(t, root)
	for _, tt := range []struct {
		name  string
		share int // of every share values, the liar sends one first
	}{{"all", 1}, {"half", 2}, {"a third", 3}} {
		t.Run(tt.name, func(t *testing.T) {
			m := smallMaster(t, root)
			var first []solve.NimberEntry
			for i, e := range values {
				if i%tt.share == 0 {
					first = append(first, e)
				}
			}
			lie := solve.NimberEntry{Key: sprouts.MustParse("0*9").Key(), G: 7}
			for _, req := range []ExchangeRequest{
				{Group: "liar", Slots: 1, Nimbers: append(slices.Clone(first), lie)},
				{Group: "honest", Slots: 1, Nimbers: values},
			} {
				if _, err := m.Exchange(req); err != nil {
					t.Fatal(err)
				}
			}
			unlock := m.lockAll()
			banned, _, _ := m.drop(findings{wrong: map[string]bool{lie.Key: true}}, nil)
			unlock()
			if !slices.Equal(banned, []string{"liar"}) {
				t.Errorf("banned %v, want the liar", banned)
			}
			for _, e := range values {
				if g, ok := m.DB().Get(e.Key); !ok || g != e.G {
					t.Errorf("the honest group's gn(%s)=%d was dropped", mustPos(e.Key), e.G)
				}
			}
			if _, ok := m.DB().Get(lie.Key); ok {
				t.Error("the lie is kept")
			}
			if !m.Outcome().Known() {
				t.Fatalf("the values left do not settle %s", root)
			}
			if err := proves(m); err != nil {
				t.Errorf("the values left do not prove %s: %v", root, err)
			}
		})
	}
}

// keptHonest fails t unless m holds every value of honest and none of
// lies.
func keptHonest[V any](t *testing.T, m *Master, honest []solve.NimberEntry, lies map[string]V) {
	t.Helper()
	for _, e := range honest {
		if g, ok := m.DB().Get(e.Key); !ok || g != e.G {
			t.Errorf("the honest group's gn(%s)=%d was dropped", mustPos(e.Key), e.G)
		}
	}
	for k := range lies {
		if _, ok := m.DB().Get(k); ok {
			t.Errorf("the lie about %s is kept", mustPos(k))
		}
	}
}

// valueMap returns values as a map of keys to Grundy values.
func valueMap(values []solve.NimberEntry) map[string]uint32 {
	out := make(map[string]uint32, len(values))
	for _, e := range values {
		out[e.Key] = e.G
	}
	return out
}

func mustPos(key string) sprouts.Position {
	p, err := sprouts.FromKey(key)
	if err != nil {
		panic(err)
	}
	return p
}

// TestAuditDropsUnderived: a master holds true values that settle its root
// but cannot be derived from one another (a value they rest on is
// missing). The audit finds nothing wrong, so it drops the values the
// verifier could not derive; groups then solve on and the next audit
// proves the root, where before every audit failed the same way.
func TestAuditDropsUnderived(t *testing.T) {
	const root = "0*7"
	values := trueValues(t, root)
	p := DefaultParams()
	p.Capacity, p.Iterations, p.Updates = 4096, 300, 300
	// The first value whose absence leaves the root settled but unproved.
	var m *Master
	for skip := range values {
		db := solve.NewNimberDB()
		for i, e := range values {
			if i != skip {
				db.Put(e.Key, e.G)
			}
		}
		c, err := NewMaster(sprouts.MustParse(root), p, db)
		if err != nil {
			t.Fatal(err)
		}
		if c.Outcome().Known() && proves(c) != nil {
			m = c
			t.Logf("without gn(%s)=%d", mustPos(values[skip].Key), values[skip].G)
			break
		}
	}
	if m == nil {
		t.Fatal("no value of the solve is needed by the proof but not by the DAG")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := m.audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Proved || len(res.Wrong) > 0 || len(res.Banned) > 0 || res.Underived == 0 || res.Dropped != res.Underived {
		t.Fatalf("first audit: %+v", res)
	}
	if m.Outcome().Known() {
		t.Fatal("the root is still settled after the underived values were dropped")
	}
	solveWith(t, ctx, m, p, 2)
	if !m.Outcome().Known() {
		t.Fatal("the groups did not settle the root again")
	}
	if res, err := m.audit(ctx); err != nil || !res.Proved {
		t.Fatalf("second audit: %+v, %v", res, err)
	}
}

// solveWith runs groups against m until the root is settled or ctx ends.
func solveWith(t *testing.T, ctx context.Context, m *Master, p Params, groups int) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, groups)
	for i := range groups {
		g, err := NewGroup(string(rune('a'+i)), p)
		if err != nil {
			t.Fatal(err)
		}
		go func() { done <- g.Run(ctx, localLink{m}) }()
	}
	select {
	case <-m.solved():
	case <-ctx.Done():
	}
	cancel()
	for range groups {
		<-done
	}
}

// TestDisputedValues: groups send values the master already has from an
// honest group, some with other values. The master ignores them at once
// and settles each dispute by solving the position at the next Check: a
// group that contradicted a right value is banned, a wrong value that an
// honest group contradicted is dropped and its sender banned.
func TestDisputedValues(t *testing.T) {
	const root = "0*6"
	values := trueValues(t, root)
	wrong := func(es []solve.NimberEntry) []solve.NimberEntry {
		out := slices.Clone(es)
		for i := range out {
			if i%3 == 0 {
				out[i].G++
			}
		}
		return out
	}
	for _, tt := range []struct {
		name       string
		first      []solve.NimberEntry // from group "first"
		second     []solve.NimberEntry // then from group "second"
		wantBanned string
	}{
		{"the second contradicts", values, wrong(values), "second"},
		{"the second corrects", wrong(values), values, "first"},
		{"no dispute", values, values, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := smallMaster(t, root)
			for _, req := range []ExchangeRequest{
				{Group: "first", Slots: 1, Nimbers: tt.first},
				{Group: "second", Slots: 1, Nimbers: tt.second},
			} {
				if _, err := m.Exchange(req); err != nil {
					t.Fatal(err)
				}
			}
			res, err := m.check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			if tt.wantBanned != "" {
				want = []string{tt.wantBanned}
			}
			if !slices.Equal(res.Banned, want) {
				t.Errorf("banned %v, want %v (%+v)", res.Banned, want, res)
			}
			m.DB().Range(func(k string, g uint32) bool {
				if i, ok := slices.BinarySearchFunc(values, k, func(e solve.NimberEntry, k string) int { return cmp.Compare(e.Key, k) }); ok && values[i].G != g {
					t.Errorf("gn(%s)=%d is kept", mustPos(k), g)
				}
				return true
			})
			if tt.wantBanned == "" {
				return
			}
			if _, err := m.Exchange(ExchangeRequest{Group: tt.wantBanned, Slots: 1}); !errors.Is(err, ErrBanned) {
				t.Errorf("%s is still heard: %v", tt.wantBanned, err)
			}
		})
	}
}

// TestScanAgainOnceComplete: a wrong value whose children had no values
// when a check first scanned it is scanned again by the next check of the
// epoch, once they have, and found wrong. A check scans each value once
// an epoch only when it agreed with children that all had values.
func TestScanAgainOnceComplete(t *testing.T) {
	values := trueValues(t, "0*6")
	all := valueMap(values)
	// A value whose every child has its lands' values, and has a child.
	key := ""
	for _, e := range values {
		p := mustPos(e.Key)
		if v := scanValue(sprouts.Rules{}, all, e.Key); !v.incomplete && len(v.bad) == 0 && len(p.Children()) > 0 {
			key = e.Key
			break
		}
	}
	if key == "" {
		t.Fatal("no value with all its children known")
	}
	lie := all[key] + 1
	m := smallMaster(t, "0*6")
	ctx := context.Background()
	found, err := m.findWrong(ctx, map[string]uint32{key: lie}, false, nil)
	if wrong := found.wrong; err != nil || len(wrong) != 0 {
		t.Fatalf("alone (children unknown): wrong %v, %v; want none", found.wrong, err)
	}
	// The value and its children's lands' values, not those of its
	// parents, which would name it too.
	vals := map[string]uint32{key: lie}
	for _, c := range mustPos(key).Children() {
		for _, l := range c.Lands() {
			vals[l.Key()] = all[l.Key()]
		}
	}
	found, err = m.findWrong(ctx, vals, false, nil)
	if err != nil || !found.wrong[key] {
		t.Fatalf("with its children's values: wrong %v, %v; want %s among them", found.wrong, err, key)
	}
}

// TestProvedValues: once an audit proved the root, ProvedValues holds the
// proof's entries, each with the master's value, keyed as the master keys
// them, and a value sent that the proof did not need is not among them.
func TestProvedValues(t *testing.T) {
	const root = "0*6"
	m := smallMaster(t, root)
	if m.ProvedValues() != nil {
		t.Fatal("values before any audit")
	}
	// A lie about a position no proof of 0*6 needs: a bigger one.
	stray := sprouts.MustParse("0*9").Key()
	if _, err := m.Exchange(ExchangeRequest{Group: "x", Slots: 1, Nimbers: []solve.NimberEntry{{Key: stray, G: 5}}}); err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	p.Capacity = 4096
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	solveWith(t, ctx, m, p, 2)
	res, err := m.audit(ctx)
	if err != nil || !res.Proved {
		t.Fatalf("audit: %+v, %v", res, err)
	}
	proved := m.ProvedValues()
	if proved == nil || proved.Len() != len(m.Certificate().Entries) {
		t.Fatalf("proved values: %v, want the %d entries of the proof", proved, len(m.Certificate().Entries))
	}
	proved.Range(func(k string, g uint32) bool {
		if have, ok := m.DB().Get(k); !ok || have != g {
			t.Errorf("%s: proved %d, the master has %d (%v)", k, g, have, ok)
		}
		return true
	})
	if _, ok := proved.Get(stray); ok {
		t.Error("the stray value is among the proved ones")
	}
	if _, ok := m.DB().Get(stray); !ok {
		t.Error("the stray value never reached the master: the test shows nothing")
	}
}

// TestManyLiars (N36): liars join one after another, each first taking the
// values shared (among them the lies of those before it), then sending a
// lie of its own, while an honest group goes on sending true values. One
// audit bans every liar, and keeps every honest value: each lie is of a
// position of fewer lives than the lies its liar was sent, and the honest
// values of fewer lives than any lie, so none can rest on one (a value
// rests only on values of positions of fewer lives). Each audit banned one
// liar, the others' lies taken to rest on the first's, and dropped every
// value the honest group sent after the first lie: a liar a second stalled
// the solve. A lie of more lives than one its liar was sent is still taken
// to rest on it, and its liar is banned by a later audit.
func TestManyLiars(t *testing.T) {
	const root = "0*6"
	values := trueValues(t, root)
	m := smallMaster(t, root)
	half := len(values) / 2
	lies := map[string]bool{}
	exchange := func(req ExchangeRequest) {
		t.Helper()
		if _, err := m.Exchange(req); err != nil {
			t.Fatal(err)
		}
	}
	exchange(ExchangeRequest{Group: "honest", Slots: 1, Nimbers: values[:half]})
	for i, n := range []int{11, 10, 9} {
		liar := fmt.Sprintf("liar%d", i+1)
		lie := solve.NimberEntry{Key: sprouts.MustParse(fmt.Sprintf("0*%d", n)).Key(), G: 7}
		lies[lie.Key] = true
		exchange(ExchangeRequest{Group: liar, Slots: 1})
		exchange(ExchangeRequest{Group: liar, Slots: 1, Nimbers: []solve.NimberEntry{lie}})
		exchange(ExchangeRequest{Group: "honest", Slots: 1, Nimbers: values[half+i*(len(values)-half)/3 : half+(i+1)*(len(values)-half)/3]})
	}
	exchange(ExchangeRequest{Group: "honest", Slots: 1, Nimbers: values[half+3*(len(values)-half)/3:]})
	unlock := m.lockAll()
	banned, _, _ := m.drop(findings{wrong: lies}, nil)
	unlock()
	if !slices.Equal(banned, []string{"liar1", "liar2", "liar3"}) {
		t.Errorf("banned %v, want every liar", banned)
	}
	keptHonest(t, m, values, lies)
	if err := proves(m); err != nil {
		t.Errorf("the values left do not prove %s: %v", root, err)
	}
}

// TestLiarsOneCheck (N36): liars join one after another, each sent the
// values the master holds (the lies before it among them), then each
// sends a lie of more lives than the last: the value of one of its
// position's children, whose lands' values it was sent. The lies are of
// more lives than those their liars were sent, so they could rest on
// them by lives alone; what each liar knew shows they do not. One check
// bans all three, drops the lies and keeps every honest value.
func TestLiarsOneCheck(t *testing.T) {
	const root = "0*6"
	values := trueValues(t, root)
	all := valueMap(values)
	lies := liesOfMoreLives(t, all, 3)
	m := smallMaster(t, root)
	exchange := func(req ExchangeRequest) {
		t.Helper()
		if _, err := m.Exchange(req); err != nil {
			t.Fatal(err)
		}
	}
	var honest []solve.NimberEntry
	for _, e := range values {
		if _, lied := lies[e.Key]; !lied {
			honest = append(honest, e)
		}
	}
	exchange(ExchangeRequest{Group: "honest", Slots: 1, Nimbers: honest})
	var want []string
	for i, e := range sortedLies(lies) {
		liar := fmt.Sprintf("liar%d", i+1)
		want = append(want, liar)
		exchange(ExchangeRequest{Group: liar, Slots: 1}) // sent what the master holds
		exchange(ExchangeRequest{Group: liar, Slots: 1, Nimbers: []solve.NimberEntry{e}})
	}
	res, err := m.check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Banned, want) {
		t.Errorf("banned %v, want %v (wrong %v)", res.Banned, want, res.Wrong)
	}
	keptHonest(t, m, honest, lies)
}

// liesOfMoreLives picks n positions of vals of distinct lives, each with a
// child whose lands all have values, none of them another pick, and
// returns for each a lie: that child's value.
func liesOfMoreLives(t *testing.T, vals map[string]uint32, n int) map[string]solve.NimberEntry {
	t.Helper()
	out := map[string]solve.NimberEntry{}
	used, lands := map[int]bool{}, map[string]bool{}
	for _, k := range sortedKeys(vals) {
		p := mustPos(k)
		if len(out) == n || used[p.Lives()] || lands[k] {
			continue
		}
	children:
		for _, c := range p.Children() {
			x := uint32(0)
			for _, l := range c.Lands() {
				g, ok := vals[l.Key()]
				if _, picked := out[l.Key()]; !ok || picked {
					continue children
				}
				x ^= g
			}
			for _, l := range c.Lands() {
				lands[l.Key()] = true
			}
			out[k] = solve.NimberEntry{Key: k, G: x}
			used[p.Lives()] = true
			break
		}
	}
	if len(out) < n {
		t.Fatalf("only %d positions fit", len(out))
	}
	return out
}

// sortedLies returns the lies by the lives of their positions, fewest
// first.
func sortedLies(lies map[string]solve.NimberEntry) []solve.NimberEntry {
	var out []solve.NimberEntry
	for _, e := range lies {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b solve.NimberEntry) int { return cmp.Compare(mustPos(a.Key).Lives(), mustPos(b.Key).Lives()) })
	return out
}
