package verify

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
)

// Result describes a certificate that was checked.
type Result struct {
	Claim   format.Claim
	Address string // the content address recomputed from the entries
	Entries int
	// Cites is the number of certificates it cites
	// (format.Certificate.Cites), and Cited the number it relies on,
	// directly or through others: each was checked and found valid
	// (Library.Closure names them).
	Cites int
	Cited int
	// With Options.Used, Read is the number of entries of the cited
	// certificates taken unchecked, and Used the number of them the claim
	// relies on, each checked; the others were not.
	Read int
	Used int
	// Remembered says the result is a verdict this build reached before
	// (Options.Verdicts), not a check made now.
	Remembered bool
}

// Options controls a check.
type Options struct {
	// Progress, if set, is called about every 1,000 entries with the number
	// checked and the number in all (0 when unknown).
	Progress func(done, total int)
	// Limits bounds what one entry or the claim may cost; the zero value
	// means DefaultLimits. A position over them is refused with a
	// *LimitError (wrapping ErrLimit) before its children are generated.
	Limits Limits
	// Workers is the number of goroutines that, in unhinted checking (Check:
	// the search itself and Workers-1 that make children ahead of it) and in
	// hinted checking (File,
	// Stream, CertificateWith), generate the children of the rows ahead of
	// the in-order check (see pipeline.go); 0 means runtime.GOMAXPROCS(0).
	// With 1 (or GOMAXPROCS 1) everything is done in the calling
	// goroutine. The result, the error and the row it names are the same
	// for every value. The independent check (Independent) checks the
	// entries of one round of lives on as many goroutines.
	Workers int
	// Independent checks Sprouts certificates (File, Stream,
	// CertificateWith) with package sprouts2, the second implementation
	// of the rules, instead of package sprouts, and without the hints
	// (they index children in package sprouts' order): it searches for
	// the witnesses, one or two moves deep, as Database.Check does (see
	// independent.go; CheckIndependent does the same for databases). A
	// certificate of another game gives an error wrapping
	// ErrUnsupported.
	Independent bool
	// Library finds and checks the certificates that a certificate cites
	// (see cites.go), each once; File also looks beside the file it
	// checks. Without a library, File makes one that looks beside the
	// file alone, and Stream and CertificateWith reject a certificate
	// that cites others.
	Library *Library
	// Used checks, of the certificates cited, only the entries the claim
	// relies on: those its rows and its claim look up, those their checks
	// look up, and so on (see demand.go). A cited certificate is then
	// vouched for only as far as it is used (Result.Used). The certificate
	// checked is checked whole; so is every cited certificate without
	// Used. With Independent the entries used are those its search for
	// witnesses looks up (see independent_used.go).
	Used bool
	// Verdicts, if set, answers for a certificate that this checker
	// build found valid before, by a check of the same kind, without
	// checking it again, and remembers each it finds valid (see
	// verdicts.go). A cited certificate is taken whole when any check
	// of its kind's rules checked every row of it.
	Verdicts *Verdicts
	// UsedProgress, if set, is called as the entries of cited
	// certificates that the claim uses are checked (Used), with the
	// number checked and the number found to check so far (0 and 0
	// while the cited certificates are read). It is called from one
	// goroutine at a time.
	UsedProgress func(checked, found int)
	// CitedProgress, if set, is called before each certificate cited,
	// directly or not, is checked (or read, with Used): the k-th of the
	// n the check found it relies on (k = 0 once they are done).
	// Progress then counts its entries.
	CitedProgress func(k, n int, address string)

	here   string    // the directory of the file being checked ("" if none)
	nested bool      // a check the library makes of a certificate cited
	rows   *[]Value  // if set, the check appends the rows it reads
	cites  *[]string // if set, the check sets it to the certificate's citations
	// cached is the game of a check, with its cache of children, carried
	// to the checks of what it cites (rulesFor).
	cached game.Game
}

