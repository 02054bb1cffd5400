package verify

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify/sprouts2"
)

// The independent check (Options.Independent).
//
// It judges a Sprouts certificate or database with package sprouts2, the
// second implementation of the rules, and nothing of package sprouts: a
// bug there that the solver built a false proof on cannot make this check
// pass it. Hints index children in package sprouts' order, so it ignores
// them and searches for the witnesses as Database.Check does, one or two
// moves deep: an entry gn(Q) = g is valid when, for each m < g, some child
// of Q has lands that are all valid entries xoring to m, and every child
// either has lands that are valid entries xoring to something else than g,
// or a move in one of its lands reaching lands that are valid entries
// xoring to g.
//
// Every entry is read, reduced and put in a Table of sprouts2 (which finds
// a land by relabelling, not by a canonical code), then every entry is
// checked, in rounds of increasing lives: the positions an entry's rule
// names have fewer lives than it, so all the entries of one round depend
// only on earlier rounds and are checked at once, on Options.Workers
// goroutines. The verdict and the row it names do not depend on the number
// of workers: the first round with a failure reports the failing entry of
// least row.
//
// The limits hold as in the default check: every land whose children are
// generated (an entry, the claim's root, the land a reply is looked for
// in) is measured first and refused if it is over Options.Limits, and a
// comparison of two lands may take at most Limits.Work steps.

// ErrUnsupported marks input that the independent check cannot judge (a
// certificate of another game than Sprouts): neither valid nor invalid.
var ErrUnsupported = errors.New("not supported by the independent check")

const (
	indUnchecked uint8 = iota
	indValid
	indInvalid
	indRefused
	indClaimed // an entry of a cited certificate taken unchecked (Options.Used)
)

// indEntry is an entry read for the independent check.
type indEntry struct {
	land *sprouts2.Land
	g    uint32
	row  int    // row of the certificate or line of the database
	text string // as written
}

// independent is one independent check.
type independent struct {
	given   int                // the first given entries are those of cited certificates: valid or claimed
	limits  Limits             // resolved
	claims  map[int]pendingRow // the claimed entries among the given ones, by index (Options.Used)
	adopted []int              // given entries that are also rows of the certificate: checked as rows
	demand  []atomic.Bool      // claimed entries looked up: to be checked (drainClaims)
	marked  atomic.Int64       // the claims of demand set so far
	table   sprouts2.Table
	entries []indEntry // by index in table
	state   []uint8    // written by the round that checks the entry, read by later ones
	why     []error    // a *Failure or *LimitError for each entry not valid
	opt     Options
	checked atomic.Int64
	mu      sync.Mutex // serialises opt.Progress
}

func newIndependent(opt Options) *independent {
	c := &independent{limits: opt.Limits.resolved(), opt: opt}
	if c.limits.Work < math.MaxInt64 {
		c.table.Budget = c.limits.Work
	}
	return c
}

// measureLands returns what generating the children of lands costs, as
// Measure does for package sprouts (Moves bounds what sprouts2's generator
// tries, as Measure's bounds what sprouts' does), with Bytes the length of
// their text (corners and separators).
func measureLands(lands []*sprouts2.Land) Cost {
	var c Cost
	for _, l := range lands {
		c.Lives += l.Lives()
		c.Boundaries += l.Boundaries()
		c.Letters += l.Letters()
		c.Moves = saturate(float64(c.Moves) + float64(l.Moves()))
		c.Bytes += int64(l.Corners() + l.Boundaries())
	}
	c.Work = saturate(float64(c.Moves) * float64(max(c.Bytes, 1)))
	return c
}

// refuse returns the *LimitError of lands over the limits, or nil.
func (c *independent) refuse(lands []*sprouts2.Land) *LimitError {
	if e := c.limits.check(measureLands(lands)); e != nil {
		e.Position = cutText(sprouts2.Text(lands))
		return e
	}
	return nil
}

// budgetError is the refusal of a comparison of lands that ran out of
// steps.
func (c *independent) budgetError(lands []*sprouts2.Land) *LimitError {
	return &LimitError{Position: cutText(sprouts2.Text(lands)), Limit: "work", Value: c.limits.Work + 1, Max: c.limits.Work}
}

