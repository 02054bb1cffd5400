package verify

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/zeebo/blake3"

	"github.com/spots-dev/spots/format"
)

// Verdicts remembers, across runs on one machine, the certificates that
// one build of the checker found valid, so that they are not checked
// again: keyed by content address, by the build (BuildID) and by the kind
// of check (the default check of every entry, of what the claim uses, or
// the independent one). A verdict is a small file under a directory of
// the user's cache, written through a temporary file and a rename, and
// sealed with a keyed BLAKE3 MAC whose key is a random file beside them,
// readable by the user alone. What is read is suspect: a verdict that
// does not parse, names another address, build or kind, or whose seal
// does not hold (damaged, copied from another machine, written by hand)
// is ignored and the check done again. Its zero value and nil remember
// nothing.
type Verdicts struct {
	dir   string
	build string
	key   []byte
}

// maxVerdictBytes bounds what is read of one verdict file.
const maxVerdictBytes = 4 << 10

// OpenVerdicts returns the verdicts kept in dir (made if missing) for the
// checker build build (e.g. BuildID()).
func OpenVerdicts(dir, build string) (*Verdicts, error) {
	if build == "" || filepath.Base(build) != build || build == "." || build == ".." {
		return nil, fmt.Errorf("verdicts: %q is not a build identifier", build)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("verdicts: %w", err)
	}
	key, err := verdictKey(filepath.Join(dir, "key"))
	if err != nil {
		return nil, fmt.Errorf("verdicts: %w", err)
	}
	return &Verdicts{dir: dir, build: build, key: key}, nil
}

// verdictKey reads the key of the seals at path, made at random (and
// published with a link, so that two processes agree) if missing.
func verdictKey(path string) ([]byte, error) {
	for range 2 {
		key, err := readKey(path)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return key, err
		}
		fresh := make([]byte, 32)
		if _, err := rand.Read(fresh); err != nil {
			return nil, err
		}
		tmp, err := os.CreateTemp(filepath.Dir(path), ".key*")
		if err != nil {
			return nil, err
		}
		_, werr := tmp.Write(fresh)
		cerr := tmp.Close()
		if werr == nil && cerr == nil {
			err = os.Link(tmp.Name(), path) // fails if another made it first: read theirs
		}
		os.Remove(tmp.Name())
		if werr != nil || cerr != nil {
			return nil, errors.Join(werr, cerr)
		}
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	return readKey(path)
}

// readKey reads a key file: a regular file of 32 bytes, not a link.
func readKey(path string) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	key, err := io.ReadAll(io.LimitReader(f, 64))
	if err != nil {
		return nil, err
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("%s: a key of %d bytes, want 32: remove it, and the verdicts are checked again", path, len(key))
	}
	return key, nil
}

// BuildID identifies the running checker: the BLAKE3 hash of its
// executable, so that any change to the checker's code is a new build.
func BuildID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := blake3.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// The kinds of check a verdict is for.
const (
	kindWhole       = "whole"       // the default check, every entry of every certificate
	kindUsed        = "used"        // the default check, cited certificates as far as used
	kindIndependent = "independent" // the independent check, every entry of every certificate
	// kindIndependentUsed is the independent check, cited certificates as
	// far as used.
	kindIndependentUsed = "independent-used"
)

// verdicts returns the verdicts a check of opt may use and keep: those of
// o.Verdicts under the default limits, none under others (a user who
// lowers a limit asks for a check bounded by it, and one who raises it
// for a check that the default would refuse).
func (o Options) verdicts() *Verdicts {
	if o.Limits.resolved() != DefaultLimits.resolved() {
		return nil
	}
	return o.Verdicts
}

// kind is the kind of check opt asks for.
func (o Options) kind() string {
	switch {
	case o.Independent && o.Used:
		return kindIndependentUsed
	case o.Independent:
		return kindIndependent
	case o.Used:
		return kindUsed
	}
	return kindWhole
}

// trusts returns the kinds of verdict under which a check of opt takes a
// cited certificate's rows as proven: every row of it was checked, by the
// same rules (the default check's, whole or with what it cites checked as
// used, or the independent one's).
func (o Options) trusts() []string {
	if o.Independent {
		return []string{kindIndependent, kindIndependentUsed}
	}
	return []string{kindWhole, kindUsed}
}

// verdict is what a verdict file holds.
type verdict struct {
	Address string `json:"address"`
	Build   string `json:"build"`
	Kind    string `json:"kind"`
	Claim   string `json:"claim"`
	Entries int    `json:"entries"`
	Cites   int    `json:"cites"`
	Cited   int    `json:"cited"`
	Read    int    `json:"read"`
	Used    int    `json:"used"`
	Seal    string `json:"seal"`
}

