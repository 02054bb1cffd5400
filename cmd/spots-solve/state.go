package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// newStateSaver returns the checkpoint of the one search of the command
// line in --state (or, without it, back in --resume), or nil without
// either. The search it saves is the one newSearcher makes with it.
func newStateSaver(cfg config, root sprouts.Position, heap uint32, stderr io.Writer, prog *statusline.Line) *prove.Checkpoint {
	dir := cfg.swarm.stateDir
	if dir == "" {
		dir = cfg.swarm.resumeDir // go on saving where the search came from
	}
	if dir == "" {
		return nil
	}
	q := prove.Question{Root: root.String(), Heap: heap, Nimber: cfg.nimber,
		Algorithm: cfg.algorithm, Capacity: cfg.plan.Capacity, Version: buildinfo.Version()}
	return prove.NewCheckpoint(dir, q, func(line string) {
		prog.Clear()
		fmt.Fprintf(stderr, "spots-solve: %s\n", line)
	})
}

// errStateUse is returned for --state or --resume where they cannot apply.
var errStateUse = errors.New("--state and --resume save and continue one dfpn or pdfpn search (or a swarm's): give one position and --algorithm dfpn, pdfpn or swarm")

// The files of a search saved in a --state directory: a checkpoint of dfpn
// or pdfpn (its manifest names the rest), or a swarm master's state.
const (
	swarmStateFile   = "state.json"
	swarmNimbersFile = "nimbers.spr"
)

// claimStateDir makes the --state directory ready for this run's search. A
// directory that already holds a search is not written over: unless the
// run resumes that search (--resume names the same directory), it is
// refused, or with force the search there is moved aside (moveAside). It
// returns a line saying what force did, or "".
func claimStateDir(dir, resume string, force bool) (string, error) {
	if dir == "" {
		return "", nil
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return "", fmt.Errorf("--state %s: not a directory", dir)
	}
	if resume != "" && filepath.Clean(dir) == filepath.Clean(resume) {
		return "", nil // the search there goes on
	}
	held := savedSearch(dir)
	switch {
	case held == "":
		return "", nil
	case !force:
		return "", fmt.Errorf("--state %s already holds %s: give --resume %s to continue it, another directory to start a new search, or --force to move it aside (into %s)",
			dir, held, dir, filepath.Join(dir, "previous-N"))
	}
	to, err := moveAside(dir)
	if err != nil {
		return "", fmt.Errorf("--force: moving the search in %s aside: %w", dir, err)
	}
	return fmt.Sprintf("--force: moved %s aside into %s", held, to), nil
}

// savedSearch describes the search saved in dir, or returns "" if there is
// none.
func savedSearch(dir string) string {
	m, err := checkpoint.Load(dir)
	switch {
	case err == nil:
		return fmt.Sprintf("a search of %s (%s)", m.Position, m.Describe())
	case !errors.Is(err, checkpoint.ErrNone):
		return fmt.Sprintf("a checkpoint that cannot be read (%v)", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, swarmStateFile)); err == nil {
		return "a swarm master's saved state"
	}
	return ""
}

