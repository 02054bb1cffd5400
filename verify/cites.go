package verify

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spots-dev/spots/format"
)

// Citations.
//
// A certificate of format.FormatCiting cites others by content address
// and relies on their entries without repeating them. The check of such a
// certificate first checks every certificate it cites, as a certificate
// of its own (with the same options, so by the same checker), following
// their citations in turn, and then takes their entries as rows that come
// before its first: a hint may name a land that is an entry of a cited
// certificate, and so may the claim. The entries a certificate
// contributes are its own rows, not those it cites, so a certificate cites
// every certificate whose rows it uses.
//
// Nothing cited is believed: a cited certificate that cannot be found,
// whose content is not its address, or that is not valid rejects the
// citing one, naming the address. A cycle of citations would need a
// BLAKE3 collision (each address covers its citations); the check refuses
// one all the same. A Library checks each certificate once, however many
// cite it.

// Library finds the certificates that others cite, by address, and
// remembers what checking each found, so that a run checks each
// certificate once. It is not safe for concurrent use.
//
// What it remembers is keyed by what was read, never by a name alone: a
// certificate found valid under the content address computed from its
// bytes, and a file that failed under its path. A file named with an
// address it does not hold, junk or another certificate, fails on its
// own and is never taken for the certificate of that address; the next
// file of that name, in the next directory, is tried. The certificates a
// check relies on are found deepest first, on a stack of its own (a chain
// of citations takes no deeper recursion), and held to Limits.Cites.
type Library struct {
	// Dirs are the directories searched for a cited certificate
	// <address>.arrow, after the directory of the file that cites it.
	Dirs []string

	valid  map[string]*checkedCert // by content address, computed from the bytes read
	failed map[string]error        // by path: what checking the file there found
	active map[string]bool         // addresses being resolved: met again, a cycle
}

// checkedCert is a certificate found valid: where, what its check gave,
// and what a certificate that cites it needs. Its closure is not kept
// (Closure walks the citations), so that memory grows with the
// certificates checked, not with the square of a chain's depth.
type checkedCert struct {
	path  string // where it was found
	res   Result
	rows  []Value  // its own rows
	cites []string // the addresses it cites
	// A certificate loaded for a check of what a claim uses
	// (Options.Used) is read, its address and its citations found valid,
	// but its rows are checked only as they are used: entries are its
	// rows with their hints; checked marks those the default check found
	// valid, indChecked those the independent check did (see marks).
	loaded     bool
	entries    []format.Entry
	checked    []bool
	indChecked []bool
}

// Value is an entry a checked certificate proves: the Grundy value of an
// atomic position, written canonically.
type Value struct {
	Position string
	Grundy   uint32
}

// NewLibrary returns a library that looks for cited certificates in dirs
// (after the directory of the citing file).
func NewLibrary(dirs ...string) *Library {
	return &Library{Dirs: dirs, valid: map[string]*checkedCert{}, failed: map[string]error{}, active: map[string]bool{}}
}

// ErrCitation marks a certificate rejected because of one it cites (it
// also wraps ErrInvalidCertificate, or the error that made a cited file
// unreadable).
var ErrCitation = errors.New("cited certificate")

// CitationError is a citing certificate rejected for one it cites: Address
// names the cited certificate, Err says what is wrong with it.
type CitationError struct {
	Address string
	Path    string // where it was found ("" when it was not)
	Err     error
}

// Error names the cited certificate and, through a chain of citations,
// the first two links and the last, where the fault is: a chain as deep
// as the limit on citations allows gives one line, not thousands.
func (e *CitationError) Error() string {
	var chain []*CitationError
	for c := e; c != nil; {
		chain = append(chain, c)
		next, _ := c.Err.(*CitationError)
		c = next
	}
	if len(chain) <= 3 {
		return e.link(e.Err.Error())
	}
	last := chain[len(chain)-1]
	inner := fmt.Sprintf("… %d more … %s", len(chain)-3, last.link(last.Err.Error()))
	return e.link(chain[1].link(inner))
}

// link is the text of e around the text of what it wraps.
func (e *CitationError) link(inner string) string {
	if e.Path == "" {
		return fmt.Sprintf("cited certificate %s: %s", e.Address, inner)
	}
	return fmt.Sprintf("cited certificate %s (%s): %s", e.Address, e.Path, inner)
}