// add reads an entry. It returns the index of the entry in the table and
// whether an entry for the same position was there already, or an error
// the caller turns into what its input calls for: a *sprouts2.ParseError,
// a *notLand (not a single land) or a *LimitError.
func (c *independent) add(row int, text string, g uint32) (int, bool, error) {
	lands, err := sprouts2.Parse(text)
	if err != nil {
		return -1, false, err
	}
	if len(lands) != 1 {
		return -1, false, &notLand{lands: len(lands)}
	}
	if e := c.refuse(lands); e != nil {
		e.Row = row
		return -1, false, e
	}
	i, found, err := c.table.Add(lands[0])
	if errors.Is(err, sprouts2.ErrBudget) {
		e := c.budgetError(lands)
		e.Row = row
		return -1, false, e
	}
	if !found {
		c.entries = append(c.entries, indEntry{land: lands[0], g: g, row: row, text: text})
	}
	return i, found, nil
}

// notLand is an entry that is not a single land.
type notLand struct{ lands int }

func (e *notLand) Error() string { return fmt.Sprintf("%d lands, not a single land", e.lands) }

// worker is what one goroutine of the check keeps: the entries found for
// lands as written (a land written the same way twice is the same land;
// more than half the lands a check meets are written as one met before),
// so that the Table is asked less often. It holds at most workerLands
// lands.
type worker struct {
	found map[string]int32
	key   []byte
}

const workerLands = 1 << 16

// find returns the index of the entry for land, or -1.
func (c *independent) find(w *worker, land *sprouts2.Land) (int, error) {
	if w == nil {
		return c.table.Find(land)
	}
	w.key = land.AppendWriting(w.key[:0])
	if i, ok := w.found[string(w.key)]; ok {
		return int(i), nil
	}
	i, err := c.table.Find(land)
	if err != nil {
		return i, err
	}
	if w.found == nil || len(w.found) >= workerLands {
		w.found = make(map[string]int32, workerLands)
	}
	w.found[string(w.key)] = int32(i)
	return i, nil
}

// known returns the index of the valid entry for land, or -1, when it has
// fewer lives than below (so that its round is over).
func (c *independent) known(w *worker, land *sprouts2.Land, below int) (int, error) {
	if land.Lives() >= below {
		return -1, nil
	}
	i, err := c.find(w, land)
	if err != nil || i < 0 {
		return -1, err
	}
	switch c.state[i] {
	case indValid:
	case indClaimed:
		// Written once per entry: later lookups only read it.
		if d := &c.demand[i]; !d.Load() && d.CompareAndSwap(false, true) {
			c.marked.Add(1)
		}
	default:
		return -1, nil
	}
	return i, nil
}

// value returns the xor of the values of the lands that are valid entries
// below, and the indices of the others among lands.
func (c *independent) value(w *worker, lands []*sprouts2.Land, below int) (uint32, []int, error) {
	x := uint32(0)
	var unknown []int
	for k, l := range lands {
		i, err := c.known(w, l, below)
		if err != nil {
			return 0, nil, err
		}
		if i < 0 {
			unknown = append(unknown, k)
			continue
		}
		x ^= c.entries[i].g
	}
	return x, unknown, nil
}

// cite checks the certificates that cites names (with opt.Library) and
// adds their entries as given: valid, as rows before the first; res gets
// the citations.
func (c *independent) cite(res *Result, cites []string, opt Options) error {
	given, err := citedFor(res, cites, opt)
	if err != nil {
		return err
	}
	if err := c.giveAll(given); err != nil {
		return err
	}
	if err := c.claimCited(res, cites, opt); err != nil {
		return err
	}
	c.given = len(c.entries)
	return nil
}

// run checks every entry, in rounds of increasing lives, on the workers
// of opt. With strict (a certificate) it stops after the first round in
// which an entry is not valid and returns that entry's failure (the one of
// least row); otherwise it checks every entry and returns nil. The given
// entries (of cited certificates) are valid without a check.
func (c *independent) run(strict bool) error {
	n := len(c.entries)
	c.state, c.why = make([]uint8, n), make([]error, n)
	order := make([]int, 0, n-c.given+len(c.adopted))
	for i := range c.given {
		c.state[i] = indValid
	}
	if len(c.claims) > 0 {
		c.demand = make([]atomic.Bool, n)
		for i := range c.claims {
			c.state[i] = indClaimed
		}
	}
	order = append(order, c.adopted...)
	for i := c.given; i < n; i++ {
		order = append(order, i)
	}
	n = len(order)
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(c.entries[a].land.Lives(), c.entries[b].land.Lives())
	})
	pool := make([]worker, max(c.opt.workers(), 1))
	for start := 0; start < n; {
		lives := c.entries[order[start]].land.Lives()
		end := start
		for end < n && c.entries[order[end]].land.Lives() == lives {
			end++
		}
		round := order[start:end]
		c.checkRound(pool, round)
		if strict {
			if err := c.firstFailure(round); err != nil {
				return err
			}
		}
		start = end
	}
	return nil
}

