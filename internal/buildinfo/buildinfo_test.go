package buildinfo

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"nothing known", "", nil, "(devel)"},
		{"devel", "(devel)", nil, "(devel)"},
		{"tagged", "v1.2.3", nil, "v1.2.3"},
		{"revision", "(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}, "(devel) 0123456789ab"},
		{"pseudo-version", "v0.0.0-20261122180353-99ba079ea8c7+dirty", []debug.BuildSetting{{Key: "vcs.revision", Value: "99ba079ea8c719484c7c"}, {Key: "vcs.modified", Value: "true"}}, "v0.0.0-20261122180353-99ba079ea8c7+dirty"},
		{"modified", "v1.0.0", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}, "v1.0.0 abc+modified"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tc.version}, Settings: tc.settings}
		if got := format(bi); got != tc.want {
			t.Errorf("%s: format = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestVersion: a stamped version wins over the build information, which
// wins over a source archive's commit; "(devel)" only when none says
// anything.
func TestVersion(t *testing.T) {
	const commit = "07f80d86f509c0ffee0123456789abcdef012345"
	devel := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	withRev := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "99ba079ea8c719484c7c"}}}
	for _, tc := range []struct {
		name    string
		stamped string
		bi      *debug.BuildInfo
		archive string
		want    string
		named   bool
	}{
		{"stamped", "07f80d86f509-dirty", withRev, commit + "\n", "07f80d86f509-dirty", true},
		{"stamped tag", " v1.2.0\n", nil, "", "v1.2.0", true},
		{"build information", "", withRev, commit + "\n", "(devel) 99ba079ea8c7", true},
		{"released module", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, commit, "v1.2.0", true},
		{"source archive", "", devel, commit + "\n", "(devel) 07f80d86f509", true},
		{"source archive, SHA-256", "", devel, strings.Repeat("ab", 32), "(devel) abababababab", true},
		{"source archive, no build information", "", nil, commit, "(devel) 07f80d86f509", true},
		{"checkout: the placeholder", "", devel, "$Format:%H$\n", "(devel)", false},
		{"not a hash", "", devel, strings.ToUpper(commit), "(devel)", false},
		{"nothing", "", nil, "", "(devel)", false},
	} {
		got := version(tc.stamped, tc.bi, tc.archive)
		if got != tc.want {
			t.Errorf("%s: version = %q, want %q", tc.name, got, tc.want)
		}
		if Named(got) != tc.named {
			t.Errorf("%s: Named(%q) = %v, want %v", tc.name, got, !tc.named, tc.named)
		}
	}
}

// repoRoot returns the repository's root (two directories up), or skips
// the test where it is not a git checkout with git installed.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skipf("not a git checkout (%v)", err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git is not installed: %v", err)
	}
	return root
}

func gitOutput(t *testing.T, root string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// TestArchiveCommit: git archive of HEAD writes HEAD's commit into
// archive.txt (export-subst in .gitattributes), and Version reads it.
func TestArchiveCommit(t *testing.T) {
	root := repoRoot(t)
	head := strings.TrimSpace(string(gitOutput(t, root, "rev-parse", "HEAD")))
	out := gitOutput(t, root, "archive", "--format=tar", "HEAD", "internal/buildinfo/archive.txt")
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			t.Fatal("git archive holds no internal/buildinfo/archive.txt")
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name != "internal/buildinfo/archive.txt" {
			continue
		}
		text, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := version("", nil, string(text)), "(devel) "+head[:12]; got != want {
			t.Fatalf("archive.txt in git archive HEAD = %q: version %q, want %q (is it export-subst in .gitattributes?)", text, got, want)
		}
		return
	}
}

// TestMakeBuild runs make build, with the toolchain told not to record the
// revision (GOFLAGS=-buildvcs=false), and every command's --version prints
// the version make stamped in: git describe of the checkout.
func TestMakeBuild(t *testing.T) {
	root := repoRoot(t)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skipf("make is not installed: %v", err)
	}
	want := strings.TrimSpace(string(gitOutput(t, root, "describe", "--tags", "--always", "--dirty", "--abbrev=12")))
	bin := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=-buildvcs=false")
	printed := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("make", append([]string{"-s", "-C", root}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := printed("version"); got != want {
		t.Errorf("make version = %q, want git describe's %q", got, want)
	}
	printed("build", "BIN="+bin)
	cmds, err := os.ReadDir(filepath.Join(root, "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		out, err := exec.Command(filepath.Join(bin, c.Name()), "--version").Output()
		if err != nil {
			t.Errorf("%s --version: %v", c.Name(), err)
			continue
		}
		if got := strings.TrimSpace(string(out)); got != c.Name()+" "+want {
			t.Errorf("%s --version = %q, want %q", c.Name(), got, c.Name()+" "+want)
		}
	}
}
