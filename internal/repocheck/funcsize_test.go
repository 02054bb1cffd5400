package repocheck

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandsAreThin holds every function of cmd/ (tests included) to
// MaxFuncLines lines and a cyclomatic complexity of MaxFuncComplexity:
// orchestration belongs in the packages (the pipeline is package prove),
// not in the mains.
func TestCommandsAreThin(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(filepath.Join(root, "cmd"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, s := range FuncSizes(fset, f) {
			n++
			rel, _ := filepath.Rel(root, s.Pos.Filename)
			if s.Lines > MaxFuncLines {
				t.Errorf("%s:%d: %s is %d lines long (at most %d)", rel, s.Pos.Line, s.Name, s.Lines, MaxFuncLines)
			}
			if s.Complexity > MaxFuncComplexity {
				t.Errorf("%s:%d: %s has a cyclomatic complexity of %d (at most %d)", rel, s.Pos.Line, s.Name, s.Complexity, MaxFuncComplexity)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no function found in cmd/")
	}
}

// TestFuncSizes measures functions whose size is known, so that the bounds
// of TestCommandsAreThin mean what they say.
func TestFuncSizes(t *testing.T) {
	const src = `package p

func straight() {
	x := 1
	_ = x
}

func branches(a, b bool, xs []int) int {
	if a && b || !a {
		return 1
	}
	for _, x := range xs {
		switch x {
		case 1, 2:
		case 3:
		default:
		}
	}
	for i := 0; i < 3; i++ {
	}
	f := func() {
		if a {
		}
	}
	f()
	select {
	case <-make(chan int):
	default:
	}
	return 0
}

type T[K any] struct{}

func (t *T[K]) method() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]FuncSize{}
	for _, s := range FuncSizes(fset, f) {
		got[s.Name] = s
	}
	for _, want := range []FuncSize{
		{Name: "straight", Lines: 4, Complexity: 1},
		// 1, if, &&, ||, range, two cases, for, the literal's if, a
		// select case.
		{Name: "branches", Lines: 24, Complexity: 10},
		{Name: "T.method", Lines: 1, Complexity: 1},
	} {
		g, ok := got[want.Name]
		if !ok || g.Lines != want.Lines || g.Complexity != want.Complexity {
			t.Errorf("%s: %d lines, complexity %d (found %v); want %d and %d", want.Name, g.Lines, g.Complexity, ok, want.Lines, want.Complexity)
		}
	}
	if len(got) != 3 {
		t.Errorf("found %d functions, want 3: %v", len(got), got)
	}
}
