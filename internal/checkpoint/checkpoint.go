// Package checkpoint saves a long DFPN search to a directory and resumes
// it in a later process, so that a solve of several hours survives a
// crash, a reboot or a Ctrl-C.
//
// A checkpoint is what the search has learnt: its nimber database (every
// Grundy value proved, which is also what a certificate is made from) and
// its transposition table (proved and unproved couples with their numbers).
// A search resumed from both re-enters the tree at the root and finds most
// of its work in the table; what the table had lost to eviction it finds
// again, faster than the first time, through the database.
//
// A directory holds one checkpoint: manifest.json, which names the files
// of one generation with their sizes and BLAKE3 sums, and those files,
// table-G.bin.zst and nimbers-G.spr.zst. A save writes the files of a new
// generation first and the manifest last (each through a temporary file
// and a rename over whatever is at its name, a link planted there
// included: WriteOwned), then removes the old generation's files: a crash
// at any moment leaves a manifest that names whole files.
//
// A checkpoint is input, not truth: its sums have no key, so anyone who
// can write the directory can forge one. Restore refuses files that are
// not regular, too large, damaged or inconsistent (two values for one
// position), but the values themselves are believed by the search; a
// caller that reports a result of a resumed search checks it first
// (spots-solve --resume derives it from the rules, and solves again
// without the checkpoint if it cannot).
package checkpoint

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/zeebo/blake3"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// ManifestName is the file of a checkpoint directory that describes it.
const ManifestName = "manifest.json"

// maxManifest bounds the manifest read: it is a few hundred bytes.
const maxManifest = 1 << 20

// Manifest describes a checkpoint: the search it belongs to, how far the
// search had come over all its runs, and the files that hold it.
type Manifest struct {
	Position   string          `json:"position"` // canonical text of the root
	Heap       uint32          `json:"heap"`
	Nimber     bool            `json:"nimber"`     // the search computes the Grundy value
	Algorithm  solve.Algorithm `json:"algorithm"`  // by name; an unknown one fails Load
	Capacity   int             `json:"capacity"`   // table entries of the last run
	Iterations uint64          `json:"iterations"` // over all runs
	Seconds    float64         `json:"seconds"`    // search time over all runs
	Runs       int             `json:"runs"`       // processes that searched
	Nimbers    int             `json:"nimbers"`
	Entries    int             `json:"table_entries"`
	Saved      time.Time       `json:"saved"`
	Version    string          `json:"version"` // of the program that saved it
	Generation uint64          `json:"generation"`
	Files      []File          `json:"files"`
}

// File is one file of a checkpoint, as the manifest names it.
type File struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	BLAKE3 string `json:"blake3"` // of the file's bytes, hex
}

// Search is what a checkpoint saves and restores: a DFPN search.
type Search interface {
	DB() *solve.NimberDB
	WriteTable(io.Writer) (int, error)
	ReadTable(io.Reader) (int, error)
}

// ErrNone is returned by Load when the directory holds no checkpoint.
var ErrNone = errors.New("no checkpoint")

// Same reports whether m is a checkpoint of the same question: the same
// root, heap and kind of search (outcome or Grundy value).
func (m Manifest) Same(o Manifest) bool {
	return m.Position == o.Position && m.Heap == o.Heap && m.Nimber == o.Nimber
}

// Describe is a line saying how far the checkpoint's search had come.
func (m Manifest) Describe() string {
	return fmt.Sprintf("%d run(s), %s of search, %d iterations, %d Grundy values, %d table entries, saved %s",
		m.Runs, (time.Duration(m.Seconds) * time.Second).Round(time.Second), m.Iterations, m.Nimbers, m.Entries,
		m.Saved.Format(time.RFC3339))
}

