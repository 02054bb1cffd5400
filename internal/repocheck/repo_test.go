package repocheck

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTrackedFiles checks every file in git's index (what the next commit
// holds) with Problems. It is skipped only where there is no git to ask: git
// not installed, or a source tree without its .git (an exported tarball).
func TestTrackedFiles(t *testing.T) {
	root := moduleRoot(t)
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skipf("not a git checkout (%v): no tracked files to check", err)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("git is not installed (%v): cannot list the tracked files", err)
	}
	files, err := trackedFiles(git, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("git ls-files listed no file")
	}
	for _, f := range files {
		for _, p := range Problems(f) {
			t.Errorf("%s: %s; remove it from git (git rm --cached %s) and ignore it", f.Path, p, f.Path)
		}
	}
	t.Logf("%d tracked files checked", len(files))
}

// TestTrackedFilesFindsABinary runs the check of TestTrackedFiles on a new
// repository whose index holds this test's own executable and a text file:
// the executable, and it alone, is found.
func TestTrackedFilesFindsABinary(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("git is not installed (%v): cannot make a repository", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "tool"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "notes.md"), []byte("# notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "tool", "notes.md"}} {
		if out, err := exec.Command(git, append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	files, err := trackedFiles(git, root)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]string{}
	for _, f := range files {
		found[f.Path] = Problems(f)
	}
	if len(found) != 2 || len(found["tool"]) == 0 || len(found["notes.md"]) != 0 {
		t.Errorf("problems found: %q; want some for tool and none for notes.md", found)
	}
	for _, f := range files {
		if f.Path == "tool" && f.Size != int64(len(data)) {
			t.Errorf("tool: size %d, want %d", f.Size, len(data))
		}
	}
}

// moduleRoot returns the directory holding go.mod, above the working
// directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// trackedFiles lists the files in the index of the repository at root with
// their modes, sizes and first HeadSize bytes, read from the index's blobs.
func trackedFiles(git, root string) ([]File, error) {
	out, err := exec.Command(git, "-C", root, "ls-files", "--stage", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w%s", err, stderrOf(err))
	}
	var files []File
	var blobs []string
	for _, entry := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if entry == "" {
			continue
		}
		// "<mode> <object> <stage>\t<path>"
		meta, path, ok := strings.Cut(entry, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 {
			return nil, fmt.Errorf("git ls-files: unexpected entry %q", entry)
		}
		files = append(files, File{Path: path, Mode: fields[0]})
		blobs = append(blobs, fields[1])
	}

	// One git cat-file --batch for all blobs: a header line
	// "<object> <type> <size>" then the content and a newline for each.
	cmd := exec.Command(git, "-C", root, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(blobs, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	r := bufio.NewReader(pipe)
	for i := range files {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file, object of %s: %w (%s)", files[i].Path, err, stderr.String())
		}
		fields := strings.Fields(header)
		if len(fields) != 3 {
			return nil, fmt.Errorf("git cat-file, object of %s: %q", files[i].Path, header)
		}
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("git cat-file, object of %s: size in %q: %w", files[i].Path, header, err)
		}
		files[i].Size = size
		head := make([]byte, min(size, HeadSize))
		if _, err := io.ReadFull(r, head); err != nil {
			return nil, fmt.Errorf("git cat-file, object of %s: %w", files[i].Path, err)
		}
		files[i].Head = head
		if _, err := io.CopyN(io.Discard, r, size-int64(len(head))+1); err != nil { // the rest and the newline
			return nil, fmt.Errorf("git cat-file, object of %s: %w", files[i].Path, err)
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w (%s)", err, stderr.String())
	}
	return files, nil
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return ": " + strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}

func TestProblems(t *testing.T) {
	elf := append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 60)...)
	pe := append([]byte("MZ\x90\x00\x03\x00"), make([]byte, 60)...)
	machO := []byte{0xcf, 0xfa, 0xed, 0xfe, 0x07, 0x00, 0x00, 0x01}
	fat := []byte{0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x02}
	zstd := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58}
	tests := []struct {
		name string
		f    File
		want []string // a word of each problem, in order
	}{
		{"small text", File{"README.md", "100644", 1200, []byte("# spots\n")}, nil},
		{"script", File{".ci/run", "100755", 100, []byte("#!/usr/bin/env bash\nset -e\n")}, nil},
		{"large text", File{"testdata/big.jsonl", "100644", MaxSize + 1, []byte(`{"kind":"position"}`)}, []string{"limit"}},
		{"exactly the limit", File{"testdata/big.jsonl", "100644", MaxSize, []byte(`{}`)}, nil},
		{"large certificate", File{"corpus/certs/ab.arrow", "100644", 5 * MaxSize, []byte("ARROW1\x00\x00")}, nil},
		{"large file named like the certificates elsewhere", File{"x/corpus/certs/ab.arrow", "100644", MaxSize + 1, []byte("ARROW1\x00\x00")}, []string{"limit"}},
		{"ELF", File{"spots-solve", "100755", 20 << 20, elf}, []string{"limit", "ELF"}},
		{"small ELF without x bit", File{"a.out", "100644", 67, elf}, []string{"ELF"}},
		{"PE", File{"spots-solve.exe", "100644", 4096, pe}, []string{"PE"}},
		{"Mach-O", File{"spots-verify", "100755", 4096, machO}, []string{"Mach-O"}},
		{"Mach-O universal", File{"spots-verify", "100644", 4096, fat}, []string{"Mach-O"}},
		{"text that starts with MZ", File{"notes.txt", "100644", 10, []byte("MZ is a magic\n")}, nil},
		{"executable data", File{"tool", "100755", 6, zstd}, []string{"100755"}},
		{"executable UTF-8 text", File{"run.sh", "100755", 12, []byte("echo «ok»\n")}, nil},
		{"UTF-8 cut at the end of the head", File{"notes.md", "100644", HeadSize * 2, []byte("caf\xc3")}, nil},
		{"binary data, not executable", File{"format/testdata/fuzz/x", "100644", 6, zstd}, nil},
		{"symbolic link", File{"link", "120000", 11, []byte("\x7fELF")}, nil},
		{"submodule", File{"vendor/x", "160000", 0, nil}, nil},
		{"empty executable", File{"empty", "100755", 0, nil}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Problems(tt.f)
			if len(got) != len(tt.want) {
				t.Fatalf("Problems(%s) = %q, want %d problems (%q)", tt.f.Path, got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d of %s: %q, want one mentioning %q", i, tt.f.Path, got[i], w)
				}
			}
		})
	}
}

func TestIsText(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"plain\n", true},
		{"Čížek\n", true},
		{"cut \xe2\x82", true}, // the head ends inside "€"
		{"bad \xff in the middle", false},
		{"bad \xe2\x82 in the middle", false},
		{"nul\x00", false},
		{"\x7fELF", true}, // text by these rules: Problems looks at magic bytes first
	}
	for _, tt := range tests {
		if got := IsText([]byte(tt.in)); got != tt.want {
			t.Errorf("IsText(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