// Unwrap gives ErrCitation and the cited certificate's own error, so that
// errors.Is tells an invalid citation (ErrInvalidCertificate) from an
// unreadable one.
func (e *CitationError) Unwrap() []error { return []error{ErrCitation, e.Err} }

// errCycle is a certificate that cites itself, through others.
var errCycle = &Failure{Rule: "citation", Detail: "the certificate cites itself through others"}

// cited checks the certificates of cites (cited by a file in the
// directory here, "" when not from a file), with those they rely on, and
// returns their rows and the number of certificates relied on, directly
// or not (0 in a check the library makes itself: only a check it was
// given reports it). Two cited certificates that give one position
// different values are a *Failure.
func (l *Library) cited(cites []string, here string, opt Options) ([]Value, int, error) {
	if len(cites) == 0 {
		return nil, 0, nil
	}
	if l == nil {
		return nil, 0, &CitationError{Address: cites[0], Err: fmt.Errorf("%w: the certificate cites %d others and no directory to find them in was given", ErrInvalidCertificate, len(cites))}
	}
	l.init()
	if err := l.resolve(cites, here, opt); err != nil {
		return nil, 0, err
	}
	n := 0
	if !opt.nested {
		n = len(l.closure(cites))
	}
	if opt.demand() {
		return nil, n, nil // the caller takes the closure's rows (citedRows)
	}
	var rows []Value
	for _, addr := range cites {
		c := l.valid[addr]
		if c == nil { // forgotten by a caller meanwhile: not believed
			return nil, 0, &CitationError{Address: addr, Err: fmt.Errorf("%w: not found valid", ErrInvalidCertificate)}
		}
		rows = append(rows, c.rows...)
	}
	return rows, n, nil
}

// citedFor is the start of either checker's check of a certificate that
// cites cites: it records the citations (in opt.cites, for the library,
// and in res), checks the cited certificates with opt.Library and returns
// their rows.
func citedFor(res *Result, cites []string, opt Options) ([]Value, error) {
	if opt.cites != nil {
		*opt.cites = cites
	}
	given, cited, err := opt.Library.cited(cites, opt.here, opt)
	if err != nil {
		return nil, err
	}
	res.Cites, res.Cited = len(cites), cited
	return given, nil
}

// init makes the maps of a library not made by NewLibrary.
func (l *Library) init() {
	if l.valid == nil {
		l.valid, l.failed, l.active = map[string]*checkedCert{}, map[string]error{}, map[string]bool{}
	}
}

// resolve makes every certificate of cites valid in the library, with
// everything it relies on, or returns why one is not: a *CitationError
// naming it, or a *LimitError when they are more than opt.Limits.Cites.
func (l *Library) resolve(cites []string, here string, opt Options) error {
	t := &tally{seen: map[string]struct{}{}, max: opt.Limits.resolved().Cites, deep: !opt.nested, missing: map[string][]string{}, blocked: map[string]bool{}}
	if opt.CitedProgress != nil && !opt.nested {
		t.progress, t.total = opt.CitedProgress, l.toCheck(cites, here, t.max)
	}
	for _, addr := range cites {
		if err := t.add(l, addr); err != nil {
			return err
		}
		switch {
		case t.settled(l, addr):
		case l.active[addr]:
			return &CitationError{Address: addr, Err: errCycle}
		default:
			if err := l.need(addr, here, t, opt); err != nil {
				return err
			}
		}
	}
	if t.progress != nil {
		t.progress(0, t.done, "") // the citations are done
	}
	return t.incomplete()
}

// tally counts the certificates a check relies on, each once, against the
// limit: those met as citations and, with deep, every one that a
// certificate already valid relies on (so that the limit, like the count,
// does not depend on what the run checked before).
type tally struct {
	seen map[string]struct{}
	max  int
	deep bool
	// missing are the cited addresses no file was found for, with the
	// directories looked in; blocked, the certificates found that rely
	// on one of them, left unchecked. The search goes on past both, so
	// that one check names every certificate still needed.
	missing map[string][]string
	blocked map[string]bool
	// progress, if set, hears of each certificate read or checked: the
	// k-th (done) of about total.
	progress    func(k, n int, address string)
	done, total int
}

