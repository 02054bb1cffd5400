package verify

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
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
type Library struct {
	// Dirs are the directories searched for a cited certificate
	// <address>.arrow, after the directory of the file that cites it.
	Dirs []string

	done map[string]*checkedCert // by content address
}

// checkedCert is what checking one certificate found.
type checkedCert struct {
	checking bool
	path     string // where it was found
	res      Result
	err      error
	rows     []Value             // its own rows, when valid
	cites    []string            // the addresses it cites
	closure  map[string]struct{} // the addresses it cites, directly or not
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
	return &Library{Dirs: dirs, done: map[string]*checkedCert{}}
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

func (e *CitationError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("cited certificate %s: %v", e.Address, e.Err)
	}
	return fmt.Sprintf("cited certificate %s (%s): %v", e.Address, e.Path, e.Err)
}

// Unwrap gives ErrCitation and the cited certificate's own error, so that
// errors.Is tells an invalid citation (ErrInvalidCertificate) from an
// unreadable one.
func (e *CitationError) Unwrap() []error { return []error{ErrCitation, e.Err} }

// errMissing is a cited certificate found in none of the directories.
type errMissing struct{ dirs []string }

func (e *errMissing) Error() string {
	return fmt.Sprintf("no file of that name in %s (spots-verify --cites DIR names more directories)", strings.Join(e.dirs, ", "))
}

func (e *errMissing) Unwrap() error { return ErrInvalidCertificate }

// cited checks the certificates of cites (cited by a file in the
// directory here, "" when not from a file) and returns the union of their
// rows and of their closures. Two cited certificates that give one
// position different values are a *Failure.
func (l *Library) cited(cites []string, here string, opt Options) ([]Value, map[string]struct{}, error) {
	if len(cites) == 0 {
		return nil, nil, nil
	}
	if l == nil {
		return nil, nil, &CitationError{Address: cites[0], Err: fmt.Errorf("%w: the certificate cites %d others and no directory to find them in was given", ErrInvalidCertificate, len(cites))}
	}
	closure := map[string]struct{}{}
	var rows []Value
	for _, addr := range cites {
		c, err := l.check(addr, here, opt)
		if err != nil {
			return nil, nil, err
		}
		closure[addr] = struct{}{}
		for a := range c.closure {
			closure[a] = struct{}{}
		}
		rows = append(rows, c.rows...)
	}
	return rows, closure, nil
}

// citedFor is the start of either checker's check of a certificate that
// cites cites: it records the citations (in opt.cites, for the library,
// and in res), checks the cited certificates with opt.Library and returns
// their rows.
func citedFor(res *Result, cites []string, opt Options) ([]Value, error) {
	if opt.cites != nil {
		*opt.cites = cites
	}
	given, closure, err := opt.Library.cited(cites, opt.here, opt)
	if err != nil {
		return nil, err
	}
	res.Cites, res.Cited = len(cites), len(closure)
	return given, nil
}

// check checks the certificate of address addr, found beside here or in
// the library's directories, once.
func (l *Library) check(addr, here string, opt Options) (*checkedCert, error) {
	if c, ok := l.done[addr]; ok {
		if c.checking {
			return nil, &CitationError{Address: addr, Err: &Failure{Rule: "citation", Detail: "the certificate cites itself through others"}}
		}
		if c.err != nil {
			return nil, c.err
		}
		return c, nil
	}
	path, err := l.find(addr, here)
	if err != nil {
		c := &checkedCert{err: &CitationError{Address: addr, Err: err}}
		l.done[addr] = c
		return nil, c.err
	}
	c := &checkedCert{checking: true, path: path}
	l.done[addr] = c
	res, cites, rows, closure, err := l.file(path, opt)
	c.checking, c.res = false, res
	if err != nil {
		c.err = &CitationError{Address: addr, Path: path, Err: err}
		return nil, c.err
	}
	c.rows, c.closure, c.cites = rows, closure, cites
	return c, nil
}

// find returns the path of the certificate addr: in here, then in the
// library's directories. A file that is a link or not a regular file is
// not followed.
func (l *Library) find(addr, here string) (string, error) {
	dirs := slices.Compact(append([]string{here}, l.Dirs...))
	var searched []string
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		searched = append(searched, dir)
		path := filepath.Join(dir, addr+".arrow")
		info, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return path, err
		case !info.Mode().IsRegular():
			return path, fmt.Errorf("%s is not a regular file (links are not followed)", path)
		}
		return path, nil
	}
	return "", &errMissing{dirs: searched}
}

