package verify

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
)

// Database is a nimber database without hints (GLOP/SPOTS text, or a
// solver's), re-keyed under the canonical form: entries written
// differently for the same position become one.
type Database struct {
	entries map[string]*dbEntry
	Notes   []string // entries that were skipped, and why
}

type dbEntry struct {
	pos   sprouts.Position
	g     uint32
	line  int    // where it was read (0 when not read from a file)
	text  string // as written
	state uint8
	reach []uint32
	win   []int32
	deps  []sprouts.Position // the positions the witnesses name
	why   string             // why the entry is invalid
}

const (
	unseen uint8 = iota
	checking
	valid
	invalid
)

// Inconsistency is two entries for the same position with different values.
type Inconsistency struct {
	Position   string // canonical
	First      format.SPREntry
	Second     format.SPREntry
	FirstValue uint32
}

func (e *Inconsistency) Error() string {
	return fmt.Sprintf("line %d (%s %d) and line %d (%s %d) are the same position %s with different values",
		e.First.Line, e.First.Position, e.First.Grundy, e.Second.Line, e.Second.Position, e.Second.Grundy, e.Position)
}

// Unwrap makes an inconsistency an invalid certificate.
func (e *Inconsistency) Unwrap() error { return ErrInvalidCertificate }

// NewDatabase re-keys the entries of a text database. A position that does
// not parse is an error naming its line; an entry for a sum of several lands
// (which no solver writes) is skipped with a note; two entries for one
// position with different values are an *Inconsistency.
func NewDatabase(entries []format.SPREntry) (*Database, error) {
	d := &Database{entries: make(map[string]*dbEntry, len(entries))}
	firsts := map[string]format.SPREntry{}
	for _, e := range entries {
		p, err := sprouts.Parse(e.Position)
		if err != nil {
			return nil, &format.LineError{Line: e.Line, Text: e.Position, Reason: err.Error()}
		}
		if p.NumLands() != 1 {
			d.Notes = append(d.Notes, fmt.Sprintf("line %d: %s is %d lands; skipped", e.Line, e.Position, p.NumLands()))
			continue
		}
		if old, ok := d.entries[p.Key()]; ok {
			if old.g != e.Grundy {
				return nil, &Inconsistency{Position: p.String(), First: firsts[p.Key()], Second: e, FirstValue: old.g}
			}
			continue
		}
		firsts[p.Key()] = e
		d.entries[p.Key()] = &dbEntry{pos: p, g: e.Grundy, line: e.Line, text: e.Position}
	}
	return d, nil
}

// FromValues makes a database of canonical keys (sprouts.Position.Key) and
// Grundy values, as a solver holds them.
func FromValues(each func(yield func(key string, g uint32) bool)) (*Database, error) {
	d := &Database{entries: map[string]*dbEntry{}}
	var bad error
	each(func(key string, g uint32) bool {
		p, err := sprouts.FromKey(key)
		if err != nil {
			bad = err
			return false
		}
		d.entries[key] = &dbEntry{pos: p, g: g}
		return true
	})
	return d, bad
}

// Len returns the number of entries.
func (d *Database) Len() int { return len(d.entries) }

// Proof is the outcome of checking a claim against a database: the entries
// the check relied on, with the witnesses it chose.
type Proof struct {
	Claim   format.Claim
	Checked int // entries checked (valid or not)
	db      *Database
	root    sprouts.Position
	used    []format.Entry // copied: a later Check on the database resets its entries
}