// settled reports whether addr needs nothing more from the search: it is
// valid, or missing, or relies on a missing certificate.
func (t *tally) settled(l *Library, addr string) bool {
	return l.valid[addr] != nil || t.missing[addr] != nil || t.blocked[addr]
}

// incomplete is the *IncompleteError of the certificates found missing,
// or nil.
func (t *tally) incomplete() error {
	if len(t.missing) == 0 {
		return nil
	}
	e := &IncompleteError{}
	for addr, dirs := range t.missing {
		e.Missing = append(e.Missing, addr)
		e.Dirs = append(e.Dirs, dirs...)
	}
	slices.Sort(e.Missing)
	slices.Sort(e.Dirs)
	e.Dirs = slices.Compact(e.Dirs)
	return e
}

// add counts addr (and with deep what it relies on, when valid).
func (t *tally) add(l *Library, addr string) error {
	stack := []string{addr}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, ok := t.seen[a]; ok {
			continue
		}
		t.seen[a] = struct{}{}
		if len(t.seen) > t.max {
			return &LimitError{Limit: "cites", Value: int64(len(t.seen)), Max: int64(t.max)}
		}
		if c := l.valid[a]; c != nil && t.deep {
			stack = append(stack, c.cites...)
		}
	}
	return nil
}

// attempt is the search for a valid certificate of one cited address:
// the files of that name found, tried in turn until one is valid.
type attempt struct {
	addr     string
	paths    []string // the files found, in the order of the directories
	searched []string // the directories looked in
	k        int      // the file being tried
	cites    []string // its citations, from its header
	read     bool     // cites is paths[k]'s
	i        int      // the next of cites to make valid
	first    error    // why the first file failed
	at       string   // the first file
	blocked  bool     // the file tried relies on a missing certificate
}

// fail records that the file being tried failed with err; the next is
// tried.
func (a *attempt) fail(err error) {
	if a.first == nil {
		a.first, a.at = err, a.paths[a.k]
	}
	a.k++
	a.cites, a.read, a.i, a.blocked = nil, false, 0, false
}

// failure is why no file of the attempt was valid.
func (a *attempt) failure() *CitationError {
	return &CitationError{Address: a.addr, Path: a.at, Err: a.first}
}

// need makes the certificate addr valid in the library, found beside here
// or in the directories, with everything it relies on: the citations of a
// file are made valid before the file is checked, deepest first, on a
// stack of attempts (no recursion, however deep the chain). t counts the
// certificates met.
func (l *Library) need(addr, here string, t *tally, opt Options) error {
	stack := []*attempt{l.attempt(addr, here)}
	defer func() { // after a refusal, the addresses left on the stack
		for _, a := range stack {
			delete(l.active, a.addr)
		}
	}()
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		if len(a.paths) == 0 { // missing: the search goes on without it
			stack = l.setAside(stack, t)
			continue
		}
		if a.k == len(a.paths) { // no file of its name is valid
			stack = stack[:len(stack)-1]
			delete(l.active, a.addr)
			err := a.failure()
			if len(stack) == 0 {
				return err
			}
			l.fail(stack[len(stack)-1], err)
			continue
		}
		path := a.paths[a.k]
		if err, ok := l.failed[path]; ok {
			a.fail(err)
			continue
		}
		if !a.read { // a header that cannot be read: the check says why
			a.cites, _ = headerCites(path)
			a.read = true
		}
		next, err := l.nextCited(a, t)
		switch {
		case err != nil:
			return err
		case next == "" && a.blocked: // relies on one missing: unchecked
			stack = l.setAside(stack, t)
			continue
		case next == "":
		case l.active[next]:
			l.fail(a, &CitationError{Address: next, Err: errCycle})
			continue
		default:
			stack = append(stack, l.attempt(next, filepath.Dir(path)))
			continue
		}
		if t.progress != nil {
			t.done++
			t.progress(t.done, max(t.total, t.done), a.addr)
		}
		c, err := l.checkOrLoad(path, opt)
		if err != nil {
			l.fail(a, err)
			continue
		}
		l.valid[a.addr] = c
		delete(l.active, a.addr)
		stack = stack[:len(stack)-1]
	}
	return nil
}