// checkRound checks the entries of round, which do not look each other up
// (they have as many lives), on the workers of pool.
func (c *independent) checkRound(pool []worker, round []int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range min(len(pool), len(round)) {
		wg.Go(func() {
			for {
				j := int(next.Add(1)) - 1
				if j >= len(round) {
					return
				}
				c.check(&pool[k], round[j])
			}
		})
	}
	wg.Wait()
}

// firstFailure returns the failure of the entry of least row among those
// given that is not valid, or nil.
func (c *independent) firstFailure(entries []int) error {
	if first := c.firstInvalid(entries); first >= 0 {
		return c.why[first]
	}
	return nil
}

// firstInvalid returns the entry of least row among those given that is
// not valid, or -1.
func (c *independent) firstInvalid(entries []int) int {
	first := -1
	for _, i := range entries {
		if c.state[i] != indValid && (first < 0 || c.entries[i].row < c.entries[first].row) {
			first = i
		}
	}
	return first
}

// check decides entry i by the entry rule.
func (c *independent) check(w *worker, i int) {
	e := &c.entries[i]
	defer func() {
		if done := c.checked.Add(1); c.opt.Progress != nil && done%1000 == 0 {
			c.mu.Lock()
			c.opt.Progress(int(done), len(c.entries))
			c.mu.Unlock()
		}
	}()
	fail := func(rule, detail string, a ...any) {
		c.state[i], c.why[i] = indInvalid, &Failure{Row: e.row, Position: e.text, Rule: rule, Detail: fmt.Sprintf(detail, a...)}
	}
	refused := func(err error, lands []*sprouts2.Land) {
		var le *LimitError
		if !errors.As(err, &le) {
			le = c.budgetError(lands)
		}
		le.Row, le.Entry = e.row, cutText(e.text)
		c.state[i], c.why[i] = indRefused, le
	}
	lives := e.land.Lives()
	type child struct {
		lands   []*sprouts2.Land
		x       uint32
		unknown []int
	}
	children := e.land.Children()
	if int64(e.g) > int64(len(children)) {
		// Each smaller value needs a child of its own (and a hostile
		// value must not size the table below).
		fail("reach", "the value %d needs as many children; the position has %d", e.g, len(children))
		return
	}
	var kids []child
	reached := make([]bool, e.g)
	for _, lands := range children {
		x, unknown, err := c.value(w, lands, lives)
		if err != nil {
			refused(err, lands)
			return
		}
		if len(unknown) == 0 && x < e.g {
			reached[x] = true
		}
		kids = append(kids, child{lands, x, unknown})
	}
	for m, ok := range reached {
		if !ok {
			fail("reach", "no child reaches the value %d", m)
			return
		}
	}
	var shown []child // children shown won by a reply, to skip the same again
	for _, k := range kids {
		if len(k.unknown) == 0 && k.x != e.g {
			continue
		}
		if len(k.unknown) == 1 && slices.ContainsFunc(shown, func(s child) bool {
			if s.x != k.x {
				return false
			}
			same, err := sprouts2.Same(s.lands[s.unknown[0]], k.lands[k.unknown[0]], c.table.Budget)
			return err == nil && same
		}) {
			continue
		}
		ok, err := c.reply(w, k.lands, k.x, k.unknown, e.g, lives)
		if err != nil {
			refused(err, k.lands)
			return
		}
		if !ok {
			fail("win", "the child %s may have the value %d: no move from it reaches that value", cutText(sprouts2.Text(k.lands)), e.g)
			return
		}
		if len(k.unknown) == 1 {
			shown = append(shown, k)
		}
	}
	c.state[i] = indValid
}