// workers returns the number of pipeline workers to use; 1 or less means
// none (check in the calling goroutine).
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// File checks the certificate at path in one streaming pass. An invalid
// certificate (a broken rule, a corrupted file, a claim it does not prove,
// an address that does not match) gives an error wrapping
// ErrInvalidCertificate, usually a *Failure naming the first bad row; a
// claim or row whose positions are over opt.Limits gives a *LimitError
// (wrapping ErrLimit, not ErrInvalidCertificate), found before the
// children of the position are generated; an unreadable file gives
// another error.
//
// A certificate that cites others is valid only if each of them is, found
// beside the file or in opt.Library's directories (a *CitationError names
// the first that is not); every certificate a library has checked is
// checked once.
func File(path string, opt Options) (Result, error) {
	name, named := strings.CutSuffix(filepath.Base(path), ".arrow")
	named = named && format.IsAddress(name)
	if opt.here == "" {
		opt.here = filepath.Dir(path)
	}
	// A library of the caller's remembers the file, rows and all, for
	// what may cite it later in the run, and answers at once for a file
	// whose bytes hash to a certificate it found valid; one made here
	// serves this check alone.
	given := !opt.nested && opt.Library != nil
	if opt.Library == nil {
		opt.Library = NewLibrary()
	} else if given && named {
		if res, ok := opt.Library.same(path, name); ok {
			return res, nil
		}
	}
	if !opt.nested && named {
		// The verdict is about the proof the address names, cited
		// certificates included: it answers when their files are at hand.
		if res, cert, ok := opt.verdicts().known(path, name, opt.kind()); ok && opt.Library.atHand(cert.Cites, opt.here, opt.Limits.resolved().Cites) {
			if given {
				opt.Library.remember(path, res, cert.Cites, valuesOf(cert.Entries), nil)
			}
			return res, nil
		}
	}
	var rows []Value
	var cites []string
	if given {
		opt.rows, opt.cites = &rows, &cites
	}
	res, err := file(path, name, named, opt)
	if given {
		opt.Library.remember(path, res, cites, rows, err)
	}
	if err == nil && !opt.nested {
		opt.verdicts().record(opt.kind(), res)
	}
	return res, err
}

func file(path, name string, named bool, opt Options) (Result, error) {
	r, err := format.OpenCertificate(path)
	if err != nil {
		return Result{}, fileError(err)
	}
	defer r.Close()
	res, err := Stream(r, opt)
	if err != nil {
		return res, err
	}
	if named && name != res.Address {
		return res, &Failure{Rule: "address", Detail: fmt.Sprintf("the file is named %s.arrow but its content address is %s", name, res.Address)}
	}
	return res, nil
}

// fileError sorts a decoding error: a corrupt file is an invalid
// certificate; anything else (a missing file, a file that is no
// certificate at all) is returned as it is.
func fileError(err error) error {
	if errors.Is(err, format.ErrCorrupt) && !errors.Is(err, format.ErrNotCertificate) {
		return fmt.Errorf("%w: %w", ErrInvalidCertificate, err)
	}
	return err
}

// Stream checks a certificate read row by row, with the errors of File. The
// certificate's header names its game (one of Games()) and the notation of
// its positions and hints; the entries are checked by that game's rules.
func Stream(r *format.CertReader, opt Options) (Result, error) {
	if opt.Independent {
		return independentStream(r, opt)
	}
	h := r.Header()
	g, ok := opt.rulesFor(h.Game)
	if !ok {
		return Result{Claim: h.Claim}, unknownGame(h.Game)
	}
	return stream(g, r, opt)
}

// unknownGame is the failure of a header naming a game the checker does
// not know.
func unknownGame(game string) error {
	return &Failure{Rule: "header", Detail: fmt.Sprintf("the certificate is for the game %q; this checker knows %q", game, Games())}
}

// headerFailure checks that notation is the one of g's rules.
func headerFailure[P any](g rules[P], notation string) error {
	if notation != g.notation() {
		return &Failure{Rule: "header", Detail: fmt.Sprintf("the certificate's hints use the notation %q; this checker knows %q for %s", notation, g.notation(), g.game())}
	}
	return nil
}

