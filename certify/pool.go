package certify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all" // the games pools serve
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// A Pool is the entries of directories of certificates that a search draws
// on: the Grundy values that earlier proofs established. A value of a pool
// is input, not truth. The search believes it; the proof of the result
// does not: Build, given the pool, cites the certificate of every pooled
// value the proof relies on instead of repeating its row, and the check of
// a citing certificate checks every certificate it cites (and what those
// cite) before the claim is believed (verify.Library). A forged or broken
// certificate in the pool therefore costs a result its certificate (and a
// prove.Reused search its values), never a wrong answer.
//
// Where several certificates hold a value, which of them a proof cites is
// chosen once the proof is known (cover): checking a citing certificate
// means checking every certificate it relies on, so the proof cites
// certificates whose closures add up to few entries. The choice depends
// only on the pool and the proof, so the same pool gives the same
// certificate every time.
type Pool struct {
	// Game is the game of the certificates (a name of the registry,
	// package game): the pool serves the claims of that game only.
	Game string
	// Dirs are the directories the certificates were read from: where
	// the checker of a citing certificate finds them.
	Dirs []string
	// Files are the certificates read.
	Files int

	rules   game.Game          // the rules of Game, which key the positions
	values  map[string]pooled  // by the key of the position (the game's Key)
	uncited map[string]uint32  // values a search draws on but no proof cites (AddUncited), by key
	also    map[string][]int32 // the other certificates that hold a value, by key
	sources []string           // addresses of the certificates, by index
	entries []int              // their entries, by index
	cites   [][]string         // the addresses each cites, by index
}

type pooled struct {
	g      uint32
	source int32 // index into sources: the first certificate read that holds it (also: the others)
}

// MaxPoolEntries bounds the entries a pool reads, all files together: a
// directory of strangers' certificates must not take the memory of the
// search it serves. It is far above the corpus of every n ≤ 47 (310,619
// distinct values).
const MaxPoolEntries = 1 << 24

// PoolEntryBytes is an estimate of the memory one pooled value takes, in
// the pool and in the search's database together (its key, twice, and
// two map entries): what a search's memory budget counts for it.
const PoolEntryBytes = 160

// LoadPool reads the Sprouts certificates in dirs: LoadPoolOf(ctx,
// sprouts.Game, dirs, skip, progress).
func LoadPool(ctx context.Context, dirs []string, skip []string, progress func(done, total int)) (*Pool, error) {
	return LoadPoolOf(ctx, sprouts.Game, dirs, skip, progress)
}

// LoadPoolOf reads the certificates of the game of the given name in dirs
// (the regular files named <address>.arrow; a link is not followed, and a
// certificate of another game is passed by). A file that is not a readable certificate, or whose
// rows do not hash to its name, is an error naming it; so are two
// certificates that give one position different values. It reads the
// files without checking their proofs: see Pool. progress, if set, is
// called after each file with the number read and the number in all.
// The certificates whose addresses skip lists are left out.
func LoadPoolOf(ctx context.Context, name string, dirs []string, skip []string, progress func(done, total int)) (*Pool, error) {
	g, err := game.Get(name)
	if err != nil {
		return nil, fmt.Errorf("certificates to draw on: %w", err)
	}
	type file struct {
		path, addr string
		entries    int
	}
	var files []file
	for _, dir := range dirs {
		names, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("certificates to draw on: %w", err)
		}
		for _, n := range names {
			addr, ok := strings.CutSuffix(n.Name(), ".arrow")
			if !ok || !format.IsAddress(addr) || !n.Type().IsRegular() || slices.Contains(skip, addr) {
				continue
			}
			path := filepath.Join(dir, n.Name())
			r, err := format.OpenCertificate(path)
			if err != nil {
				return nil, fmt.Errorf("certificates to draw on: %s: %w", path, err)
			}
			h, n := r.Header(), r.DeclaredEntries()
			r.Close()
			if h.Game != name {
				continue
			}
			if n > MaxPoolEntries {
				return nil, fmt.Errorf("certificates to draw on: %s: more than %d entries", path, MaxPoolEntries)
			}
			files = append(files, file{path: path, addr: addr, entries: int(n)})
		}
	}
	slices.SortFunc(files, func(a, b file) int {
		if c := cmp.Compare(a.entries, b.entries); c != 0 {
			return c
		}
		return strings.Compare(a.addr, b.addr)
	})
	files = slices.CompactFunc(files, func(a, b file) bool { return a.addr == b.addr })
	p := &Pool{Game: name, Dirs: dirs, rules: g, values: map[string]pooled{}}
	total := 0
	for _, f := range files {
		if total += f.entries; total > MaxPoolEntries {
			return nil, fmt.Errorf("certificates to draw on: more than %d entries in all (at %s)", MaxPoolEntries, f.path)
		}
	}
	// The files are read and their positions keyed on every core, then
	// merged in order, so that which certificate a value is taken from
	// does not depend on the workers.
	read := make([]chan readFile, len(files))
	for i := range read {
		read[i] = make(chan readFile, 1)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	defer wg.Wait()
	stop := make(chan struct{})
	defer close(stop)
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) || ctx.Err() != nil {
					return
				}
				select {
				case read[i] <- readCert(g, files[i].path, files[i].addr):
				case <-stop:
					return
				}
			}
		})
	}
	for i := range files {
		var rf readFile
		select {
		case rf = <-read[i]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if rf.err != nil {
			return nil, rf.err
		}
		if err := p.add(rf); err != nil {
			return nil, err
		}
		p.Files++
		if progress != nil {
			progress(i+1, len(files))
		}
	}
	return p, nil
}