// moveAside moves the search saved in dir (the checkpoint's manifest and
// its files, a swarm's state and database) into a new directory
// dir/previous-N, the first N free, and returns that directory. Nothing
// else in dir is touched.
func moveAside(dir string) (string, error) {
	var to string
	for n := 1; ; n++ {
		to = filepath.Join(dir, fmt.Sprintf("previous-%d", n))
		err := os.Mkdir(to, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
	names := []string{checkpoint.ManifestName, swarmStateFile, swarmNimbersFile}
	if m, err := checkpoint.Load(dir); err == nil {
		for _, f := range m.Files {
			names = append(names, f.Name)
		}
	}
	for _, name := range names {
		err := os.Rename(filepath.Join(dir, name), filepath.Join(to, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}
	return to, nil
}

// resumeChecked wraps the search s, resumed from the checkpoint of dir, in
// a prove.Resumed, which reports a result only once the checker derived it
// from the rules with the search's values. Its restart says why on stderr, moves the checkpoint
// aside if the search saves into its directory (so that it is neither
// resumed again nor lost), and makes the search again with fresh values:
// those of --db-in, read again, and no others.
func resumeChecked(ctx context.Context, cfg config, s solve.Searcher[sprouts.Position], saver *prove.Checkpoint, dir string,
	prog *statusline.Line, stderr io.Writer) *prove.Resumed[sprouts.Position] {
	say := func(format string, a ...any) {
		prog.Clear()
		fmt.Fprintf(stderr, "spots-solve: "+format+"\n", a...)
	}
	return &prove.Resumed[sprouts.Position]{Searcher: s, Game: sprouts.Game, Progress: checking(prog), Restart: func(why error) solve.Searcher[sprouts.Position] {
		aside := ""
		if filepath.Clean(saver.Dir()) == filepath.Clean(dir) {
			if to, err := moveAside(dir); err != nil {
				aside = fmt.Sprintf(" (moving it aside failed: %v)", err)
			} else {
				aside = "; moved it aside into " + to
			}
		}
		say("--resume %s: the checkpoint's values do not prove the result found with them, %v: the checkpoint is damaged or forged%s; solving again without it", dir, why, aside)
		db := solve.NewNimberDB()
		if cfg.dbIn != "" {
			if _, err := loadDB(ctx, db, cfg.dbIn, dbInOptions(cfg, io.Discard, nil)); err != nil {
				say("--db-in %s: %v; solving without it", cfg.dbIn, err)
				db = solve.NewNimberDB()
			}
		}
		saver.Forget()
		fresh, _ := newSearcher(cfg, sproutsRules(cfg), db, prog, saver) // cfg made the search resumed: it makes this one
		return dbInChecked(ctx, cfg, fresh, saver, prog, stderr)
	}}
}

// dbInChecked makes a search preloaded with --db-in check its results as
// a resumed one does (prove.Resumed): the database is input, not truth,
// and a value in it can make the search answer wrongly (0*12 W with a
// line "0*12 1"). An outcome or Grundy value is returned only once the
// checker has derived it from the rules with the search's values; if it
// cannot, the search is made again without the database, says so, and
// solves from nothing. Without --db-in it returns s.
func dbInChecked(ctx context.Context, cfg config, s solve.Searcher[sprouts.Position], saver *prove.Checkpoint,
	prog *statusline.Line, stderr io.Writer) solve.Searcher[sprouts.Position] {
	if cfg.dbIn == "" {
		return s
	}
	return &prove.Resumed[sprouts.Position]{Searcher: s, Game: sprouts.Game, Progress: checking(prog), Restart: func(why error) solve.Searcher[sprouts.Position] {
		prog.Clear()
		fmt.Fprintf(stderr, "spots-solve: --db-in %s: its values do not prove the result found with them, %v: solving again without them\n", cfg.dbIn, why)
		if saver != nil {
			saver.Forget()
		}
		fresh, _ := newSearcher(cfg, sproutsRules(cfg), solve.NewNimberDB(), prog, saver) // cfg made the search that failed: it makes this one
		return fresh
	}}
}

// reuseChecked returns s drawing on the certificates of pool as a
// prove.Resumed (or s itself, given the pool, when it is one already): a
// result is reported only once the checker has derived it from the rules
// with the certificates it relies on, each verified (with lib, so that
// --cert does not verify them again). If they do not back it, the position
// is solved again without them.
func reuseChecked(ctx context.Context, cfg config, s solve.Searcher[sprouts.Position], pool *certify.Pool, lib *verify.Library,
	saver *prove.Checkpoint, prog *statusline.Line, stderr io.Writer) solve.Searcher[sprouts.Position] {
	if r, ok := s.(*prove.Resumed[sprouts.Position]); ok {
		r.Pool, r.Library = pool, lib
		return r
	}
	return &prove.Resumed[sprouts.Position]{Searcher: s, Game: sprouts.Game, Pool: pool, Library: lib, Progress: checking(prog), Restart: func(why error) solve.Searcher[sprouts.Position] {
		prog.Clear()
		fmt.Fprintf(stderr, "spots-solve: --reuse: the certificates drawn on do not prove the result found with them, %v; solving again without them\n", why)
		db := solve.NewNimberDB()
		if cfg.dbIn != "" {
			if _, err := loadDB(ctx, db, cfg.dbIn, dbInOptions(cfg, io.Discard, nil)); err != nil {
				db = solve.NewNimberDB()
			}
		}
		if saver != nil {
			saver.Forget()
		}
		fresh, _ := newSearcher(cfg, sproutsRules(cfg), db, prog, saver) // cfg made the search that failed: it makes this one
		return fresh
	}}
}
