package verify

import (
	"fmt"
	"slices"
)

// The independent check of what a claim uses (Options.Independent with
// Options.Used).
//
// The entries of the certificates cited are claims: added to the table
// as valid for every lookup, each marked the first time a lookup finds
// it (independent.known). Once the certificate's rows and its claim hold,
// the marked claims are checked by the entry rule, from the most lives
// down: the lands an entry's rule looks up have fewer lives than it, so
// when the claims of some lives are checked, every claim that can still
// be marked has fewer, and one pass from the top checks every claim used.
// A lookup made while searching for a witness that was then not chosen
// marks its claim too: more is checked than the proof needs, never less.
// By induction on lives every value a check relied on is the Grundy
// value of its land, as in the default check (demand.go).

// giveAll adds the values of checked certificates as given entries.
func (c *independent) giveAll(given []Value) error {
	for _, v := range given {
		if _, _, err := c.give(v); err != nil {
			return err
		}
	}
	return nil
}

// give adds the value of a cited certificate as an entry, as row 0; it
// returns its index and whether the land was there already.
func (c *independent) give(v Value) (int, bool, error) {
	i, found, err := c.add(0, v.Position, v.Grundy)
	switch {
	case IsLimit(err):
		return -1, false, err
	case err != nil:
		return -1, false, &Failure{Position: v.Position, Rule: "citation", Detail: fmt.Sprintf("an entry of a cited certificate is not a land: %v", err)}
	case found && c.entries[i].g != v.Grundy:
		return -1, false, &Failure{Position: v.Position, Rule: "citation", Detail: fmt.Sprintf("two cited certificates give it the values %d and %d", c.entries[i].g, v.Grundy)}
	}
	return i, found, nil
}

// claimCited adds the entries of the loaded certificates that cites
// relies on as claims (with opt.demand()): the values found valid by an
// independent check before as given, the others as claimed; res.Read
// counts the claims.
func (c *independent) claimCited(res *Result, cites []string, opt Options) error {
	if !opt.demand() || len(cites) == 0 || opt.Library == nil {
		return nil
	}
	trusted, pending := opt.Library.citedRows(cites, true)
	if err := c.giveAll(trusted); err != nil {
		return err
	}
	for _, r := range pending {
		e := &r.cert.entries[r.i]
		i, found, err := c.give(Value{Position: e.Position, Grundy: e.Grundy})
		if err != nil {
			return citedFailure(r, err)
		}
		if found {
			continue // the first entry of a land is the one checked if used
		}
		if c.claims == nil {
			c.claims = map[int]pendingRow{}
		}
		c.claims[i] = r
		c.entries[i].row = r.i + 1
	}
	res.Read = len(c.claims)
	return nil
}

// adopt makes the given entry i, which is also the certificate's row row,
// one of its rows if it was only claimed: every row of the certificate
// checked is checked.
func (c *independent) adopt(i, row int) {
	if _, ok := c.claims[i]; !ok {
		return
	}
	delete(c.claims, i)
	c.entries[i].row = row
	c.adopted = append(c.adopted, i)
}

// drainClaims checks the claims marked, from the most lives down, and
// those their checks mark, on the workers of c.opt; it counts them in
// res.Used and marks each found valid in its certificate. The first
// invalid one (of least row, in the round of most lives that has one) is
// the certificate's error.
func (c *independent) drainClaims(res *Result) error {
	if len(c.claims) == 0 {
		return nil
	}
	byLives := map[int][]int{}
	for i := range c.claims {
		l := c.entries[i].land.Lives()
		byLives[l] = append(byLives[l], i)
	}
	levels := slices.Sorted(func(yield func(int) bool) {
		for l := range byLives {
			if !yield(l) {
				return
			}
		}
	})
	pool := make([]worker, max(c.opt.workers(), 1))
	for k := len(levels) - 1; k >= 0; k-- {
		var round []int
		for _, i := range byLives[levels[k]] {
			if c.demand[i].Load() {
				round = append(round, i)
			}
		}
		if len(round) == 0 {
			continue
		}
		slices.Sort(round)
		c.checkRound(pool, round)
		if bad := c.firstInvalid(round); bad >= 0 {
			return citedFailure(c.claims[bad], c.why[bad])
		}
		for _, i := range round {
			r := c.claims[i]
			r.cert.marks(true)[r.i] = true
		}
		res.Used += len(round)
		if c.opt.UsedProgress != nil {
			c.opt.UsedProgress(res.Used, int(c.marked.Load()))
		}
	}
	return nil
}