// reply reports whether a move in one land of a child reaches lands that
// are valid entries (below lives) xoring to g. x is the xor of the known
// lands of the child and unknown the others: a reply can only be in the
// one unknown land (in any land if there is none; with two the rest of
// the child stays unknown).
func (c *independent) reply(w *worker, lands []*sprouts2.Land, x uint32, unknown []int, g uint32, lives int) (bool, error) {
	var tries []int
	switch len(unknown) {
	case 0:
		for k := range lands {
			tries = append(tries, k)
		}
	case 1:
		tries = unknown
	default:
		return false, nil
	}
	for _, k := range tries {
		land := lands[k]
		rest := x
		if len(unknown) == 0 {
			i, _ := c.known(w, land, lives)
			rest ^= c.entries[i].g
		}
		if e := c.refuse([]*sprouts2.Land{land}); e != nil {
			return false, e
		}
		var err error
		found := !land.EachChild(func(r []*sprouts2.Land) bool {
			y := rest
			for _, l := range r {
				var i int
				if i, err = c.known(w, l, lives); i < 0 {
					return err == nil
				}
				y ^= c.entries[i].g
			}
			return y != g
		})
		if err != nil {
			return false, err
		}
		if found {
			return true, nil
		}
	}
	return false, nil
}

// claim decides the claim from the valid entries, as checkClaim does.
func (c *independent) claim(cl format.Claim, root []*sprouts2.Land) error {
	fail := func(detail string, a ...any) error {
		return &Failure{Position: cl.Root, Rule: "claim", Detail: fmt.Sprintf(detail, a...)}
	}
	if cl.Kind == format.ClaimLemmas {
		return nil // every entry was checked before the claim: they are the claim
	}
	x, unknown, err := c.value(nil, root, math.MaxInt)
	if err != nil {
		return c.budgetError(root)
	}
	switch cl.Kind {
	case format.ClaimLoss, format.ClaimGrundy:
		if len(unknown) > 0 {
			return fail("the root's lands are not all valid entries")
		}
		if x != cl.N {
			return fail("the root's value is %d, not %d", x, cl.N)
		}
		return nil
	case format.ClaimWin:
		if len(unknown) == 0 && x != cl.N {
			return nil
		}
		for k, land := range root {
			for _, kid := range land.Children() {
				lands := append(slices.Delete(slices.Clone(root), k, k+1), kid...)
				if y, missing, err := c.value(nil, lands, math.MaxInt); err != nil {
					return c.budgetError(lands)
				} else if len(missing) == 0 && y == cl.N {
					return nil
				}
			}
		}
		if len(unknown) == 0 {
			return fail("the root's value is %d, so root + *%d is lost", x, cl.N)
		}
		return fail("no move from the root reaches a position of value %d, and its own value is not known", cl.N)
	}
	return fail("unknown kind of claim")
}

// root reads the claim's root and refuses it if it is over the limits.
func (c *independent) root(cl format.Claim) ([]*sprouts2.Land, error) {
	root, err := sprouts2.Parse(cl.Root)
	if err != nil {
		return nil, &Failure{Position: cl.Root, Rule: "claim", Detail: err.Error()}
	}
	if e := c.refuse(root); e != nil {
		return nil, e
	}
	return root, nil
}

// independentStream is Stream with Options.Independent.
func independentStream(r *format.CertReader, opt Options) (Result, error) {
	h := r.Header()
	next := func() (int, format.Entry, error) {
		e, err := r.Next()
		if err != nil && err != io.EOF {
			err = fileError(err)
		}
		return r.Row(), e, err
	}
	address := func() (string, error) {
		addr, err := r.Address()
		if err != nil {
			return "", fileError(err)
		}
		if declared := r.DeclaredAddress(); declared != addr {
			return addr, &Failure{Rule: "address", Detail: fmt.Sprintf("the file declares the address %s but its content hashes to %s", declared, addr)}
		}
		return addr, nil
	}
	return independentCertificate(h.Game, h.Claim, h.Cites, next, address, opt)
}