// Save writes the search's table and database into dir as the next
// generation of the checkpoint described by m (whose Position, Heap,
// Nimber, Algorithm, Capacity, Iterations, Seconds, Runs and Version the
// caller fills), and removes the previous generation. It may be called
// while the search runs, from solve.Options.Checkpoint.
func Save(dir string, m Manifest, s Search) (Manifest, error) {
	if !m.Algorithm.Valid() {
		// Refused before any file is written: the manifest could not say it.
		return m, fmt.Errorf("save: the search's algorithm %v has no name", m.Algorithm)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return m, err
	}
	old, err := Load(dir)
	if err != nil && !errors.Is(err, ErrNone) {
		old = Manifest{} // a damaged checkpoint is replaced, not extended
	}
	m.Generation = old.Generation + 1
	m.Saved = time.Now().UTC()
	m.Files = nil
	table, err := writeFile(dir, fmt.Sprintf("table-%d.bin.zst", m.Generation), func(w io.Writer) error {
		var err error
		m.Entries, err = s.WriteTable(w)
		return err
	})
	if err != nil {
		return m, fmt.Errorf("save table: %w", err)
	}
	var nimbers int
	dbFile, err := writeFile(dir, fmt.Sprintf("nimbers-%d.spr.zst", m.Generation), func(w io.Writer) error {
		entries, err := DBEntries(s.DB())
		nimbers = len(entries)
		if err != nil {
			return err
		}
		return format.WriteSPR(w, entries)
	})
	if err != nil {
		return m, fmt.Errorf("save nimber database: %w", err)
	}
	m.Files = []File{table, dbFile}
	m.Nimbers = nimbers
	if err := WriteOwned(filepath.Join(dir, ManifestName), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}); err != nil {
		return m, fmt.Errorf("save manifest: %w", err)
	}
	for _, f := range old.Files {
		if f.Name != table.Name && f.Name != dbFile.Name {
			os.Remove(filepath.Join(dir, f.Name))
		}
	}
	return m, nil
}

// writeFile writes a zstd-compressed file through write and returns its
// manifest entry.
func writeFile(dir, name string, write func(io.Writer) error) (File, error) {
	f := File{Name: name}
	h := blake3.New()
	err := WriteOwned(filepath.Join(dir, name), func(w io.Writer) error {
		cw := &format.CountingWriter{W: io.MultiWriter(w, h)}
		z, err := zstd.NewWriter(cw, zstd.WithEncoderLevel(zstd.SpeedFastest))
		if err != nil {
			return err
		}
		if err := write(z); err != nil {
			z.Close()
			return err
		}
		if err := z.Close(); err != nil {
			return err
		}
		f.Bytes = cw.N
		return nil
	})
	f.BLAKE3 = hex.EncodeToString(h.Sum(nil))
	return f, err
}

// DBEntries lists the database in the text form of spots-solve --db-out,
// which a checkpoint's nimbers file holds: positions in canonical text.
func DBEntries(db *solve.NimberDB) ([]format.SPREntry, error) {
	var entries []format.SPREntry
	var err error
	db.Range(func(key string, g uint32) bool {
		var p sprouts.Position
		if p, err = sprouts.FromKey(key); err != nil {
			return false
		}
		entries = append(entries, format.SPREntry{Position: p.String(), Grundy: g})
		return true
	})
	return entries, err
}

// Load reads the manifest of the checkpoint in dir. It returns an error
// wrapping ErrNone when dir holds none.
func Load(dir string) (Manifest, error) {
	var m Manifest
	path := filepath.Join(dir, ManifestName)
	data, err := format.ReadInput(path, maxManifest)
	if errors.Is(err, os.ErrNotExist) {
		return m, fmt.Errorf("%s: %w", dir, ErrNone)
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%s: %w", ManifestName, err)
	}
	if len(m.Files) != 2 {
		return m, fmt.Errorf("%s: names %d files, want a table and a nimber database", ManifestName, len(m.Files))
	}
	for _, f := range m.Files {
		if f.Name != filepath.Base(f.Name) || !strings.HasSuffix(f.Name, ".zst") || strings.HasPrefix(f.Name, ".") {
			return m, fmt.Errorf("%s: file name %q is not one of a checkpoint", ManifestName, f.Name)
		}
		if f.Bytes < 0 {
			return m, fmt.Errorf("%s: file %s of %d bytes", ManifestName, f.Name, f.Bytes)
		}
	}
	return m, nil
}

