package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// dbValueBytes is what a value of a database read costs the run beside
// twice its key's bytes: its entry in the search's database (the entry,
// its slot of the table, the table's slack and the key), and its entry in
// the checker's copy of that database when a result found with it is
// checked (prove.Resumed, verify.FromValues: the entry, the position and
// the key), which lives beside the search's. Measured on 300,000 values of
// keys of 83 bytes: 151 and 206 bytes a value.
const dbValueBytes = 192

// dbOptions says how loadDB reads a database and what it may cost.
type dbOptions struct {
	name    string // the file as messages name it: "--db-in FILE"
	lenient bool   // skip malformed lines, counted in one line of stderr
	// Entries bounds the entries read, sums, repeats and positions
	// skipped included, as spots-verify counts them
	// (verify.Limits.Entries: 0 the default, -1 none).
	limits verify.Limits
	// maxBytes bounds the memory the values kept may take (dbValueBytes
	// and twice its key each); 0 sets no bound. room says what leaves that
	// much, for the message of a refusal.
	maxBytes int64
	room     string
	stderr   io.Writer
	prog     *statusline.Line // shows the bytes read (nil: nothing)
}

// dbInOptions are the options of --db-in: its entries held to
// --max-entries, their memory to what the run's memory leaves them.
func dbInOptions(cfg config, stderr io.Writer, prog *statusline.Line) dbOptions {
	room, what := dbRoom(cfg)
	return dbOptions{name: "--db-in " + cfg.dbIn, lenient: cfg.lenient, limits: verify.Limits{Entries: cfg.limits.Entries},
		maxBytes: room, room: what, stderr: stderr, prog: prog}
}

// dbRoom returns the memory the values of --db-in may take and what
// leaves them that much: with --memory, half of the budget left by what
// --reuse's certificates take (the search is planned in the rest,
// replanMemory); without it, what the process may use less the plan of
// the table.
func dbRoom(cfg config) (int64, string) {
	if cfg.memory != "" {
		budget, err := parseSize(cfg.memory)
		if err != nil {
			return 0, ""
		}
		drawn, _ := certify.PoolBytesOf(cfg.game, cfg.reuse)
		what := fmt.Sprintf("--memory %s leaves them (half of it, the search taking the rest)", cfg.memory)
		if drawn > 0 {
			what = fmt.Sprintf("--memory %s leaves them (half of what the certificates of --reuse leave, the search taking the rest)", cfg.memory)
		}
		return max((budget-drawn)/2, 1), what
	}
	usable, what := memguard.Usable()
	if usable == 0 {
		return 0, ""
	}
	return max(int64(usable)-cfg.plan.Budget, 1), "this process may use (" + what + ") beside the search's table"
}

// dbRead is what loadDB read.
type dbRead struct {
	entries   int   // entries read: sums, repeats and positions skipped included
	kept      int   // values kept
	bytes     int64 // the memory of the values kept (dbValueBytes and twice its key each)
	sums      skipped
	malformed skipped // with lenient
}

// skipped counts the lines of one kind that a read skipped, and keeps the
// first: a database of a million such lines is said in one line, not a
// million.
type skipped struct {
	n     int
	first *format.LineError
}

func (s *skipped) add(e *format.LineError) {
	if s.n++; s.first == nil {
		s.first = e
	}
}

// loadDB reads a [Positions+Nimber] database into db, re-keying its
// positions under the canonical form. Positions may be in our notation or
// GLOP's. The file must be a regular file (format.OpenInput); it is read
// entry by entry, a line at most format.MaxSPRLine long, and the end of
// ctx stops the read. Two values for one position are refused; so is the
// entry past opt's limit on entries, and the value whose memory takes the
// values kept past opt.maxBytes, both before it is kept. The lines of sums
// skipped (and with opt.lenient the malformed ones) are said in one line
// each on opt.stderr.
func loadDB(ctx context.Context, db *solve.NimberDB, path string, opt dbOptions) (dbRead, error) {
	var read dbRead
	f, err := format.OpenInput(path)
	if err != nil {
		return read, err
	}
	defer f.Close()
	var size int64
	if info, err := f.Stat(); err == nil {
		size = info.Size()
	}
	counted := &countingReader{r: format.NewBoundedReader(f, path, format.Bounds{Ctx: ctx})}
	sr := format.NewSPRReader(counted, format.SPROptions{Lenient: opt.lenient, Warn: read.malformed.add})
	err = sr.Each(func(e format.SPREntry) error {
		read.entries++
		if err := opt.limits.CheckEntries(e.Line, read.entries); err != nil {
			return err
		}
		if read.entries%4096 == 1 {
			opt.showProgress(counted.n, size, read.entries)
		}
		return read.add(db, e, opt)
	})
	opt.prog.Clear()
	read.say(opt)
	return read, err
}

