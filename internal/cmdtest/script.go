package cmdtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/spots-dev/spots/internal/buildinfo"
)

// Commands are the project's commands, as the testscript transcripts name
// them.
var Commands = []string{"spots-solve", "spots-verify", "spots-position", "spots-corpus", "spots-play"}

// ScriptMain is for the TestMain of a command's package whose transcripts
// run the command in process: run as a command by a transcript (its name
// is os.Args[0]) or by Start, it runs runMain and exits with its status;
// otherwise it runs the tests, then the functions after, and exits.
func ScriptMain(m *testing.M, name string, runMain func() int, after ...func()) {
	Main(runMain)
	testscript.Main(cleanup{m, after}, map[string]func(){name: func() { os.Exit(runMain()) }})
}

// cleanup runs the tests with a cache directory of their own (see
// isolateCache), then removes it and the commands Scripts built into a
// temporary directory (see builtCommands).
type cleanup struct {
	m     *testing.M
	after []func()
}

func (c cleanup) Run() int {
	done := isolateCache()
	defer done()
	code := c.m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	for _, f := range c.after {
		f()
	}
	return code
}

// Scripts runs the transcripts testdata/script/*.txtar of the calling
// package (see testscript). The package's own command runs in process (it
// was registered by ScriptMain); the other commands of the project are
// built once (see builtCommands) and put on PATH, so that a transcript can
// solve with spots-solve and check with spots-verify. $ROOT is the
// repository's root, for its committed data (the corpus, testdata).
//
// Beside testscript's own commands a transcript has those of
// ScriptCommands, and those of extra (a package's own).
func Scripts(t *testing.T, extra ...map[string]func(ts *testscript.TestScript, neg bool, args []string)) {
	t.Helper()
	bin, root := commandsAndRoot(t)
	cmds := maps.Clone(ScriptCommands)
	for _, m := range extra {
		maps.Copy(cmds, m)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(e *testscript.Env) error {
			// The package's own command (registered in process) comes first.
			path := e.Getenv("PATH")
			i := strings.IndexByte(path, os.PathListSeparator)
			if i < 0 {
				i = len(path)
			}
			e.Setenv("PATH", path[:i]+string(os.PathListSeparator)+bin+path[i:])
			e.Setenv("ROOT", root)
			e.Setenv("HOME", e.WorkDir)
			e.Setenv("XDG_CACHE_HOME", filepath.Join(e.WorkDir, ".cache"))
			e.Setenv("SPOTS_SWARM_KEY", "")
			return nil
		},
		Cmds:                cmds,
		Condition:           condition,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// condition answers a transcript's own conditions: [unversioned] holds
// when the command run in process records no version (a test binary
// built without make's stamp, as go test builds it).
func condition(cond string) (bool, error) {
	if cond == "unversioned" {
		return !buildinfo.Named(buildinfo.Version()), nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// commandsAndRoot returns the directory of the built commands and the
// repository's root, failing t when either cannot be had.
func commandsAndRoot(t testing.TB) (bin, root string) {
	t.Helper()
	bin, err := builtCommands()
	if err != nil {
		t.Fatal(err)
	}
	if root, err = repoRoot(); err != nil {
		t.Fatal(err)
	}
	return bin, root
}

// goCache is the go command's build cache as it was when the test binary
// started: a TestMain may point XDG_CACHE_HOME elsewhere, which would
// otherwise send the build to an empty cache.
var goCache = func() string {
	if c := os.Getenv("GOCACHE"); c != "" {
		return c
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "go-build")
	}
	return ""
}()

// commandsDir is where builtCommands builds: a directory of the user's
// cache for this checkout ("" when there is no cache directory). It is
// found when the test binary starts, before a TestMain points
// XDG_CACHE_HOME elsewhere.
var commandsDir = func() string {
	root, err := repoRoot()
	if err != nil {
		return ""
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(cache, "spots-test-commands", hex.EncodeToString(sum[:8]))
}()

var (
	buildOnce sync.Once
	buildDir  string // set when the build went to a temporary directory, removed after the tests
	builtDir  string
	buildErr  error
)

// builtCommands builds every command once per test binary and returns
// the directory that holds them. The test binaries of the commands (and
// of this package) share one directory, commandsDir, under a lock: the go
// command relinks there only what changed since, where linking the five
// commands anew costs every test binary seconds of CPU. Without it (no
// cache directory, no file locks) they go to a temporary directory.
func builtCommands() (string, error) {
	buildOnce.Do(func() {
		root, err := repoRoot()
		if err != nil {
			buildErr = err
			return
		}
		dir := commandsDir
		unlock, err := lockDir(dir)
		if dir == "" || err != nil {
			if buildDir, buildErr = os.MkdirTemp("", "spots-commands"); buildErr != nil {
				return
			}
			dir, unlock = buildDir, func() {}
		}
		defer unlock()
		builtDir, buildErr = dir, goBuild(root, dir)
	})
	return builtDir, buildErr
}

// goBuild builds the commands into dir.
func goBuild(root, dir string) error {
	gobin := filepath.Join(os.Getenv("GOROOT"), "bin", "go") // the go command that runs the tests sets it
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	args := []string{"build", "-o", dir + string(os.PathSeparator)}
	for _, c := range Commands {
		args = append(args, "./cmd/"+c)
	}
	cmd := exec.Command(gobin, args...)
	cmd.Dir = root
	if goCache != "" {
		cmd.Env = append(os.Environ(), "GOCACHE="+goCache)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the commands: %v\n%s", err, out.String())
	}
	return nil
}

// repoRoot returns the directory of go.mod above the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