// stream is Stream for the game of g.
func stream[P any](g rules[P], r *format.CertReader, opt Options) (Result, error) {
	h := r.Header()
	res := Result{Claim: h.Claim}
	if err := headerFailure(g, h.Notation); err != nil {
		return res, err
	}
	root, err := claimRoot(g, h.Claim, opt.Limits.resolved())
	if err != nil {
		return res, err
	}
	c := newHinted(g, opt.Limits)
	if err := c.cite(&res, h.Cites, opt); err != nil {
		return res, err
	}
	next := collecting(opt.rows, func() (int, format.Entry, error) {
		e, err := r.Next()
		if err != nil && err != io.EOF {
			err = fileError(err)
		}
		return r.Row(), e, err
	})
	err = c.all(opt.workers(), next, func() {
		res.Entries++
		if opt.Progress != nil && res.Entries%1000 == 0 {
			opt.Progress(res.Entries, int(min(r.DeclaredEntries(), math.MaxInt32)))
		}
	})
	if err != nil {
		return res, err
	}
	addr, err := r.Address()
	if err != nil {
		return res, fileError(err)
	}
	res.Address = addr
	if declared := r.DeclaredAddress(); declared != addr {
		return res, &Failure{Rule: "address", Detail: fmt.Sprintf("the file declares the address %s but its content hashes to %s", declared, addr)}
	}
	if err := checkClaim(g, h.Claim, root, c); err != nil {
		return res, err
	}
	return res, c.drain(&res, opt.workers(), opt.UsedProgress)
}

// Certificate checks a certificate held in memory, as File does a file,
// within DefaultLimits.
func Certificate(cert *format.Certificate) (Result, error) {
	return CertificateWith(cert, Options{})
}

// CertificateWith is Certificate with options (limits; Progress is called
// as in Stream).
func CertificateWith(cert *format.Certificate, opt Options) (Result, error) {
	if opt.Independent {
		return independentCertificateWith(cert, opt)
	}
	g, ok := opt.rulesFor(cert.Game)
	if !ok {
		return Result{Claim: cert.Claim, Address: cert.Address()}, unknownGame(cert.Game)
	}
	return certificateWith(g, cert, opt)
}

// certificateWith is CertificateWith for the game of g.
func certificateWith[P any](g rules[P], cert *format.Certificate, opt Options) (Result, error) {
	res := Result{Claim: cert.Claim, Address: cert.Address()}
	if err := headerFailure(g, cert.Notation); err != nil {
		return res, err
	}
	root, err := claimRoot(g, cert.Claim, opt.Limits.resolved())
	if err != nil {
		return res, err
	}
	c := newHinted(g, opt.Limits)
	if err := c.cite(&res, cert.Cites, opt); err != nil {
		return res, err
	}
	next := collecting(opt.rows, entriesOf(cert))
	err = c.all(opt.workers(), next, func() {
		res.Entries++
		if opt.Progress != nil && res.Entries%1000 == 0 {
			opt.Progress(res.Entries, len(cert.Entries))
		}
	})
	if err != nil {
		return res, err
	}
	if err := checkClaim(g, cert.Claim, root, c); err != nil {
		return res, err
	}
	return res, c.drain(&res, opt.workers(), opt.UsedProgress)
}

// hinted checks entries one at a time, each against those before it.
type hinted[P any] struct {
	g        rules[P]
	known    values
	pending  map[string]pendingRow // cited entries not checked, by key (Options.Used)
	queue    []pendingRow          // those used, to be checked
	record   *[]string             // in a worker of drain: the pending keys used
	moves    landMoves[P]
	prev     string // text of the previous entry
	prevLife int    // its size (lives in Sprouts)
}

func newHinted[P any](g rules[P], l Limits) *hinted[P] {
	return &hinted[P]{g: g, known: values{}, moves: newLandMoves(g, l, true)}
}

