package main

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/spots-dev/spots"

// moduleDeps returns the packages of this module that the package in dir
// imports, directly or not (test files left out), as import paths.
func moduleDeps(t *testing.T, root, dir string) []string {
	t.Helper()
	seen := map[string]bool{}
	var visit func(dir string)
	visit = func(dir string) {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range pkg.Imports {
			rel, ok := strings.CutPrefix(imp, module+"/")
			if !ok || seen[imp] {
				continue
			}
			seen[imp] = true
			visit(filepath.Join(root, filepath.FromSlash(rel)))
		}
	}
	visit(dir)
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// TestLinksNoSolver: the checker's binary links none of the code that
// makes proofs (the solver, the swarm, the certificate builder) nor the
// packages built on them (play, corpus), so that a bug there cannot make
// it accept a false proof. It is what go list -deps ./cmd/spots-verify
// shows, read from the sources.
func TestLinksNoSolver(t *testing.T) {
	deps := moduleDeps(t, filepath.Join("..", ".."), ".")
	for _, p := range deps {
		for _, banned := range []string{"solve", "swarm", "certify", "play", "corpus"} {
			if p == module+"/"+banned || strings.HasPrefix(p, module+"/"+banned+"/") {
				t.Errorf("spots-verify links %s (all it links of this module: %v)", p, deps)
			}
		}
	}
	if !slices.Contains(deps, module+"/verify/sprouts2") {
		t.Errorf("spots-verify does not link the independent rules (verify/sprouts2): %v", deps)
	}
}