// readFile is the entries of one certificate, keyed.
type readFile struct {
	path, addr string
	cites      []string
	keys       []string
	texts      []string
	values     []uint32
	foreign    bool // a certificate of another game: not read
	err        error
}

// readCert reads the certificate at path, of address addr, a certificate
// of g, and keys its entries.
func readCert(g game.Game, path, addr string) readFile {
	rf := readFile{path: path, addr: addr}
	fail := func(err error) readFile {
		rf.err = fmt.Errorf("certificates to draw on: %s: %w", path, err)
		return rf
	}
	r, err := format.OpenCertificate(path)
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	h := r.Header()
	if h.Game != g.Info().Name {
		rf.foreign = true
		return rf
	}
	rf.cites = h.Cites
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(err)
		}
		pos, err := g.Parse(e.Position)
		if err != nil || g.NumComponents(pos) != 1 {
			return fail(fmt.Errorf("row %d: %q is not one %s", r.Row(), e.Position, strings.TrimSuffix(g.Info().ComponentName, "s")))
		}
		rf.keys, rf.texts, rf.values = append(rf.keys, g.Key(pos)), append(rf.texts, e.Position), append(rf.values, e.Grundy)
	}
	got, err := r.Address()
	if err != nil {
		return fail(err)
	}
	if got != addr {
		return fail(fmt.Errorf("its content hashes to %s, not its name", got))
	}
	return rf
}

// add takes the values of rf that the pool does not hold yet.
func (p *Pool) add(rf readFile) error {
	src := int32(len(p.sources))
	p.sources = append(p.sources, rf.addr)
	p.entries = append(p.entries, len(rf.keys))
	p.cites = append(p.cites, rf.cites)
	for i, k := range rf.keys {
		if old, ok := p.values[k]; ok {
			if old.g != rf.values[i] {
				return fmt.Errorf("certificates to draw on: %s and %s give %s the values %d and %d", p.sources[old.source], rf.addr, rf.texts[i], old.g, rf.values[i])
			}
			if p.also == nil {
				p.also = map[string][]int32{}
			}
			p.also[k] = append(p.also[k], src)
			continue
		}
		p.values[k] = pooled{g: rf.values[i], source: src}
	}
	return nil
}

// PoolBytes is PoolBytesOf for Sprouts, the pool of LoadPool.
func PoolBytes(dirs []string) (int64, error) { return PoolBytesOf(sprouts.Game, dirs) }

// PoolBytesOf estimates, from the headers of the certificates in dirs
// alone, the memory LoadPoolOf's pool of the named game would take (PoolEntryBytes for every entry
// they declare: an upper bound, as a position held by several counts
// once), so that a search can plan its memory before reading them.
func PoolBytesOf(name string, dirs []string) (int64, error) {
	var entries uint64
	for _, dir := range dirs {
		names, err := os.ReadDir(dir)
		if err != nil {
			return 0, fmt.Errorf("certificates to draw on: %w", err)
		}
		for _, n := range names {
			addr, ok := strings.CutSuffix(n.Name(), ".arrow")
			if !ok || !format.IsAddress(addr) || !n.Type().IsRegular() {
				continue
			}
			r, err := format.OpenCertificate(filepath.Join(dir, n.Name()))
			if err != nil {
				return 0, fmt.Errorf("certificates to draw on: %s: %w", filepath.Join(dir, n.Name()), err)
			}
			if r.Header().Game == name {
				entries += min(r.DeclaredEntries(), MaxPoolEntries)
			}
			r.Close()
		}
	}
	return int64(min(entries, MaxPoolEntries)) * PoolEntryBytes, nil
}

// Len returns the number of values in the pool, those it draws on
// uncited included.
func (p *Pool) Len() int {
	if p == nil {
		return 0
	}
	return len(p.values) + len(p.uncited)
}

// Uncited returns the number of values added by AddUncited.
func (p *Pool) Uncited() int {
	if p == nil {
		return 0
	}
	return len(p.uncited)
}