// setAside takes the attempt on top of the stack off it, unresolved: its
// address is missing (no file of its name) or blocked (its file relies on
// one missing), and so is the file that cites it below.
func (l *Library) setAside(stack []*attempt, t *tally) []*attempt {
	a := stack[len(stack)-1]
	stack = stack[:len(stack)-1]
	delete(l.active, a.addr)
	if len(a.paths) == 0 {
		t.missing[a.addr] = a.searched
	} else {
		t.blocked[a.addr] = true
	}
	if len(stack) > 0 {
		stack[len(stack)-1].blocked = true
	}
	return stack
}

// nextCited counts the citations of the file a tries and returns the
// first that is not valid yet ("" when all are).
func (l *Library) nextCited(a *attempt, t *tally) (string, error) {
	for ; a.i < len(a.cites); a.i++ {
		c := a.cites[a.i]
		if err := t.add(l, c); err != nil {
			return "", err
		}
		if !t.settled(l, c) {
			return c, nil
		}
	}
	return "", nil
}

// fail records that the file a tries failed with err, for the rest of the
// run: a file is judged once.
func (l *Library) fail(a *attempt, err error) {
	l.failed[a.paths[a.k]] = err
	a.fail(err)
}

// attempt starts the search for the certificate addr: the files of its
// name beside here, then in the library's directories. A file that is a
// link or not a regular file is not followed: it fails.
func (l *Library) attempt(addr, here string) *attempt {
	l.active[addr] = true
	a := &attempt{addr: addr}
	seen := map[string]bool{}
	for _, dir := range append([]string{here}, l.Dirs...) {
		if dir == "" {
			continue
		}
		path := filepath.Join(dir, addr+".arrow")
		if seen[path] {
			continue
		}
		seen[path] = true
		a.searched = append(a.searched, dir)
		info, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			l.failed[path] = err
		case !info.Mode().IsRegular():
			l.failed[path] = fmt.Errorf("%s is not a regular file (links are not followed)", path)
		}
		a.paths = append(a.paths, path)
	}
	return a
}

// headerCites returns the citations in the header of the certificate at
// path.
func headerCites(path string) ([]string, error) {
	r, err := format.OpenCertificate(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Header().Cites, nil
}

// file checks the certificate at path, all it cites being valid in the
// library, and returns its result, its citations and its own rows. The
// file must hold the address it is named by.
func (l *Library) file(path string, opt Options) (Result, []string, []Value, error) {
	opt.Library, opt.here, opt.nested = l, filepath.Dir(path), true
	var rows []Value
	var cites []string
	opt.rows, opt.cites = &rows, &cites
	res, err := File(path, opt)
	if err != nil {
		return res, nil, nil, err
	}
	return res, cites, rows, nil
}

// closure returns the addresses that the certificates of cites are and
// rely on, as far as the library holds them valid: walked, never stored.
func (l *Library) closure(cites []string) map[string]struct{} {
	seen := map[string]struct{}{}
	stack := slices.Clone(cites)
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, ok := seen[a]; ok {
			continue
		}
		seen[a] = struct{}{}
		if c := l.valid[a]; c != nil {
			stack = append(stack, c.cites...)
		}
	}
	return seen
}

// same returns what the library found of the certificate at path if the
// file holds a certificate it found valid: the one of address addr (the
// file's name), and the bytes read now hash to it, as declared. A file
// named with an address it does not hold is checked on its own.
func (l *Library) same(path, addr string) (Result, bool) {
	l.init()
	c := l.valid[addr]
	if c == nil || c.loaded {
		return Result{}, false
	}
	if got, err := contentAddress(path); err != nil || got != addr {
		return Result{}, false
	}
	res := c.res
	res.Cited = len(l.closure(c.cites))
	return res, true
}

// contentAddress reads the certificate at path and returns the content
// address of its bytes, when it is the one its file declares.
func contentAddress(path string) (string, error) {
	r, err := format.OpenCertificate(path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			return "", err
		}
	}
	addr, err := r.Address()
	if err != nil {
		return "", err
	}
	if declared := r.DeclaredAddress(); declared != addr {
		return "", fmt.Errorf("the file declares the address %s but its content hashes to %s", declared, addr)
	}
	return addr, nil
}

