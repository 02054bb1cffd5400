package cmdline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckOutputs (N42, N44): what cannot be written, and an output that
// names an input or another output (also through a link), is refused
// before any work, naming the flags; a writable file in a directory that
// takes no new file is still an output.
func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.spr")
	if err := os.WriteFile(in, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("in.spr", link); err != nil {
		t.Fatal(err)
	}
	inputs := []File{{Flag: "--db-in", Path: in}}
	for _, tc := range []struct {
		outputs []File
		want    string // "" for no error
	}{
		{[]File{{"--stats", filepath.Join(dir, "s.csv")}, {"--db-out", ""}}, ""},
		{[]File{{"--stats", "/dev/null"}}, ""},
		{[]File{{"--cpuprofile", in}}, "--cpuprofile " + in + " would overwrite the input --db-in " + in},
		{[]File{{"--cpuprofile", link}}, "would overwrite the input --db-in"},
		{[]File{{"--cpuprofile", dir + "/./in.spr"}}, "would overwrite the input"},
		{[]File{{"--db-out", filepath.Join(dir, "y")}, {"--stats", filepath.Join(dir, "y")}}, "name the same file"},
		{[]File{{"--db-out", filepath.Join(dir, "no", "y")}}, "does not exist: make it first"},
		{[]File{{"--db-out", dir}}, "is a directory"},
	} {
		err := CheckOutputs(inputs, tc.outputs)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v, want no error", tc.outputs, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: %v, want an error saying %q", tc.outputs, err, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the checks left %d files in %s, want the 2 there before", len(entries), dir)
	}
}

// TestCheckOutputsReadOnlyDir (N42): in a directory the user may not
// write, a new output is refused at once and an existing writable file
// is accepted. Root writes everywhere, so the test needs another user.
func TestCheckOutputsReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write into any directory")
	}
	dir := t.TempDir()
	have := filepath.Join(dir, "have.csv")
	if err := os.WriteFile(have, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := CheckOutputs(nil, []File{{"--stats", have}}); err != nil {
		t.Errorf("a writable file in a read-only directory: %v", err)
	}
	err := CheckOutputs(nil, []File{{"--stats", filepath.Join(dir, "new.csv")}})
	if err == nil || !strings.Contains(err.Error(), "choose a directory you may write") {
		t.Errorf("a new file in a read-only directory: %v, want a refusal", err)
	}
}
