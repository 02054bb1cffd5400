package verify

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
)

// Database is a nimber database without hints (GLOP/SPOTS text, or a
// solver's), re-keyed under the canonical form of its game: entries
// written differently for the same position become one.
type Database struct {
	impl  database // the entries, in the positions of the game
	Notes []string // entries that were skipped, and why
}

// database is the part of a Database that depends on the game.
type database interface {
	check(claim format.Claim, opt Options) (*Proof, error)
	lemmas(root string, maxEntries int, opt Options) (*Proof, LemmaStats, error)
	cite(key string, g uint32)
	len() int
	invalid() []string
}

// gameDB holds the entries of a Database for the game of g.
type gameDB[P any] struct {
	g       rules[P]
	entries map[string]*dbEntry[P]
}

type dbEntry[P any] struct {
	pos   P
	g     uint32
	line  int    // where it was read (0 when not read from a file)
	text  string // as written
	state uint8
	reach []uint32
	win   []int32
	deps  []P    // the positions the witnesses name
	why   string // why the entry is invalid
	cited bool   // proved by a certificate the caller cites (Database.Cite): valid, no witnesses
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

// NewDatabase re-keys the entries of a text database of Sprouts positions.
// A position that does not parse is an error naming its line; an entry for
// a sum of several lands (which no solver writes) is skipped with a note;
// two entries for one position with different values are an
// *Inconsistency.
func NewDatabase(entries []format.SPREntry) (*Database, error) {
	return newDatabase(mustRules(sprouts.Game), entries)
}

// NewDatabaseOf is NewDatabase for the positions of game (one of Games()).
func NewDatabaseOf(game string, entries []format.SPREntry) (*Database, error) {
	g, ok := rulesOf(game)
	if !ok {
		return nil, fmt.Errorf("unknown game %q (this checker knows %q)", game, Games())
	}
	return newDatabase(g, entries)
}

func newDatabase[P any](g rules[P], entries []format.SPREntry) (*Database, error) {
	b := newBuilder(g, len(entries), nil)
	for _, e := range entries {
		if err := b.add(e); err != nil {
			return nil, err
		}
	}
	return b.d, nil
}

// ReadDatabase reads a text database of Sprouts positions from r and
// re-keys it as NewDatabase does, entry by entry: each position is parsed
// and measured against opt.Limits as it is read (zero fields: the
// defaults), and the first one over a limit ends the read with a
// *LimitError naming its line. An entry the claim will never need is
// refused as one it needs would be, and the file is never held whole: the
// memory is that of the entries kept (RELIABILITY.md gives the cost per
// byte of input).
func ReadDatabase(r io.Reader, spr format.SPROptions, opt Options) (*Database, error) {
	l := opt.Limits.resolved()
	b := newBuilder(mustRules(sprouts.Game), 0, &l)
	if err := format.NewSPRReader(r, spr).Each(b.add); err != nil {
		return nil, err
	}
	return b.d, nil
}

// builder makes a Database of text entries, one at a time.
type builder[P any] struct {
	g      rules[P]
	gd     *gameDB[P]
	d      *Database
	limits *Limits // resolved; nil: entries are measured only when checked
	read   int     // entries read, for limits.Entries
}

func newBuilder[P any](g rules[P], size int, limits *Limits) *builder[P] {
	gd := &gameDB[P]{g: g, entries: make(map[string]*dbEntry[P], size)}
	return &builder[P]{g: g, gd: gd, d: &Database{impl: gd}, limits: limits}
}

// add parses, measures (with limits) and keys one entry. A position that
// does not parse is a *format.LineError, one over a limit a *LimitError, a
// second value for a position an *Inconsistency; a sum of several lands is
// skipped with a note.
func (b *builder[P]) add(e format.SPREntry) error {
	g := b.g
	p, err := g.parse(e.Position)
	if err != nil {
		return &format.LineError{Line: e.Line, Text: e.Position, Reason: err.Error()}
	}
	if b.limits != nil {
		if b.read++; b.read > b.limits.Entries {
			return &LimitError{Row: e.Line, Limit: "entries", Value: int64(b.read), Max: int64(b.limits.Entries)}
		}
		if le := b.limits.check(g.measure(p)); le != nil {
			le.Row, le.Position = e.Line, cutText(e.Position)
			return le
		}
	}
	if !g.atomic(p) {
		b.d.Notes = append(b.d.Notes, fmt.Sprintf("line %d: %s is %d lands; skipped", e.Line, e.Position, len(g.components(p))))
		return nil
	}
	k := g.key(p)
	if old, ok := b.gd.entries[k]; ok {
		if old.g != e.Grundy {
			first := format.SPREntry{Position: old.text, Grundy: old.g, Line: old.line}
			return &Inconsistency{Position: g.text(p), First: first, Second: e, FirstValue: old.g}
		}
		return nil
	}
	b.gd.entries[k] = &dbEntry[P]{pos: p, g: e.Grundy, line: e.Line, text: e.Position}
	return nil
}

// FromValues makes a database of canonical keys (sprouts.Position.Key) and
// Grundy values, as a solver holds them.
func FromValues(each func(yield func(key string, g uint32) bool)) (*Database, error) {
	return fromValues(mustRules(sprouts.Game), each)
}

// FromValuesOf is FromValues for the keys of game (one of Games()), as
// its Key writes them.
func FromValuesOf(game string, each func(yield func(key string, g uint32) bool)) (*Database, error) {
	g, ok := rulesOf(game)
	if !ok {
		return nil, fmt.Errorf("unknown game %q (this checker knows %q)", game, Games())
	}
	return fromValues(g, each)
}

func fromValues[P any](g rules[P], each func(yield func(key string, g uint32) bool)) (*Database, error) {
	gd := &gameDB[P]{g: g, entries: map[string]*dbEntry[P]{}}
	var bad error
	each(func(key string, v uint32) bool {
		p, err := g.fromKey(key)
		if err != nil {
			bad = err
			return false
		}
		gd.entries[key] = &dbEntry[P]{pos: p, g: v}
		return true
	})
	return &Database{impl: gd}, bad
}

// Cite takes gn(Q) = g, for the position Q of key (as FromValuesOf's),
// as proved by a certificate: Check takes it as valid without deriving
// it, and a proof that relies on it does not hold the entry: its key is
// among Proof.CitedKeys, which the certificate the proof is written into
// must cite certificates holding (the caller chooses which, and sets
// format.Certificate.Cites). The value replaces the
// database's own for Q, if it has another: a certificate's value is
// checked before the proof is believed (the proof's certificate cites it,
// and the check of a citing certificate checks what it cites), and the
// database's value may be a mistake. The key is the caller's: a position
// of the game, as the checker never parses it.
func (d *Database) Cite(key string, g uint32) {
	d.impl.cite(key, g)
}

func (d *gameDB[P]) cite(key string, g uint32) {
	if e, ok := d.entries[key]; ok {
		e.g, e.cited = g, true
		return
	}
	// A cited entry is never expanded nor written, so its position is
	// never needed: only its key and value are looked up.
	d.entries[key] = &dbEntry[P]{g: g, cited: true}
}

// Len returns the number of entries.
func (d *Database) Len() int { return d.impl.len() }

func (d *gameDB[P]) len() int { return len(d.entries) }

// Invalid returns the keys of the entries that the last Check found
// invalid, sorted: each is wrong, or not derivable from the other entries
// by the rules (an entry it needs is missing or invalid itself). A Check
// that succeeds may also have met some, and passed them by.
func (d *Database) Invalid() []string { return d.impl.invalid() }

func (d *gameDB[P]) invalid() []string {
	var out []string
	for k, e := range d.entries {
		if e.state == invalid {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Proof is the outcome of checking a claim against a database: the entries
// the check relied on, with the witnesses it chose.
type Proof struct {
	Claim     format.Claim
	Checked   int // entries checked (valid or not)
	game      string
	notation  string
	used      []format.Entry // copied: a later Check on the database resets its entries
	sizes     map[string]int // the size (lives, cells) of each used entry's position, by text
	citedKeys []string       // the keys of those entries, sorted
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
	return d.impl.check(claim, opt)
}

func (d *gameDB[P]) check(claim format.Claim, opt Options) (*Proof, error) {
	g := d.g
	if claim.Kind == format.ClaimLemmas {
		return nil, fmt.Errorf("%s: a claim of lemmas is what a certificate's rows prove; a database is checked against a claim about its root (POS=W, POS=L, gn(POS)=N)", claim)
	}
	root, err := claimRoot(g, claim, opt.Limits.resolved())
	if err != nil {
		return nil, err
	}
	s := &search[P]{g: g, db: d, opt: opt, moves: newLandMoves(g, opt.Limits, false)}
	if w := opt.workers(); w > 1 {
		s.moves.ahead = startAhead(g, opt.Limits.resolved(), w-1)
		defer s.moves.ahead.stop()
	}
	for _, e := range d.entries {
		e.state, e.reach, e.win, e.deps, e.why = unseen, nil, nil, nil, ""
		if e.cited {
			e.state = valid
		}
	}
	known := values{}
	for _, land := range g.components(root) {
		if e := d.entries[g.key(land)]; e != nil && s.valid(e) {
			known[g.key(land)] = e.g
		}
	}
	if claim.Kind == format.ClaimWin {
		// A winning move's target must be checked too.
		if x, ok := valueOf(g, known, root); !ok || x == claim.N {
			for _, child := range rootChildren(g, root) {
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
	if err := checkClaim(g, claim, root, known); err != nil {
		if f, ok := err.(*Failure); ok && s.firstBad != nil {
			f.Detail += fmt.Sprintf(" (first invalid entry met: %s: %s)", s.where(s.firstBad), s.firstBad.why)
		}
		return nil, err
	}
	p := &Proof{Claim: claim, Checked: s.checked, game: g.game(), notation: g.notation(), sizes: map[string]int{}}
	collect(d, p, known)
	return p, nil
}

type search[P any] struct {
	g        rules[P]
	db       *gameDB[P]
	moves    landMoves[P]
	opt      Options
	checked  int
	cycle    string
	firstBad *dbEntry[P]
	refused  error // the first *LimitError met; the search then stops
}

// refuse records the first position refused by a limit, met while
// checking the entry e: e itself, or with ofChild a land of one of its
// children.
func (s *search[P]) refuse(e *dbEntry[P], err error, ofChild bool) {
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
func (s *search[P]) value(p P, check bool) (uint32, bool) {
	x := uint32(0)
	lands := s.g.components(p)
	for _, land := range lands {
		e := s.db.entries[s.g.key(land)]
		if e == nil || e.state == invalid {
			return 0, false
		}
		x ^= e.g
	}
	if check {
		for _, land := range lands {
			if !s.valid(s.db.entries[s.g.key(land)]) {
				return 0, false
			}
		}
	}
	return x, true
}

// validated reports whether all of p's lands are entries already found
// valid.
func (s *search[P]) validated(p P) bool {
	for _, land := range s.g.components(p) {
		if e := s.db.entries[s.g.key(land)]; e == nil || e.state != valid {
			return false
		}
	}
	return true
}

func (s *search[P]) addKnown(p P, known values) {
	for _, land := range s.g.components(p) {
		known[s.g.key(land)] = s.db.entries[s.g.key(land)].g
	}
}

// valid checks an entry by the entry rule, memoised.
func (s *search[P]) valid(e *dbEntry[P]) bool {
	switch e.state {
	case valid:
		return true
	case invalid:
		return false
	case checking:
		if s.cycle == "" {
			s.cycle = s.g.text(e.pos)
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
	s.moves.ahead.want(kids)
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
			return s.reject(e, fmt.Sprintf("the child %s may have the value %d: no reply shows otherwise", s.g.text(child), e.g))
		}
		e.win[i] = w
		e.deps = append(e.deps, reply)
	}
	e.state = valid
	return true
}

// where names an entry: its line and text as read from a file, or its
// position when it came from a solver's values.
func (s *search[P]) where(e *dbEntry[P]) string {
	if e.line > 0 {
		return fmt.Sprintf("line %d, %s", e.line, e.text)
	}
	return fmt.Sprintf("gn(%s)=%d", s.g.text(e.pos), e.g)
}

func (s *search[P]) reject(e *dbEntry[P], why string) bool {
	e.state, e.reach, e.win, e.deps, e.why = invalid, nil, nil, nil, why
	if s.firstBad == nil {
		s.firstBad = e
	}
	return false
}

// find returns the index of a child whose lands are valid entries xoring to
// m, preferring children whose entries are already checked; -1 if none.
func (s *search[P]) find(kids []P, m uint32) int {
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
func (s *search[P]) winning(e *dbEntry[P], child P, g uint32) (int32, P, bool) {
	var none P
	if x, ok := s.value(child, false); ok && x != g {
		if _, ok := s.value(child, true); ok {
			return -1, child, true
		}
	}
	lands := s.g.components(child)
	for pass := 0; pass < 2; pass++ {
		for ci, land := range lands {
			others := slices.Delete(slices.Clone(lands), ci, ci+1)
			rest, ok := s.value(s.g.sum(others), false)
			if !ok || pass == 0 && !s.validated(s.g.sum(others)) {
				continue
			}
			replies, err := s.moves.of(land)
			if err != nil {
				s.refuse(e, err, true)
				return 0, none, false
			}
			for j, r := range replies {
				if x, ok := s.value(r, false); !ok || x^rest != g {
					continue
				}
				if pass == 0 && !s.validated(r) {
					continue
				}
				reply := s.g.sum(append(slices.Clone(others), r))
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
	return 0, none, false
}

// collect gathers into p the entries the proof relies on: the root's, and
// those their witnesses name, transitively.
func collect[P any](d *gameDB[P], p *Proof, root values) {
	c := newCollector(d, p)
	for key := range root {
		c.add(key)
	}
	c.drain()
	c.done()
}

// collector gathers the entries a proof relies on, from the keys it is
// given, following their witnesses; each entry once.
type collector[P any] struct {
	d     *gameDB[P]
	p     *Proof
	seen  map[*dbEntry[P]]bool
	stack []*dbEntry[P]
}

func newCollector[P any](d *gameDB[P], p *Proof) *collector[P] {
	return &collector[P]{d: d, p: p, seen: map[*dbEntry[P]]bool{}}
}

// add takes the entry of key into the proof (a cited one into its cited
// keys), to be followed by drain.
func (c *collector[P]) add(key string) {
	e := c.d.entries[key]
	if c.seen[e] {
		return
	}
	c.seen[e] = true
	if e.cited {
		c.p.citedKeys = append(c.p.citedKeys, key)
		return
	}
	c.stack = append(c.stack, e)
}

// drain follows the witnesses of the entries added, transitively.
func (c *collector[P]) drain() {
	g := c.d.g
	for len(c.stack) > 0 {
		e := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		text := g.text(e.pos)
		c.p.used = append(c.p.used, format.Entry{Position: text, Grundy: e.g, Reach: e.reach, Win: e.win})
		c.p.sizes[text] = g.size(e.pos)
		for _, dep := range e.deps {
			for _, land := range g.components(dep) {
				c.add(g.key(land))
			}
		}
	}
}

// done sorts the cited keys.
func (c *collector[P]) done() { slices.Sort(c.p.citedKeys) }

// Entries returns the number of entries the proof relies on, besides
// those of the certificates it cites.
func (p *Proof) Entries() int { return len(p.used) }

// CitedKeys returns the keys (as given to Database.Cite) of the cited
// entries the proof relies on, sorted: what any certificate the proof
// cites instead must hold between them.
func (p *Proof) CitedKeys() []string { return p.citedKeys }

// Certificate returns the proof as a hinted, trimmed certificate of the
// database's game: the entries it relies on but the cited ones (see
// Database.Cite), in increasing order of size (the game's Size, lives in
// Sprouts) and then text, each with its witnesses. It cites
// nothing: a caller whose proof relies on cited entries (CitedKeys) sets
// the certificate's Cites to certificates that hold them.
func (p *Proof) Certificate(producer, version string) *format.Certificate {
	entries := slices.Clone(p.used)
	slices.SortFunc(entries, func(a, b format.Entry) int {
		if d := cmp.Compare(p.sizes[a.Position], p.sizes[b.Position]); d != 0 {
			return d
		}
		return strings.Compare(a.Position, b.Position)
	})
	return &format.Certificate{Claim: p.Claim, Game: p.game, Notation: p.notation,
		Producer: producer, Version: version, Entries: entries}
}