// independentCertificate checks the rows next returns (until io.EOF),
// then the content address (address), then the claim.
func independentCertificate(game string, cl format.Claim, cites []string, next func() (int, format.Entry, error), address func() (string, error), opt Options) (Result, error) {
	res := Result{Claim: cl}
	if game != sprouts.Game {
		return res, fmt.Errorf("%w: the certificate is for the game %q; the independent check knows only %q", ErrUnsupported, game, sprouts.Game)
	}
	c := newIndependent(opt)
	root, err := c.root(cl)
	if err != nil {
		return res, err
	}
	if err := c.cite(&res, cites, opt); err != nil {
		return res, err
	}
	next = collecting(opt.rows, next)
	prev, prevLives := "", 0
	for {
		row, e, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return res, err
		}
		fail := func(rule, detail string, a ...any) error {
			return &Failure{Row: row, Position: e.Position, Rule: rule, Detail: fmt.Sprintf(detail, a...)}
		}
		i, found, err := c.add(row, e.Position, e.Grundy)
		var nl *notLand
		switch {
		case errors.As(err, &nl):
			return res, fail("position", "not a single land (%v)", err)
		case IsLimit(err):
			return res, err
		case err != nil:
			return res, fail("position", "%v", err)
		}
		if old := c.entries[i]; found && old.g != e.Grundy {
			if i < c.given {
				return res, fail("citation", "a cited certificate gives it the value %d, not %d", old.g, e.Grundy)
			}
			return res, fail("duplicate", "the same position as row %d (%s), whose value is %d, not %d", old.row, old.text, old.g, e.Grundy)
		}
		if found && i < c.given {
			c.adopt(i, row)
		}
		lives := c.entries[i].land.Lives()
		if row > 1 && (lives < prevLives || lives == prevLives && e.Position <= prev) {
			return res, fail("order", "rows must be in increasing order of lives, then text; the previous row is %s", prev)
		}
		prev, prevLives = e.Position, lives
		res.Entries++
	}
	if err := c.run(true); err != nil {
		return res, err
	}
	addr, err := address()
	res.Address = addr
	if err != nil {
		return res, err
	}
	if err := c.claim(cl, root); err != nil {
		return res, err
	}
	return res, c.drainClaims(&res)
}

// independentCertificateWith is CertificateWith with Options.Independent.
func independentCertificateWith(cert *format.Certificate, opt Options) (Result, error) {
	return independentCertificate(cert.Game, cert.Claim, cert.Cites, entriesOf(cert), func() (string, error) { return cert.Address(), nil }, opt)
}

// IndependentResult is what CheckIndependent found in a database.
type IndependentResult struct {
	Claim   format.Claim
	Entries int      // entries read (distinct positions)
	Valid   int      // entries found valid
	Notes   []string // entries that were skipped, and why
}

// CheckIndependent checks the claim against a text database of Sprouts
// positions (GLOP, SPOTS) with package sprouts2 alone (see
// Options.Independent): every entry is read and checked, and the claim is
// decided from those found valid. A position that does not parse is a
// *format.LineError; an entry for a sum of several lands is skipped with a
// note; two entries for one position with different values are an
// *Inconsistency; a claim the valid entries do not prove is a *Failure
// (naming the first invalid entry, if any). An entry over opt.Limits is
// not checked; if the claim then fails, the refusal (a *LimitError) is the
// answer, since the entry might have proved it.
func CheckIndependent(entries []format.SPREntry, cl format.Claim, opt Options) (IndependentResult, error) {
	res := IndependentResult{Claim: cl}
	c := newIndependent(opt)
	root, err := c.root(cl)
	if err != nil {
		return res, err
	}
	var refused error
	firsts := map[int]format.SPREntry{}
	for _, e := range entries {
		i, found, err := c.add(e.Line, e.Position, e.Grundy)
		var nl *notLand
		switch {
		case errors.As(err, &nl):
			res.Notes = append(res.Notes, fmt.Sprintf("line %d: %s is %d lands; skipped", e.Line, e.Position, nl.lands))
			continue
		case IsLimit(err):
			if refused == nil {
				refused = err
			}
			continue
		case err != nil:
			return res, &format.LineError{Line: e.Line, Text: e.Position, Reason: err.Error()}
		}
		if !found {
			firsts[i] = e
			continue
		}
		if old := c.entries[i]; old.g != e.Grundy {
			return res, &Inconsistency{Position: old.land.String(), First: firsts[i], Second: e, FirstValue: old.g}
		}
	}
	res.Entries = len(c.entries)
	c.run(false)
	firstBad := -1
	for i, s := range c.state {
		switch {
		case s == indValid:
			res.Valid++
		case s == indRefused && (refused == nil || c.entries[i].row < rowOf(refused)):
			refused = c.why[i]
		case s == indInvalid && (firstBad < 0 || c.entries[i].row < c.entries[firstBad].row):
			firstBad = i
		}
	}
	if err := c.claim(cl, root); err != nil {
		if refused != nil {
			return res, refused
		}
		var f, why *Failure
		if errors.As(err, &f) && firstBad >= 0 && errors.As(c.why[firstBad], &why) {
			f.Detail += fmt.Sprintf(" (first invalid entry: line %d, %s: %s: %s)", why.Row, why.Position, why.Rule, why.Detail)
		}
		return res, err
	}
	return res, nil
}

// rowOf returns the row of a *LimitError.
func rowOf(err error) int {
	var le *LimitError
	if errors.As(err, &le) {
		return le.Row
	}
	return 0
}