// Restore loads the checkpoint m of dir into s (before s searches): its
// table entries into the table, its Grundy values into the database. Each
// file must be a regular file with the size and BLAKE3 sum the manifest
// gives, and decompress to at most MaxExpansion times that size; two
// values for one position are refused. The end of ctx stops it.
//
// The sums prove that the files are those the manifest names, not that a
// search wrote them: they have no key. What a checkpoint says is input, not
// truth (see spots-solve's --resume).
func Restore(ctx context.Context, dir string, m Manifest, s Search) error {
	if err := readFile(ctx, dir, m.Files[0], func(r io.Reader) error {
		_, err := s.ReadTable(r)
		return err
	}); err != nil {
		return err
	}
	return readFile(ctx, dir, m.Files[1], func(r io.Reader) error {
		db := s.DB()
		return format.NewSPRReader(r, format.SPROptions{}).Each(func(e format.SPREntry) error {
			p, err := sprouts.Parse(e.Position)
			if err != nil {
				return &format.LineError{Line: e.Line, Text: e.Position, Reason: err.Error()}
			}
			if p.NumLands() != 1 {
				return &format.LineError{Line: e.Line, Text: e.Position, Reason: "not one land"}
			}
			if g, ok := db.Get(p.Key()); ok && g != e.Grundy {
				return &format.LineError{Line: e.Line, Text: e.Position,
					Reason: fmt.Sprintf("gives %s the Grundy value %d, but an earlier line (or --db-in) gives it %d: the checkpoint is damaged", p, e.Grundy, g)}
			}
			db.Learn(p.Key(), e.Grundy)
			return nil
		})
	})
}

// MaxExpansion bounds how many times its size a checkpoint file may
// decompress to: a file that expands more is refused as damaged. A saved
// table expands about 1.8 times, a saved database about 3.5 times (of
// 0*17 and gn(0*20)); the bound keeps a forged file of a few kilobytes from
// costing gigabytes of memory (the database) or hours (the table).
const MaxExpansion = 64

// readFile checks a checkpoint file against its manifest entry, then
// passes its decompressed content to read: a damaged file is refused
// before any of it reaches the search.
func readFile(ctx context.Context, dir string, f File, read func(io.Reader) error) error {
	path := filepath.Join(dir, f.Name)
	file, err := format.OpenInput(path)
	if err != nil {
		return err
	}
	defer file.Close()
	h := blake3.New()
	n, err := io.Copy(h, format.NewBoundedReader(file, path, format.Bounds{File: f.Bytes, Ctx: ctx}))
	if errors.Is(err, format.ErrTooLong) {
		return fmt.Errorf("%s: over %d bytes, the size the manifest gives: the checkpoint is damaged", f.Name, f.Bytes)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	if n != f.Bytes {
		return fmt.Errorf("%s: %d bytes, the manifest says %d: the checkpoint is damaged", f.Name, n, f.Bytes)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != f.BLAKE3 {
		return fmt.Errorf("%s: BLAKE3 %s, the manifest says %s: the checkpoint is damaged", f.Name, sum, f.BLAKE3)
	}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	z, err := format.NewZstdReader(io.LimitReader(file, f.Bytes))
	if err != nil {
		return err
	}
	defer z.Close()
	limit := MaxExpansion*f.Bytes + 1<<20
	if err := read(format.NewBoundedReader(z, path, format.Bounds{File: limit, Ctx: ctx})); err != nil {
		if errors.Is(err, format.ErrTooLong) {
			return fmt.Errorf("%s: decompresses to more than %d times its size: the checkpoint is damaged", f.Name, MaxExpansion)
		}
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	return nil
}

// Remove deletes the checkpoint of dir: its manifest and the files it
// names, and its lock file (LockName: the caller holds the lock, and
// writes nothing there after), then dir itself if nothing else is left in
// it. A directory that holds no checkpoint is left alone.
func Remove(dir string) error {
	m, err := Load(dir)
	if errors.Is(err, ErrNone) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, f := range m.Files {
		if err := os.Remove(filepath.Join(dir, f.Name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := os.Remove(filepath.Join(dir, ManifestName)); err != nil {
		return err
	}
	os.Remove(filepath.Join(dir, LockName))
	os.Remove(dir) // only if empty
	return nil
}