// Check decides the claim with the database by a memoised search (the rules
// are those of docs/certificate-format.md: every smaller value reached,
// every child shown not to have the entry's value by its own value or by
// one reply), choosing witnesses whose entries are already known to be
// valid where it can. It returns a *Failure (wrapping
// ErrInvalidCertificate) when the database does not prove the claim, and a
// *LimitError (wrapping ErrLimit) when the claim's root, or a position the
// search must expand, is over opt.Limits: each position is measured before
// its children are generated (the limit on work holds for each generation;
// the search as a whole is bounded by the size of the database).
func (d *Database) Check(claim format.Claim, opt Options) (*Proof, error) {
	root, err := claimRoot(claim, opt.Limits.resolved())
	if err != nil {
		return nil, err
	}
	s := &search{db: d, opt: opt, moves: newLandMoves(opt.Limits, false)}
	for _, e := range d.entries {
		e.state, e.reach, e.win, e.deps, e.why = unseen, nil, nil, nil, ""
	}
	known := values{}
	lands := root.Lands()
	for _, land := range lands {
		if e := d.entries[land.Key()]; e != nil && s.valid(e) {
			known[land.Key()] = e.g
		}
	}
	if claim.Kind == format.ClaimWin {
		// A winning move's target must be checked too.
		if x, ok := known.of(root); !ok || x == claim.N {
			for _, child := range root.Children() {
				if x, ok := s.value(child, true); ok && x == claim.N {
					s.addKnown(child, known)
					break
				}
			}
		}
	}
	if s.refused != nil {
		return nil, s.refused
	}
	if s.cycle != "" {
		return nil, &Failure{Position: s.cycle, Rule: "cycle", Detail: "a position was met again while checking it: the rules' moves do not reduce lives"}
	}
	if err := checkClaim(claim, root, known); err != nil {
		if f, ok := err.(*Failure); ok && s.firstBad != nil {
			f.Detail += fmt.Sprintf(" (first invalid entry met: line %d, %s: %s)", s.firstBad.line, s.firstBad.text, s.firstBad.why)
		}
		return nil, err
	}
	p := &Proof{Claim: claim, Checked: s.checked, db: d, root: root}
	p.collect(known)
	return p, nil
}

type search struct {
	db       *Database
	moves    landMoves
	opt      Options
	checked  int
	cycle    string
	firstBad *dbEntry
	refused  error // the first *LimitError met; the search then stops
}

// refuse records the first position refused by a limit, met while
// checking the entry e: e itself, or with ofChild a land of one of its
// children.
func (s *search) refuse(e *dbEntry, err error, ofChild bool) {
	if s.refused != nil {
		return
	}
	if le, ok := err.(*LimitError); ok {
		le.Row = e.line
		if ofChild {
			le.Entry = cutText(e.text)
		}
	}
	s.refused = err
}

// value returns the xor of the values of p's lands if all are entries. With
// check it also requires every one of them to be valid (checking it if need
// be); without, it is a cheap look at the database.
func (s *search) value(p sprouts.Position, check bool) (uint32, bool) {
	x := uint32(0)
	lands := p.Lands()
	for _, land := range lands {
		e := s.db.entries[land.Key()]
		if e == nil || e.state == invalid {
			return 0, false
		}
		x ^= e.g
	}
	if check {
		for _, land := range lands {
			if !s.valid(s.db.entries[land.Key()]) {
				return 0, false
			}
		}
	}
	return x, true
}

// validated reports whether all of p's lands are entries already found
// valid.
func (s *search) validated(p sprouts.Position) bool {
	for _, land := range p.Lands() {
		if e := s.db.entries[land.Key()]; e == nil || e.state != valid {
			return false
		}
	}
	return true
}

func (s *search) addKnown(p sprouts.Position, known values) {
	for _, land := range p.Lands() {
		known[land.Key()] = s.db.entries[land.Key()].g
	}
}

// valid checks an entry by the entry rule, memoised.
func (s *search) valid(e *dbEntry) bool {
	switch e.state {
	case valid:
		return true
	case invalid:
		return false
	case checking:
		if s.cycle == "" {
			s.cycle = e.pos.String()
		}
		return false
	}
	if s.refused != nil {
		return false
	}
	e.state = checking
	s.checked++
	if s.opt.Progress != nil && s.checked%1000 == 0 {
		s.opt.Progress(s.checked, len(s.db.entries))
	}
	kids, err := s.moves.of(e.pos)
	if err != nil {
		s.refuse(e, err, false)
		e.state = unseen
		return false
	}
	e.reach = make([]uint32, e.g)
	for m := range e.g {
		i := s.find(kids, m)
		if s.refused != nil {
			e.state = unseen
			return false
		}
		if i < 0 {
			return s.reject(e, fmt.Sprintf("no child reaches the value %d", m))
		}
		e.reach[m] = uint32(i)
		e.deps = append(e.deps, kids[i])
	}
	e.win = make([]int32, len(kids))
	for i, child := range kids {
		w, reply, ok := s.winning(e, child, e.g)
		if s.refused != nil {
			e.state = unseen
			return false
		}
		if !ok {
			return s.reject(e, fmt.Sprintf("the child %s may have the value %d: no reply shows otherwise", child, e.g))
		}
		e.win[i] = w
		e.deps = append(e.deps, reply)
	}
	e.state = valid
	return true
}

