//go:build unix

package checkpoint_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestSaveReplacesLinks: links planted in a checkpoint directory at the
// names a save writes (the manifest, and the files of the next
// generation) are replaced by the save, never followed: the files they
// lead to are left as they were, and the checkpoint is whole. (A save
// wrote its table and database into the files the links led to.)
func TestSaveReplacesLinks(t *testing.T) {
	search := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12})
	search.Solve(context.Background(), sprouts.MustParse("0*5"), 0)
	m := checkpoint.Manifest{Position: "0*5", Algorithm: solve.SearchDFPN, Capacity: 1 << 12, Runs: 1}
	for _, names := range [][]string{
		{checkpoint.ManifestName},
		{"table-1.bin.zst", "nimbers-1.spr.zst"},
		{"nimbers-1.spr.zst"},
	} {
		dir := t.TempDir()
		state := filepath.Join(dir, "state")
		if err := os.Mkdir(state, 0o755); err != nil {
			t.Fatal(err)
		}
		victim := filepath.Join(dir, "victim.txt")
		const keep = "a file the user keeps\n"
		if err := os.WriteFile(victim, []byte(keep), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if err := os.Symlink(victim, filepath.Join(state, name)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := checkpoint.Save(state, m, search); err != nil {
			t.Fatalf("links at %v: %v", names, err)
		}
		if b, err := os.ReadFile(victim); err != nil || string(b) != keep {
			t.Errorf("links at %v: the victim holds %q (%v), want it untouched", names, b, err)
		}
		for _, name := range names {
			if info, err := os.Lstat(filepath.Join(state, name)); err != nil || !info.Mode().IsRegular() {
				t.Errorf("links at %v: %s is %v (%v), want a regular file", names, name, info.Mode(), err)
			}
		}
		got, err := checkpoint.Load(state)
		if err == nil {
			err = checkpoint.Restore(context.Background(), state, got, solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12}))
		}
		if err != nil {
			t.Errorf("links at %v: the checkpoint saved does not restore: %v", names, err)
		}
	}
}