// remember records the check of a file the library was given (not found
// as a citation): a valid certificate under the address computed from
// its bytes, so that a later citation of it is not checked again; a
// failure under the file's path alone, so that the file is not checked
// again as a citation, and no other file is taken for it.
func (l *Library) remember(path string, res Result, cites []string, rows []Value, err error) {
	if l == nil {
		return
	}
	l.init()
	if err != nil {
		l.failed[filepath.Clean(path)] = err
		return
	}
	if c, ok := l.valid[res.Address]; ok && !c.loaded || res.Address == "" {
		return
	}
	l.valid[res.Address] = &checkedCert{path: path, res: res, rows: rows, cites: cites}
}

// Forget drops what the library found of the certificate addr, so that a
// later check of it checks its rows again (with what it cites, still
// remembered): the time of that check is its own share of a check of
// everything it relies on.
func (l *Library) Forget(addr string) {
	if l != nil && l.valid != nil {
		delete(l.valid, addr)
	}
}

// Closure returns the addresses of the certificates that the certificate
// addr cites, directly or through others, sorted, once the library has
// checked it and found it valid.
func (l *Library) Closure(addr string) []string {
	if l == nil || l.valid[addr] == nil {
		return nil
	}
	out := slices.Collect(maps.Keys(l.closure(l.valid[addr].cites)))
	slices.Sort(out)
	return out
}

// Rows returns the entries of the certificate addr (its own rows, not
// those it cites), once the library has checked it and found it valid;
// nil otherwise. With Closure, they are every value a citing certificate's
// proof rests on.
func (l *Library) Rows(addr string) []Value {
	if l == nil {
		return nil
	}
	if c := l.valid[addr]; c != nil {
		return c.usedRows()
	}
	return nil
}

// Path returns where the library found the certificate addr valid ("" if
// it did not).
func (l *Library) Path(addr string) string {
	if l == nil {
		return ""
	}
	if c := l.valid[addr]; c != nil {
		return c.path
	}
	return ""
}

// Read reads the certificate addr from where the library found it valid,
// and checks that the file still holds it: what a caller copies or
// inlines is what was checked, whatever became of the file since.
func (l *Library) Read(addr string) (*format.Certificate, error) {
	path := l.Path(addr)
	if path == "" {
		return nil, fmt.Errorf("the certificate %s was not found valid", addr)
	}
	cert, err := format.ReadCertificate(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s again: %w", path, err)
	}
	if got := cert.Address(); got != addr {
		return nil, fmt.Errorf("%s changed since it was checked: its content address is now %s, not %s", path, got, addr)
	}
	return cert, nil
}

// Inline returns the certificate addr, which the library found valid,
// with the rows of every certificate it cites, directly or through
// others, in place of the citations: one self-contained certificate of
// the same claim (format version 1, at another address), which a checker
// verifies with no other file. Each certificate is read again where it
// was found and must still hold its address (Read). Its provenance fields
// are left empty for the caller to set.
func (l *Library) Inline(addr string) (*format.Certificate, error) {
	cert, err := l.Read(addr)
	if err != nil {
		return nil, fmt.Errorf("inline %s: %w", addr, err)
	}
	entries := cert.Entries
	for _, a := range l.Closure(addr) {
		cited, err := l.Read(a)
		if err != nil {
			return nil, fmt.Errorf("inline %s: %w", addr, err)
		}
		entries = append(entries, l.valid[a].used(cited.Entries)...)
	}
	if g, ok := rulesOf(cert.Game); ok {
		entries, err = sortEntries(g, entries)
	} else {
		err = unknownGame(cert.Game)
	}
	if err != nil {
		return nil, fmt.Errorf("inline %s: %w", addr, err)
	}
	return &format.Certificate{Claim: cert.Claim, Game: cert.Game, Notation: cert.Notation, Entries: entries}, nil
}

// sortEntries returns entries in certificate order (size, then text), each
// position once.
func sortEntries[P any](g rules[P], entries []format.Entry) ([]format.Entry, error) {
	size := make(map[string]int, len(entries))
	out := entries[:0:0]
	for _, e := range entries {
		if _, ok := size[e.Position]; ok {
			continue
		}
		p, err := g.parse(e.Position)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Position, err)
		}
		size[e.Position] = g.size(p)
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b format.Entry) int {
		if d := cmp.Compare(size[a.Position], size[b.Position]); d != 0 {
			return d
		}
		return strings.Compare(a.Position, b.Position)
	})
	return out, nil
}