func (s *search) reject(e *dbEntry, why string) bool {
	e.state, e.reach, e.win, e.deps, e.why = invalid, nil, nil, nil, why
	if s.firstBad == nil {
		s.firstBad = e
	}
	return false
}

// find returns the index of a child whose lands are valid entries xoring to
// m, preferring children whose entries are already checked; -1 if none.
func (s *search) find(kids []sprouts.Position, m uint32) int {
	for pass := 0; pass < 2; pass++ {
		for i, child := range kids {
			if x, ok := s.value(child, false); !ok || x != m {
				continue
			}
			if pass == 0 && !s.validated(child) {
				continue
			}
			if _, ok := s.value(child, true); ok {
				return i
			}
		}
	}
	return -1
}

// winning finds a witness that child + *g is won: -1 if the child's own
// lands are valid entries xoring to something else, else a reply (a move in
// one land of the child, see format.WinReply) reaching a position whose
// lands are valid entries xoring to g. It also returns the position the
// witness rests on (the child or the reply).
func (s *search) winning(e *dbEntry, child sprouts.Position, g uint32) (int32, sprouts.Position, bool) {
	if x, ok := s.value(child, false); ok && x != g {
		if _, ok := s.value(child, true); ok {
			return -1, child, true
		}
	}
	lands := child.Lands()
	for pass := 0; pass < 2; pass++ {
		for ci, land := range lands {
			others := slices.Delete(slices.Clone(lands), ci, ci+1)
			rest, ok := s.value(sprouts.Sum(others...), false)
			if !ok || pass == 0 && !s.validated(sprouts.Sum(others...)) {
				continue
			}
			replies, err := s.moves.of(land)
			if err != nil {
				s.refuse(e, err, true)
				return 0, sprouts.Position{}, false
			}
			for j, r := range replies {
				if x, ok := s.value(r, false); !ok || x^rest != g {
					continue
				}
				if pass == 0 && !s.validated(r) {
					continue
				}
				reply := sprouts.Sum(append(others, r)...)
				if _, ok := s.value(reply, true); !ok {
					continue
				}
				w, ok := format.WinReply(ci, j)
				if !ok {
					continue
				}
				return w, reply, true
			}
		}
	}
	return 0, sprouts.Position{}, false
}

// collect gathers the entries the proof relies on: the root's, and those
// their witnesses name, transitively.
func (p *Proof) collect(root values) {
	seen := map[*dbEntry]bool{}
	var stack []*dbEntry
	push := func(pos sprouts.Position) {
		for _, land := range pos.Lands() {
			if e := p.db.entries[land.Key()]; !seen[e] {
				seen[e] = true
				stack = append(stack, e)
			}
		}
	}
	for key := range root {
		if e := p.db.entries[key]; !seen[e] {
			seen[e] = true
			stack = append(stack, e)
		}
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p.used = append(p.used, format.Entry{Position: e.pos.String(), Grundy: e.g, Reach: e.reach, Win: e.win})
		for _, d := range e.deps {
			push(d)
		}
	}
}

// Entries returns the number of entries the proof relies on.
func (p *Proof) Entries() int { return len(p.used) }

// Certificate returns the proof as a hinted, trimmed certificate: only the
// entries it relies on, in increasing order of lives and then text, each
// with its witnesses.
func (p *Proof) Certificate(producer, version string) *format.Certificate {
	lives := make(map[string]int, len(p.used))
	for _, e := range p.used {
		lives[e.Position] = sprouts.MustParse(e.Position).Lives()
	}
	entries := slices.Clone(p.used)
	slices.SortFunc(entries, func(a, b format.Entry) int {
		if d := cmp.Compare(lives[a.Position], lives[b.Position]); d != 0 {
			return d
		}
		return strings.Compare(a.Position, b.Position)
	})
	return &format.Certificate{Claim: p.Claim, Game: sprouts.Game, Notation: sprouts.Notation,
		Producer: producer, Version: version, Entries: entries}
}
