package checkpoint_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/zeebo/blake3"

	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestSaveAndResume stops a search halfway, saves it twice (two
// generations), and resumes it in a new search that finishes with the
// same outcome in fewer iterations than the whole.
func TestSaveAndResume(t *testing.T) {
	pos := sprouts.MustParse("0*11")
	opt := solve.Options{Capacity: 1 << 14}
	whole := solve.NewDFPN(sprouts.Rules{}, nil, opt)
	want := whole.Solve(context.Background(), pos, 0)
	full := whole.Stats().Iterations

	dir := t.TempDir()
	half := opt
	half.MaxIterations = full / 2
	first := solve.NewDFPN(sprouts.Rules{}, nil, half)
	if first.Solve(context.Background(), pos, 0) != solve.Unknown {
		t.Fatal("the first half solved the position")
	}
	m := checkpoint.Manifest{Position: pos.String(), Algorithm: solve.SearchDFPN, Capacity: opt.Capacity,
		Iterations: first.Stats().Iterations, Runs: 1}
	for range 2 {
		var err error
		if m, err = checkpoint.Save(dir, m, first); err != nil {
			t.Fatal(err)
		}
	}
	names := dirNames(t, dir)
	if want := []string{"manifest.json", "nimbers-2.spr.zst", "table-2.bin.zst"}; !slices.Equal(names, want) {
		t.Errorf("files after two saves: %v, want %v", names, want)
	}

	got, err := checkpoint.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Same(m) || got.Iterations != m.Iterations || int64(got.Entries) != first.Stats().TTEntries ||
		got.Nimbers != first.DB().Len() || got.Generation != 2 {
		t.Errorf("loaded %+v\nsaved %+v (table %d, nimbers %d)", got, m, first.Stats().TTEntries, first.DB().Len())
	}
	second := solve.NewDFPN(sprouts.Rules{}, nil, opt)
	if err := checkpoint.Restore(context.Background(), dir, got, second); err != nil {
		t.Fatal(err)
	}
	if second.DB().Len() != first.DB().Len() {
		t.Errorf("restored %d Grundy values of %d", second.DB().Len(), first.DB().Len())
	}
	if out := second.Solve(context.Background(), pos, 0); out != want {
		t.Fatalf("resumed: %v, whole: %v", out, want)
	}
	if rest := second.Stats().Iterations; rest >= full {
		t.Errorf("the resumed search took %d iterations, the whole %d", rest, full)
	}
}

// TestDamagedCheckpoint: a missing manifest is ErrNone; a file that does
// not match the manifest, or a manifest naming odd files, is an error.
func TestDamagedCheckpoint(t *testing.T) {
	if _, err := checkpoint.Load(t.TempDir()); !errors.Is(err, checkpoint.ErrNone) {
		t.Errorf("empty directory: %v, want ErrNone", err)
	}
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12})
	s.Solve(context.Background(), sprouts.MustParse("0*7"), 0)
	for _, tc := range []struct {
		name, want string
		damage     func(dir string, m checkpoint.Manifest)
	}{
		{"flipped byte", "damaged", func(dir string, m checkpoint.Manifest) {
			path := filepath.Join(dir, m.Files[1].Name)
			b, _ := os.ReadFile(path)
			b[len(b)-1] ^= 1
			os.WriteFile(path, b, 0o644)
		}},
		{"cut short", "damaged", func(dir string, m checkpoint.Manifest) {
			path := filepath.Join(dir, m.Files[0].Name)
			b, _ := os.ReadFile(path)
			os.WriteFile(path, b[:len(b)/2], 0o644)
		}},
		{"missing file", "no such file", func(dir string, m checkpoint.Manifest) {
			os.Remove(filepath.Join(dir, m.Files[0].Name))
		}},
		{"path in manifest", "not one of a checkpoint", func(dir string, m checkpoint.Manifest) {
			b, _ := os.ReadFile(filepath.Join(dir, checkpoint.ManifestName))
			os.WriteFile(filepath.Join(dir, checkpoint.ManifestName), []byte(strings.Replace(string(b), m.Files[0].Name, "../x.zst", 1)), 0o644)
		}},
		// F3: a file that never ends or that blocks its reader is refused
		// at once, naming it.
		{"nimbers a FIFO", "nimbers-1.spr.zst: a named pipe (FIFO), not a regular file", func(dir string, m checkpoint.Manifest) {
			path := filepath.Join(dir, m.Files[1].Name)
			os.Remove(path)
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"table a link to /dev/zero", "table-1.bin.zst (a link to /dev/zero): a character device, not a regular file", func(dir string, m checkpoint.Manifest) {
			path := filepath.Join(dir, m.Files[0].Name)
			os.Remove(path)
			os.Symlink("/dev/zero", path)
		}},
		{"manifest a FIFO", "manifest.json: a named pipe (FIFO), not a regular file", func(dir string, m checkpoint.Manifest) {
			path := filepath.Join(dir, checkpoint.ManifestName)
			os.Remove(path)
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		// A name of no search: the run resumed from it once searched
		// with its own default, whatever the manifest said.
		{"unknown algorithm", `manifest.json: unknown algorithm "mcts" (want pdfpn, dfpn, pns or swarm)`, func(dir string, m checkpoint.Manifest) {
			path := filepath.Join(dir, checkpoint.ManifestName)
			b, _ := os.ReadFile(path)
			os.WriteFile(path, []byte(strings.Replace(string(b), `"algorithm": "dfpn"`, `"algorithm": "mcts"`, 1)), 0o644)
		}},
		// F1: two values for one position (which Save never writes; the
		// sums are made to match) are refused, not settled by order.
		{"conflicting duplicates", "gives 0*2 the Grundy value 1, but an earlier line", func(dir string, m checkpoint.Manifest) {
			forge(t, dir, 1, []byte("[Positions+Nimber]\n0*2 0\n0*2 1\n"))
		}},
		// A file of a few hundred bytes that decompresses to 8 MB (of
		// empty lines: as many gigabytes would take as little).
		{"decompression bomb", "decompresses to more than 64 times its size", func(dir string, m checkpoint.Manifest) {
			forge(t, dir, 1, append([]byte("[Positions+Nimber]\n"), bytes.Repeat([]byte("\n"), 8<<20)...))
		}},
	} {
		dir := t.TempDir()
		m, err := checkpoint.Save(dir, checkpoint.Manifest{Position: "0*7", Algorithm: solve.SearchDFPN}, s)
		if err != nil {
			t.Fatal(err)
		}
		tc.damage(dir, m)
		m, err = checkpoint.Load(dir)
		if err == nil {
			err = checkpoint.Restore(context.Background(), dir, m, solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12}))
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// TestSaveRefusesNoAlgorithm: a manifest that names no algorithm, which
// Load would refuse, is not saved, and no file of it is written.
func TestSaveRefusesNoAlgorithm(t *testing.T) {
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12})
	s.Solve(context.Background(), sprouts.MustParse("0*5"), 0)
	for _, a := range []solve.Algorithm{0, solve.SearchSwarm + 1} {
		dir := t.TempDir()
		if _, err := checkpoint.Save(dir, checkpoint.Manifest{Position: "0*5", Algorithm: a}, s); err == nil || !strings.Contains(err.Error(), "algorithm") {
			t.Errorf("algorithm %d: %v, want an error naming the algorithm", uint8(a), err)
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("algorithm %d: wrote %v", uint8(a), names)
		}
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// forge replaces the file i of the checkpoint in dir by the compressed
// content, with the manifest's size and sum made to match: what anyone who
// can write the directory can do, since the sums have no key.
func forge(t *testing.T, dir string, i int, content []byte) {
	t.Helper()
	m, err := checkpoint.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	z, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	data := z.EncodeAll(content, nil)
	if err := os.WriteFile(filepath.Join(dir, m.Files[i].Name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := blake3.Sum256(data)
	m.Files[i].Bytes, m.Files[i].BLAKE3 = int64(len(data)), hex.EncodeToString(sum[:])
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, checkpoint.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSaverRemovesKilledSave: the temporary file of a save killed in an
// earlier run (no one holds it) is removed when the next run's saver is
// made, before any save.
func TestSaverRemovesKilledSave(t *testing.T) {
	dir := t.TempDir()
	left := filepath.Join(dir, ".table-3.bin.zst.spots-tmp4242")
	os.WriteFile(left, []byte("half a table"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(left, old, old)
	checkpoint.NewSaver(dir, checkpoint.Manifest{Position: "0*7"}, nil, nil)
	if _, err := os.Stat(left); err == nil {
		t.Errorf("%s is still there", left)
	}
}