// AddUncited reads the certificates of the pool's game in dir as
// LoadPoolOf does (those of other games are passed by) and adds the
// values of theirs that the pool does not hold yet, for a search to draw
// on but for no proof to cite: a proof that relies on one holds it as an
// entry of its own. They are the lemmas of an unfinished search,
// which are retired once its result is certified and so must not be
// cited. A value that one of the pool's certificates gives otherwise is
// an error naming both. It returns the number of files and of values
// added; a dir that does not exist adds nothing.
func (p *Pool) AddUncited(dir string) (files, values int, err error) {
	names, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("certificates to draw on: %w", err)
	}
	if p.uncited == nil {
		p.uncited = map[string]uint32{}
	}
	from := map[string]string{}
	for _, n := range names {
		addr, ok := strings.CutSuffix(n.Name(), ".arrow")
		if !ok || !format.IsAddress(addr) || !n.Type().IsRegular() {
			continue
		}
		if p.rules == nil { // a pool not made by LoadPoolOf: Sprouts
			p.Game, p.rules = sprouts.Game, game.MustGet(sprouts.Game)
		}
		rf := readCert(p.rules, filepath.Join(dir, n.Name()), addr)
		if rf.err != nil {
			return files, values, rf.err
		}
		if rf.foreign {
			continue // the lemmas of a search of another game
		}
		if len(p.values)+len(p.uncited)+len(rf.keys) > MaxPoolEntries {
			return files, values, fmt.Errorf("certificates to draw on: more than %d entries in all (at %s)", MaxPoolEntries, rf.path)
		}
		files++
		for i, k := range rf.keys {
			g := rf.values[i]
			if old, ok := p.values[k]; ok {
				if old.g != g {
					return files, values, fmt.Errorf("certificates to draw on: %s and %s give %s the values %d and %d", p.sources[old.source], addr, rf.texts[i], old.g, g)
				}
				continue
			}
			if old, ok := p.uncited[k]; ok {
				if old != g {
					return files, values, fmt.Errorf("certificates to draw on: %s and %s give %s the values %d and %d", from[k], addr, rf.texts[i], old, g)
				}
				continue
			}
			p.uncited[k], from[k] = g, addr
			values++
		}
	}
	return files, values, nil
}

// Bytes estimates the memory the pool's values take in the pool and in a
// search's database together (PoolEntryBytes each).
func (p *Pool) Bytes() int64 { return int64(p.Len()) * PoolEntryBytes }

// Preload puts every value of the pool into db, where a search finds it.
// A value db already holds is left as it is.
func (p *Pool) Preload(db *solve.NimberDB) {
	if p == nil {
		return
	}
	for k, v := range p.values {
		if _, ok := db.Get(k); !ok {
			db.Put(k, v.g)
		}
	}
	for k, g := range p.uncited {
		if _, ok := db.Get(k); !ok {
			db.Put(k, g)
		}
	}
}

// cite marks in d every value of the pool as proved by a certificate:
// which ones the proof then cites, cover chooses.
func (p *Pool) cite(d *verify.Database) {
	if p == nil {
		return
	}
	for k, v := range p.values {
		d.Cite(k, v.g)
	}
}

// Library returns a checker's library that finds the pool's certificates.
func (p *Pool) Library() *verify.Library {
	if p == nil {
		return verify.NewLibrary()
	}
	return verify.NewLibrary(p.Dirs...)
}

// cover returns the addresses of certificates of the pool that hold
// between them every value of keys (keys of the pool), chosen so that
// their closures (each with what it cites, directly or not) add up to few
// entries: the greedy rule of weighted set cover, taking each time the
// certificate that covers most keys for the entries it adds, and every
// certificate already in a chosen one's closure for free. Ties go to the
// least address. The result is sorted.
func (p *Pool) cover(keys []string) []string {
	byAddr := make(map[string]int, len(p.sources))
	for i, a := range p.sources {
		byAddr[a] = i
	}
	holds := make([][]int, len(p.sources)) // the indices into keys each source holds
	for ki, k := range keys {
		v, ok := p.values[k]
		if !ok {
			continue
		}
		holds[v.source] = append(holds[v.source], ki)
		for _, s := range p.also[k] {
			holds[s] = append(holds[s], ki)
		}
	}
	closure := func(i int) []int {
		seen := map[int]bool{i: true}
		stack, out := []int{i}, []int{i}
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, a := range p.cites[j] {
				if k, ok := byAddr[a]; ok && !seen[k] {
					seen[k] = true
					out = append(out, k)
					stack = append(stack, k)
				}
			}
		}
		return out
	}
	covered := make([]bool, len(keys))
	left := len(keys)
	verified := map[int]bool{} // in the closure of a chosen certificate
	var chosen []string
	for left > 0 {
		best, bestNew, bestCost := -1, 0, 0
		for i := range p.sources {
			n := 0
			for _, ki := range holds[i] {
				if !covered[ki] {
					n++
				}
			}
			if n == 0 {
				continue
			}
			cost := 0
			for _, j := range closure(i) {
				if !verified[j] {
					cost += p.entries[j] + 1
				}
			}
			// n/cost > bestNew/bestCost, without division.
			if best < 0 || n*bestCost > bestNew*cost || n*bestCost == bestNew*cost && p.sources[i] < p.sources[best] {
				best, bestNew, bestCost = i, n, cost
			}
		}
		if best < 0 {
			break // keys the pool does not hold: not this function's to cite
		}
		chosen = append(chosen, p.sources[best])
		for _, j := range closure(best) {
			verified[j] = true
		}
		for _, ki := range holds[best] {
			if !covered[ki] {
				covered[ki] = true
				left--
			}
		}
	}
	slices.Sort(chosen)
	return chosen
}
