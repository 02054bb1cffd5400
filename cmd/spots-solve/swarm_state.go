package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// savedState is what --state writes besides the nimber database. Run is
// the run of the master that saved it (swarm.Master.Run): a master
// resumed from it runs under a new one, so that no request signed for
// the saved run is accepted again.
type savedState struct {
	Root    string        `json:"root"`
	Outcome solve.Outcome `json:"outcome"`
	Params  swarm.Params  `json:"params"`
	Saved   time.Time     `json:"saved"`
	Run     string        `json:"run,omitempty"`
}

// resumeMaster loads into db the values --resume saved, if it is given
// and something was saved, and returns the run that saved them ("" if
// none or unknown).
func resumeMaster(ctx context.Context, sf swarmFlags, root sprouts.Position, db *solve.NimberDB, stderr io.Writer) (string, error) {
	switch {
	case sf.resumeDir == "":
		return "", nil
	case nothingSaved(sf):
		fmt.Fprintf(stderr, "spots-solve: nothing saved in %s yet: starting afresh\n", sf.resumeDir)
		return "", nil
	}
	run, err := loadState(ctx, sf.resumeDir, root, db, stderr)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(stderr, "spots-solve: resumed with %d Grundy values from %s\n", db.Len(), sf.resumeDir)
	return run, nil
}

// saveState writes the master's database and state into dir, each through
// a temporary file and a rename over whatever is at its name. Once an audit proved the root, the
// database saved is the proof's values: each was checked, where a value
// no check could refute may still be a lie.
func saveState(dir string, root sprouts.Position, m *swarm.Master, params swarm.Params) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	db := m.DB()
	if proved := m.ProvedValues(); proved != nil {
		db = proved
	}
	entries, err := checkpoint.DBEntries(db)
	if err != nil {
		return err
	}
	// The directory is the run's: a link planted at a file's name is
	// replaced, not followed (checkpoint.WriteOwned).
	if err := checkpoint.WriteOwned(filepath.Join(dir, "nimbers.spr"), func(w io.Writer) error { return format.WriteSPR(w, entries) }); err != nil {
		return err
	}
	st := savedState{Root: root.String(), Outcome: m.Outcome(), Params: params, Saved: time.Now().UTC(), Run: m.Run()}
	return checkpoint.WriteOwned(filepath.Join(dir, "state.json"), func(w io.Writer) error {
		return json.NewEncoder(w).Encode(st)
	})
}

// loadState loads the master's state saved in dir into db, and returns
// the run that saved it.
func loadState(ctx context.Context, dir string, root sprouts.Position, db *solve.NimberDB, stderr io.Writer) (string, error) {
	data, err := format.ReadInput(filepath.Join(dir, "state.json"), maxStateFile)
	if err != nil {
		return "", err
	}
	var st savedState
	if err := json.Unmarshal(data, &st); err != nil {
		return "", fmt.Errorf("state.json: %w", err)
	}
	if st.Root != root.String() {
		return "", fmt.Errorf("the saved solve is of %s, not %s", st.Root, root)
	}
	return st.Run, loadSaved(ctx, db, filepath.Join(dir, "nimbers.spr"), stderr)
}

// maxStateFile bounds the master's state.json: it is a few hundred bytes.
const maxStateFile = 1 << 20