// cite checks the certificates that cites names (with opt.Library) and
// takes their entries as known, as rows before the first; res gets the
// citations.
func (c *hinted[P]) cite(res *Result, cites []string, opt Options) error {
	given, err := citedFor(res, cites, opt)
	if err != nil {
		return err
	}
	if err := c.trust(given); err != nil {
		return err
	}
	if !opt.demand() || len(cites) == 0 || opt.Library == nil {
		return nil
	}
	trusted, pending := opt.Library.citedRows(cites, false)
	if err := c.trust(trusted); err != nil {
		return err
	}
	res.Read = len(pending)
	return c.citePending(pending)
}

// trust takes the values of checked certificates as known, as rows
// before the first: two that give one land different values are a
// *Failure.
func (c *hinted[P]) trust(values []Value) error {
	for _, v := range values {
		p, err := c.g.parse(v.Position)
		if err != nil {
			return &Failure{Position: v.Position, Rule: "citation", Detail: fmt.Sprintf("an entry of a cited certificate does not parse: %v", err)}
		}
		k := c.g.key(p)
		if old, ok := c.known[k]; ok && old != v.Grundy {
			return &Failure{Position: v.Position, Rule: "citation", Detail: fmt.Sprintf("two cited certificates give it the values %d and %d", old, v.Grundy)}
		}
		c.known[k] = v.Grundy
	}
	return nil
}

// collecting returns next, appending each entry it gives to rows (when
// rows is not nil).
func collecting(rows *[]Value, next func() (int, format.Entry, error)) func() (int, format.Entry, error) {
	if rows == nil {
		return next
	}
	return func() (int, format.Entry, error) {
		row, e, err := next()
		if err == nil {
			*rows = append(*rows, Value{Position: e.Position, Grundy: e.Grundy})
		}
		return row, e, err
	}
}

// entry checks one row: its position is canonical and atomic, it comes
// after the previous row in (size, text) order, every hint names a move
// that exists, and every hint holds by the values of earlier rows.
func (c *hinted[P]) entry(row int, e *format.Entry) error {
	p, err := c.g.parse(e.Position)
	return c.check(row, e, p, err, err == nil && c.g.text(p) == e.Position)
}

// check is entry with e.Position already parsed: p and err are what the
// game's parser returned for it, and canonical says whether p's canonical
// text is e.Position.
func (c *hinted[P]) check(row int, e *format.Entry, p P, err error, canonical bool) error {
	g := c.g
	if err := positionFailure(g, row, e, p, err, canonical); err != nil {
		return err
	}
	lives := g.size(p)
	if row > 1 && (lives < c.prevLife || lives == c.prevLife && e.Position <= c.prev) {
		return &Failure{Row: row, Position: e.Position, Rule: "order", Detail: fmt.Sprintf("rows must be in increasing order of %s, then text; the previous row is %s", sizeName(g), c.prev)}
	}
	c.prev, c.prevLife = e.Position, lives
	if err := c.checkEntry(row, e, p, nil, true); err != nil {
		return err
	}
	k := g.key(p)
	if old, ok := c.known[k]; ok && old != e.Grundy {
		return &Failure{Row: row, Position: e.Position, Rule: "citation", Detail: fmt.Sprintf("a cited certificate gives it the value %d", old)}
	}
	c.known[k] = e.Grundy
	delete(c.pending, k) // checked as a row of its own
	return nil
}