// seal is the MAC of v's fields but Seal.
func (s *Verdicts) seal(v verdict) string {
	v.Seal = ""
	b, _ := json.Marshal(v) // fields of fixed types: never fails
	h, _ := blake3.NewKeyed(s.key)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// path is where the verdict of kind on addr is kept.
func (s *Verdicts) path(addr, kind string) string {
	return filepath.Join(s.dir, s.build, kind, addr)
}

// Lookup returns the result remembered for the certificate addr, found
// valid by a check of one of kinds, if a sound verdict says so.
func (s *Verdicts) lookup(addr string, kinds ...string) (Result, bool) {
	if s == nil || s.key == nil || !format.IsAddress(addr) {
		return Result{}, false
	}
	for _, kind := range kinds {
		b, err := readSmall(s.path(addr, kind))
		if err != nil {
			continue
		}
		var v verdict
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields()
		if d.Decode(&v) != nil || v.Address != addr || v.Build != s.build || v.Kind != kind || v.Seal != s.seal(v) {
			continue
		}
		claim, err := format.ParseClaim(v.Claim)
		if err != nil {
			continue
		}
		return Result{Claim: claim, Address: addr, Entries: v.Entries, Cites: v.Cites, Cited: v.Cited, Read: v.Read, Used: v.Used, Remembered: true}, true
	}
	return Result{}, false
}

// readSmall reads a regular file of at most maxVerdictBytes, not through a
// link.
func readSmall(path string) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxVerdictBytes+1))
	if err == nil && len(b) > maxVerdictBytes {
		err = errors.New("too large")
	}
	return b, err
}

// record remembers that a check of kind found the certificate of res
// valid. A verdict that cannot be written is not kept: the check will be
// done again.
func (s *Verdicts) record(kind string, res Result) {
	if s == nil || s.key == nil || !format.IsAddress(res.Address) {
		return
	}
	v := verdict{Address: res.Address, Build: s.build, Kind: kind, Claim: res.Claim.String(),
		Entries: res.Entries, Cites: res.Cites, Cited: res.Cited, Read: res.Read, Used: res.Used}
	v.Seal = s.seal(v)
	b, _ := json.Marshal(v)
	path := s.path(res.Address, kind)
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".verdict*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// openRegular opens the file at path for reading if it is a regular file,
// not a link, a pipe or a device: the cache directory is the user's own
// (mode 0700), so what is found there is only suspect, not hostile.
func openRegular(path string) (*os.File, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return os.Open(path)
}

// known returns the result remembered for the certificate at path, named
// by the address name, found valid by a check of one of kinds, with the
// certificate read: the verdict is believed only for the bytes it is
// about (their content address is the name).
func (s *Verdicts) known(path, name string, kinds ...string) (Result, *format.Certificate, bool) {
	res, ok := s.lookup(name, kinds...)
	if !ok {
		return Result{}, nil, false
	}
	cert, err := format.ReadCertificate(path)
	if err != nil || cert.Address() != name {
		return Result{}, nil, false
	}
	return res, cert, true
}

// valuesOf returns the values that entries prove.
func valuesOf(entries []format.Entry) []Value {
	out := make([]Value, len(entries))
	for i, e := range entries {
		out[i] = Value{Position: e.Position, Grundy: e.Grundy}
	}
	return out
}

// atHand reports whether the certificates that cites names, and those
// they cite in turn, are each found beside here or in the library's
// directories, in a file whose bytes hash to its name, and are no more
// than max: then a verdict about the proof of those addresses is about
// the files at hand, and answers as a check of them would. Otherwise the
// check is made, and says what is missing or wrong.
func (l *Library) atHand(cites []string, here string, max int) bool {
	ok := true
	n := l.walkCited(cites, here, func(addr, path string) []string {
		if path == "" || l.failed[path] != nil {
			ok = false
			return nil
		}
		cert, err := format.ReadCertificate(path)
		if err != nil || cert.Address() != addr {
			ok = false
			return nil
		}
		return cert.Cites
	}, func(n int) bool { return ok && n <= max })
	return ok && n <= max
}

// toCheck counts, from their headers, the certificates that cites names
// and those they cite in turn that the library does not hold valid (at
// most max+1): what a check will read or check, for its progress.
func (l *Library) toCheck(cites []string, here string, max int) int {
	count := 0
	l.walkCited(cites, here, func(addr, path string) []string {
		if l.valid[addr] != nil {
			return nil
		}
		count++
		if path == "" {
			return nil
		}
		more, _ := headerCites(path)
		return more
	}, func(int) bool { return count <= max })
	return count
}

// walkCited visits, breadth first and each once, the certificates cites
// names and those they cite in turn, as the citations of the file visit
// returns name them (path: the first file of the address beside the
// citing one or in the library's directories, "" if none), while goOn
// holds for the number visited; it returns that number.
func (l *Library) walkCited(cites []string, here string, visit func(addr, path string) []string, goOn func(n int) bool) int {
	seen := map[string]bool{}
	type next struct{ addr, here string }
	queue := make([]next, 0, len(cites))
	for _, a := range cites {
		queue = append(queue, next{a, here})
	}
	n := 0
	for len(queue) > 0 && goOn(n) {
		x := queue[0]
		queue = queue[1:]
		if seen[x.addr] {
			continue
		}
		seen[x.addr] = true
		n++
		a := l.attempt(x.addr, x.here)
		delete(l.active, x.addr)
		path := ""
		if len(a.paths) > 0 {
			path = a.paths[0]
		}
		for _, c := range visit(x.addr, path) {
			queue = append(queue, next{c, filepath.Dir(path)})
		}
	}
	return n
}