// file checks the certificate at path with the library and returns its
// result, its own rows and the closure of its citations.
func (l *Library) file(path string, opt Options) (Result, []string, []Value, map[string]struct{}, error) {
	opt.Library, opt.here = l, filepath.Dir(path)
	var rows []Value
	var cites []string
	opt.rows, opt.cites = &rows, &cites
	res, err := File(path, opt)
	if err != nil {
		return res, nil, nil, nil, err
	}
	return res, cites, rows, l.closureOf(cites), nil
}

// closureOf returns the addresses of cites and of what they cite, as far
// as the library has checked them.
func (l *Library) closureOf(cites []string) map[string]struct{} {
	closure := map[string]struct{}{}
	for _, a := range cites {
		closure[a] = struct{}{}
		if c := l.done[a]; c != nil {
			for b := range c.closure {
				closure[b] = struct{}{}
			}
		}
	}
	return closure
}

// Checked returns what checking the certificate of address addr found, if
// the library has checked it (as a citation, or as a file the library was
// given with): its result and error.
func (l *Library) Checked(addr string) (Result, error, bool) {
	if l == nil {
		return Result{}, nil, false
	}
	c, ok := l.done[addr]
	if !ok || c.checking {
		return Result{}, nil, false
	}
	return c.res, c.err, true
}

// remember records the check of a file the library was given (not found
// as a citation), so that a later citation of it is not checked again.
func (l *Library) remember(path string, res Result, cites []string, rows []Value, err error) {
	if l == nil || res.Address == "" {
		return
	}
	if _, ok := l.done[res.Address]; ok {
		return
	}
	c := &checkedCert{path: path, res: res, err: err, rows: rows, cites: cites, closure: l.closureOf(cites)}
	if err != nil {
		c.err = &CitationError{Address: res.Address, Err: err}
		c.rows = nil
	}
	l.done[res.Address] = c
}

// Forget drops what the library found of the certificate addr, so that a
// later check of it checks its rows again (with what it cites, still
// remembered): the time of that check is its own share of a check of
// everything it relies on.
func (l *Library) Forget(addr string) {
	if l != nil {
		delete(l.done, addr)
	}
}

// Closure returns the addresses of the certificates that the certificate
// addr cites, directly or through others, sorted, once the library has
// checked it and found it valid.
func (l *Library) Closure(addr string) []string {
	if l == nil {
		return nil
	}
	c := l.done[addr]
	if c == nil || c.err != nil {
		return nil
	}
	out := make([]string, 0, len(c.closure))
	for a := range c.closure {
		out = append(out, a)
	}
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
	if c := l.done[addr]; c != nil && c.err == nil {
		return c.rows
	}
	return nil
}

// Path returns where the library found the certificate addr ("" if it did
// not look for it, or did not find it).
func (l *Library) Path(addr string) string {
	if l == nil {
		return ""
	}
	if c := l.done[addr]; c != nil && c.err == nil {
		return c.path
	}
	return ""
}

// Inline returns the certificate at path with the rows of every
// certificate it cites, directly or through others, in place of the
// citations: one self-contained certificate of the same claim (format
// version 1, at another address), which a checker verifies with no other
// file. The certificate must have been checked with l and found valid (it
// names the files of its citations). Its provenance fields are left empty
// for the caller to set.
func (l *Library) Inline(path string) (*format.Certificate, error) {
	cert, err := format.ReadCertificate(path)
	if err != nil {
		return nil, err
	}
	addr := cert.Address()
	if c := l.done[addr]; c == nil || c.err != nil {
		return nil, fmt.Errorf("inline %s: the certificate was not found valid", path)
	}
	entries := cert.Entries
	for _, a := range l.Closure(addr) {
		cited, err := format.ReadCertificate(l.Path(a))
		if err != nil {
			return nil, fmt.Errorf("inline %s: %w", path, err)
		}
		entries = append(entries, cited.Entries...)
	}
	switch cert.Game {
	case sprouts.Game:
		entries, err = sortEntries[sprouts.Position](sproutsRules{}, entries)
	case cram.Game:
		entries, err = sortEntries[cram.Position](cramRules{}, entries)
	default:
		err = unknownGame(cert.Game)
	}
	if err != nil {
		return nil, fmt.Errorf("inline %s: %w", path, err)
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
