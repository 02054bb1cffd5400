package cpuprofile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spots-dev/spots/format"
)

// TestProfile: a profile is in place, whole, once Stop returns, and only
// then; "" profiles nothing; a path that cannot be written fails at Start.
func TestProfile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.prof")
	p, err := Start(path, format.CreateAtomic)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the profile is at its path before Stop")
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() == 0 {
		t.Errorf("after Stop: %v, %v", info, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want the profile alone", len(entries))
	}

	none, err := Start("", format.CreateAtomic)
	if none != nil || err != nil || none.Stop() != nil {
		t.Errorf(`Start(""): %v, %v`, none, err)
	}
	if _, err := Start(filepath.Join(dir, "no", "such", "dir"), format.CreateAtomic); err == nil {
		t.Error("a profile in a directory that does not exist started")
	}
}
