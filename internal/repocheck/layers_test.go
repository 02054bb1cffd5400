package repocheck

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/spots-dev/spots"

// layers is the dependency rule of the repository (the layers of the
// project's rules), package by package: what each package, and everything
// it imports in turn, may link of this module. only lists the module's
// packages (relative to the module root) that the package may depend on,
// itself and its own subpackages aside; forbidden, for a package that may
// link much, lists those it must never link (a package and its
// subpackages). Test files are left out: a test may import whatever it
// compares against.
var layers = []struct {
	dir       string
	why       string
	only      []string // nil: no rule of this kind
	forbidden []string
	// onlyLinksOf adds to only what these packages link, themselves
	// included: the checker may link every registered game, which
	// game/all links, without this table naming each.
	onlyLinksOf []string
}{
	{dir: "sprouts", why: "the rules of Sprouts import nothing of ours", only: []string{}},
	{dir: "cram", why: "the rules of Cram import nothing of ours", only: []string{}},
	{dir: "octal", why: "the rules of octal games import nothing of ours", only: []string{}},
	{dir: "outcome", why: "the outcome type imports nothing of ours, so that every package may use it", only: []string{}},
	{dir: "solve", why: "the search is game-agnostic: of ours it links only the outcome type (no game, no format, no swarm, no certificate)",
		only: []string{"outcome"}},
	{dir: "format", why: "the certificate format, which the checker trusts, links only the outcome type",
		only: []string{"outcome"}},
	{dir: "game", why: "the interfaces and the registry of games import nothing of ours, so that the checker may use them",
		only: []string{}},
	{dir: "game/all", why: "the registry links only the games (their rules and adapters): nothing that makes, stores or checks proofs",
		forbidden: []string{"solve", "swarm", "certify", "prove", "play", "corpus", "verify", "format", "cmd", "internal", "lab"}},
	{dir: "verify", why: "the checker trusts only the rules of the games and the format: never the solver, the swarm or the certificate builder",
		only: []string{"format", "outcome", "sprouts", "verify/sprouts2", "game"}, onlyLinksOf: []string{"game/all"}},
	{dir: "verify/sprouts2", why: "the second implementation of the rules shares no code with the rest of spots (package sprouts above all)",
		only: []string{}},
	{dir: "cmd/spots-verify", why: "the checker's binary links none of the code that makes proofs, nor the packages built on it",
		forbidden: []string{"solve", "swarm", "certify", "prove", "play", "corpus"}},
}

// TestLayers holds every package of layers to its rule, over the packages
// it links (what go list -deps shows, read from the sources with every
// build tag's files).
func TestLayers(t *testing.T) {
	root := moduleRoot(t)
	for _, l := range layers {
		deps := moduleDeps(t, root, l.dir)
		only := l.only
		for _, o := range l.onlyLinksOf {
			only = append(append(slices.Clone(only), o), moduleDeps(t, root, o)...)
		}
		for _, d := range deps {
			own := d == l.dir || strings.HasPrefix(d, l.dir+"/")
			if only != nil && !own && !slices.Contains(only, d) {
				t.Errorf("%s links %s; %s (all it links of this module: %v)", l.dir, d, l.why, deps)
			}
			for _, f := range l.forbidden {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s links %s; %s (all it links of this module: %v)", l.dir, d, l.why, deps)
				}
			}
		}
	}
}

// TestLayersSeeImports: the walk of TestLayers finds what packages do
// link, so that its rules can fail: the checker links the format and the
// independent rules, certify links the solver.
func TestLayersSeeImports(t *testing.T) {
	root := moduleRoot(t)
	for dir, want := range map[string][]string{
		"verify":           {"format", "sprouts", "verify/sprouts2"},
		"cmd/spots-verify": {"verify", "verify/sprouts2", "format"},
		"certify":          {"solve", "format", "outcome"},
	} {
		deps := moduleDeps(t, root, dir)
		for _, w := range want {
			if !slices.Contains(deps, w) {
				t.Errorf("%s: %s not found among what it links: %v", dir, w, deps)
			}
		}
	}
}

// moduleDeps returns the packages of this module that the package in dir
// (relative to root) imports, directly or not, as paths relative to the
// module root, sorted. Every file counts, whatever its build tags: a
// dependency behind a tag (spotsfault, spotsdebug, an operating system)
// is a dependency.
func moduleDeps(t *testing.T, root, dir string) []string {
	t.Helper()
	ctx := build.Default
	ctx.UseAllFiles = true
	seen := map[string]bool{}
	var visit func(rel string)
	visit = func(rel string) {
		pkg, err := ctx.ImportDir(filepath.Join(root, filepath.FromSlash(rel)), 0)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		for _, imp := range pkg.Imports {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if !ok || seen[dep] {
				continue
			}
			seen[dep] = true
			visit(dep)
		}
	}
	visit(dir)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// TestProductLinksNoLab: the lab (lab/: benchmarks, simulators,
// profilers) is the project's, not the product's. No package outside it,
// command, library or test support, links any of it, so that what ships is
// what the folder tree outside lab/ shows.
func TestProductLinksNoLab(t *testing.T) {
	root := moduleRoot(t)
	dirs := packageDirs(t, root)
	if !slices.Contains(dirs, "cmd/spots-solve") || !slices.Contains(dirs, "lab/benchsolve") {
		t.Fatalf("the walk missed packages: %v", dirs)
	}
	for _, dir := range dirs {
		if dir == "lab" || strings.HasPrefix(dir, "lab/") {
			continue
		}
		for _, d := range moduleDeps(t, root, dir) {
			if d == "lab" || strings.HasPrefix(d, "lab/") {
				t.Errorf("%s links %s: the product never links the lab", dir, d)
			}
		}
	}
}

// packageDirs returns every directory of the module (relative to root)
// that holds a Go package, testdata and hidden directories left out.
func packageDirs(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if _, err := build.Default.ImportDir(path, 0); err == nil {
			rel, _ := filepath.Rel(root, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