// checkEntry is check without the order of rows: every hint of the entry
// e (of row row) holds by the values known, which it looks up with get.
// p, err and canonical are as check's.
func (c *hinted[P]) checkEntry(row int, e *format.Entry, p P, err error, canonical bool) error {
	g := c.g
	fail := func(rule, detail string, args ...any) error {
		return &Failure{Row: row, Position: e.Position, Rule: rule, Detail: fmt.Sprintf(detail, args...)}
	}
	if err := positionFailure(g, row, e, p, err, canonical); err != nil {
		return err
	}
	gv := e.Grundy
	refused := func(err error, ofChild bool) error {
		if le, ok := err.(*LimitError); ok {
			le.Row = row
			if ofChild {
				le.Entry = cutText(e.Position)
			}
		}
		return err
	}
	c.moves.startEntry()
	kids, err := c.moves.of(p)
	if err != nil {
		return refused(err, false)
	}
	if len(e.Reach) != int(gv) {
		return fail("reach", "%d reach hints for the value %d", len(e.Reach), gv)
	}
	for m, i := range e.Reach {
		if int(i) >= len(kids) {
			return fail("reach", "value %d: child %d of %d does not exist", m, i, len(kids))
		}
		x, ok := valueOf(g, c, kids[i])
		switch {
		case !ok:
			return fail("reach", "value %d: child %d (%s) has a land that is not an earlier entry", m, i, g.text(kids[i]))
		case x != uint32(m):
			return fail("reach", "value %d: child %d (%s) has the value %d", m, i, g.text(kids[i]), x)
		}
	}
	if len(e.Win) != len(kids) {
		return fail("win", "%d win hints for %d children", len(e.Win), len(kids))
	}
	for i, w := range e.Win {
		child := kids[i]
		if w < 0 {
			x, ok := valueOf(g, c, child)
			switch {
			case w != -1:
				return fail("win", "child %d: hint %d is not a move", i, w)
			case !ok:
				return fail("win", "child %d (%s) has a land that is not an earlier entry", i, g.text(child))
			case x == gv:
				return fail("win", "child %d (%s) has the value %d, the entry's own", i, g.text(child), x)
			}
			continue
		}
		comp, move := format.SplitWin(w)
		lands := g.components(child)
		if comp >= len(lands) {
			return fail("win", "child %d (%s): hint %d names land %d of %d", i, g.text(child), w, comp, len(lands))
		}
		replies, err := c.moves.of(lands[comp])
		if err != nil {
			return refused(err, true)
		}
		if move >= len(replies) {
			return fail("win", "child %d (%s): move %d of land %s does not exist (it has %d)", i, g.text(child), move, g.text(lands[comp]), len(replies))
		}
		reply := replies[move]
		x, ok := valueOf(g, c, reply)
		for k, land := range lands {
			if k == comp || !ok {
				continue
			}
			y, found := c.get(g.key(land))
			x, ok = x^y, found
		}
		switch {
		case !ok:
			return fail("win", "child %d (%s): the reply %s in land %s leaves a land that is not an earlier entry", i, g.text(child), g.text(reply), g.text(lands[comp]))
		case x != gv:
			return fail("win", "child %d (%s): the reply %s in land %s reaches the value %d, not %d", i, g.text(child), g.text(reply), g.text(lands[comp]), x, gv)
		}
	}
	return nil
}

// positionFailure is the failure of an entry whose position (p, as the
// parser gave it with err; canonical says whether its text is e's) is not
// one land written canonically, or nil.
func positionFailure[P any](g rules[P], row int, e *format.Entry, p P, err error, canonical bool) error {
	detail := ""
	switch {
	case err != nil:
		detail = err.Error()
	case !canonical:
		detail = fmt.Sprintf("not in canonical form (it is %s)", g.text(p))
	case !g.atomic(p):
		detail = "not a single land"
	default:
		return nil
	}
	return &Failure{Row: row, Position: e.Position, Rule: "position", Detail: detail}
}

// sizeName names what the game's size counts, for messages.
func sizeName[P any](g rules[P]) string { return g.sizeName() }

// entriesOf returns an iterator over the entries of a certificate in
// memory, as the checkers read a file's: each entry with its number from
// 1, then io.EOF.
func entriesOf(cert *format.Certificate) func() (int, format.Entry, error) {
	i := 0
	return func() (int, format.Entry, error) {
		if i == len(cert.Entries) {
			return i, format.Entry{}, io.EOF
		}
		i++
		return i, cert.Entries[i-1], nil
	}
}
