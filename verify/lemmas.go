package verify

import (
	"cmp"
	"slices"
	"strings"

	"github.com/spots-dev/spots/format"
)

// Lemmas.
//
// A long search proves Grundy values long before it proves its root. A
// certificate of lemmas (claim lemmas(ROOT), format.ClaimLemmas) keeps
// them: its rows are the values, each with its witnesses, and it is valid
// when every row is, so both checkers check it as any certificate. A later
// search of ROOT, on any machine, draws on it as on any certificate, and
// goes on where the first stopped.

// LemmaStats says what Database.Lemmas made of the values it was given.
type LemmaStats struct {
	Targets int // values the proof holds because they were asked for (the rest are their witnesses)
	Invalid int // values asked for that the rules do not derive from the database (skipped)
	Refused int // values asked for over the limits (skipped)
	Left    int // values not looked at: the proof had reached maxEntries
}

// Lemmas returns a proof of the claim lemmas(root): the values of the
// database that the rules derive from it, largest position first (by the
// game's size, lives in Sprouts: the values that cost a search most to
// find), each with the entries its witnesses name, until the proof holds
// maxEntries entries or more (0: no bound; the entries of the last value
// taken are all kept, so the proof may go past it by those). The choice
// depends only on the database, so the same values give the same
// certificate. A value that is not derived (an
// entry the rules refute, or one over opt.Limits) is skipped and counted,
// never believed. Entries the database cites (Cite) are not repeated:
// the proof's CitedKeys lists those it relies on. root must be canonical
// and within the limits.
func (d *Database) Lemmas(root string, maxEntries int, opt Options) (*Proof, LemmaStats, error) {
	return d.impl.lemmas(root, maxEntries, opt)
}

func (d *gameDB[P]) lemmas(root string, maxEntries int, opt Options) (*Proof, LemmaStats, error) {
	var st LemmaStats
	claim := format.Claim{Root: root, Kind: format.ClaimLemmas}
	if _, err := claimRoot(d.g, claim, opt.Limits.resolved()); err != nil {
		return nil, st, err
	}
	s := &search[P]{g: d.g, db: d, opt: opt, moves: newLandMoves(d.g, opt.Limits, false)}
	if w := opt.workers(); w > 1 {
		s.moves.ahead = startAhead(d.g, opt.Limits.resolved(), w-1)
		defer s.moves.ahead.stop()
	}
	for _, e := range d.entries {
		e.state, e.reach, e.win, e.deps, e.why = unseen, nil, nil, nil, ""
		if e.cited {
			e.state = valid
		}
	}
	type target struct {
		key, text string
		size      int
	}
	targets := make([]target, 0, len(d.entries))
	for key, e := range d.entries {
		if !e.cited {
			targets = append(targets, target{key: key, text: d.g.text(e.pos), size: d.g.size(e.pos)})
		}
	}
	slices.SortFunc(targets, func(a, b target) int {
		if c := cmp.Compare(b.size, a.size); c != 0 {
			return c
		}
		return strings.Compare(a.text, b.text)
	})
	p := &Proof{Claim: claim, game: d.g.game(), notation: d.g.notation(), sizes: map[string]int{}}
	c := newCollector(d, p)
	for i, t := range targets {
		if maxEntries > 0 && len(p.used) >= maxEntries {
			st.Left = len(targets) - i
			break
		}
		key := t.key
		e := d.entries[key]
		if c.seen[e] {
			continue
		}
		ok := s.valid(e)
		switch {
		case s.refused != nil:
			st.Refused++
			s.refused = nil
		case s.cycle != "":
			return nil, st, &Failure{Position: s.cycle, Rule: "cycle", Detail: "a position was met again while checking it: the rules' moves do not reduce lives"}
		case !ok:
			st.Invalid++
		default:
			st.Targets++
			c.add(key)
			c.drain()
		}
	}
	c.done()
	p.Checked = s.checked
	return p, st, nil
}