// loadDBIn reads --db-in into db (loadDB, with dbInOptions), showing its
// progress, and plans the run's memory again with its values taken off
// (replanMemory); it returns the exit status of a failure, or -1. With
// --memory, the collector holds the heap to the budget while it reads.
func (r *runner) loadDBIn(db *solve.NimberDB) int {
	cfg := r.cfg
	// Positions are read into canonical form by sprouts.Parse, which
	// keeps no cache: the read takes none of the search's memory.
	if cfg.memory != "" {
		if budget, err := parseSize(cfg.memory); err == nil {
			// Three quarters: the values take at most half, and the
			// runtime's own memory, beyond the heap, must fit too.
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(budget - budget/4))
		}
	}
	read, err := loadDB(r.ctx, db, cfg.dbIn, dbInOptions(cfg, r.stderr, r.prog))
	if err != nil {
		return r.fail("--db-in %s: %s", cfg.dbIn, cmdline.LimitMessage(err))
	}
	plan, err := replanMemory(cfg, read.bytes)
	if err != nil {
		return r.fail("--db-in %s: %v (give more --memory, or a smaller database)", cfg.dbIn, err)
	}
	r.cfg.plan = plan
	return -1
}

// loadSaved reads the database a swarm's master saved in its state
// directory (loadDB, strict): the values of the run's own search, as many
// as it found, so neither --max-entries nor --db-in's share of the memory
// bounds them.
func loadSaved(ctx context.Context, db *solve.NimberDB, path string, stderr io.Writer) error {
	_, err := loadDB(ctx, db, path, dbOptions{name: path, limits: verify.Limits{Entries: -1}, stderr: stderr})
	return err
}

// add keeps the entry e in db, or skips it (a sum of several lands; with
// lenient, a position that does not parse).
func (read *dbRead) add(db *solve.NimberDB, e format.SPREntry, opt dbOptions) error {
	text, err := fromGLOP(e.Position)
	var p sprouts.Position
	if err == nil {
		p, err = sprouts.Parse(text)
	}
	if err != nil {
		le := &format.LineError{Line: e.Line, Text: e.Position, Reason: err.Error()}
		if opt.lenient {
			read.malformed.add(le)
			return nil
		}
		return le
	}
	if p.NumLands() != 1 {
		read.sums.add(&format.LineError{Line: e.Line, Text: e.Position, Reason: fmt.Sprintf("a sum of %d lands", p.NumLands())})
		return nil
	}
	key := p.Key()
	if g, ok := db.Get(key); ok {
		if g != e.Grundy {
			return &format.LineError{Line: e.Line, Text: e.Position,
				Reason: fmt.Sprintf("gives %s the Grundy value %d, but an earlier line gives it %d", p, e.Grundy, g)}
		}
		return nil
	}
	cost := int64(dbValueBytes + 2*len(key))
	if opt.maxBytes > 0 && read.bytes+cost > opt.maxBytes {
		return fmt.Errorf("refused: line %d: with it the values kept would take about %.1f MB (%s of them), over the %.1f MB that %s: give more --memory, or a smaller database (--max-entries bounds the entries read)",
			e.Line, float64(read.bytes+cost)/1e6, grouped(read.kept+1), float64(opt.maxBytes)/1e6, opt.room)
	}
	read.bytes += cost
	read.kept++
	db.Put(key, e.Grundy)
	return nil
}

// say writes on opt.stderr one line for each kind of line skipped.
func (read *dbRead) say(opt dbOptions) {
	if n := read.sums.n; n > 0 {
		fmt.Fprintf(opt.stderr, "spots-solve: %s: skipped %s %s (positions of several lands: the search looks values up land by land); the first: %v\n",
			opt.name, grouped(n), pick(n, "line of a sum", "lines of sums"), read.sums.first)
	}
	if n := read.malformed.n; n > 0 {
		fmt.Fprintf(opt.stderr, "spots-solve: %s: skipped %s malformed %s (--lenient); the first: %v\n",
			opt.name, grouped(n), pick(n, "line", "lines"), read.malformed.first)
	}
}

// pick returns one for n = 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// showProgress shows how much of the database has been read: reading a
// large one takes minutes.
func (opt dbOptions) showProgress(done, size int64, entries int) {
	if opt.prog == nil {
		return
	}
	of := ""
	if size > 0 {
		of = fmt.Sprintf(" of %.1f", float64(size)/1e6)
	}
	opt.prog.Report(false, "reading", struct {
		Bytes   int64 `json:"bytes"`
		Of      int64 `json:"of,omitempty"`
		Entries int   `json:"entries"`
	}{done, size, entries}, fmt.Sprintf("reading %s: %.1f%s MB, %s entries", opt.name, float64(done)/1e6, of, grouped(entries)))
}

// grouped writes n with its thousands separated by commas: 935,642.
func grouped(n int) string {
	if n < 0 {
		return "-" + grouped(-n)
	}
	s := strconv.Itoa(n)
	start := len(s) % 3
	if start == 0 {
		start = 3
	}
	out := s[:start]
	for i := start; i < len(s); i += 3 {
		out += "," + s[i:i+3]
	}
	return out
}

// saveDB writes db as a [Positions+Nimber] text file, as a checkpoint
// holds it.
func saveDB(db *solve.NimberDB, path string) error {
	entries, err := checkpoint.DBEntries(db)
	if err != nil {
		return err
	}
	return format.WriteSPRFile(path, entries)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
