package repocheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxSwarmExported bounds the exported identifiers of package swarm: its
// users are two commands, and what nothing outside it needs stays
// unexported, so that a reader meets only the names that matter.
const maxSwarmExported = 90

// TestSwarmSurface holds package swarm to maxSwarmExported exported
// identifiers: top-level types, functions, variables and constants, and
// the methods of its exported types, its tests left out. The methods of
// its unexported types are left out too: they are there because another
// package's interface names them (memberlist's delegates, Arrow's
// allocator, Prometheus's collector), and no caller can name them.
func TestSwarmSurface(t *testing.T) {
	names, err := exportedNames(filepath.Join(moduleRoot(t), "swarm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no exported name found in swarm/")
	}
	t.Logf("swarm exports %d identifiers (at most %d)", len(names), maxSwarmExported)
	if len(names) > maxSwarmExported {
		t.Errorf("swarm exports %d identifiers, at most %d: unexport what no other package uses\n%s", len(names), maxSwarmExported, strings.Join(names, " "))
	}
}

// TestExportedNames counts the names of a source whose count is known.
func TestExportedNames(t *testing.T) {
	dir := t.TempDir()
	src := `package p

type T struct{ Field int }
type t struct{}

func (T) M()      {}
func (t) String() string { return "" }
func (t) m()      {}
func F()          {}
func f()          {}

var V, v = 1, 2

const (
	C = iota
	c
)
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nfunc TestX() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	names, err := exportedNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "T T.M F V C"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("exported names %q, want %q", got, want)
	}
}

// exportedNames returns the exported identifiers of the package in dir,
// in source order, tests left out; a method (of an exported type) is
// named Type.Method.
func exportedNames(dir string) ([]string, error) {
	fset := token.NewFileSet()
	var names []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names = append(names, fileExported(f)...)
		return nil
	})
	return names, err
}

// fileExported returns the exported identifiers declared at the top of f
// (see exportedNames).
func fileExported(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv != nil && len(d.Recv.List) == 1 {
				if recv := receiverName(d.Recv.List[0].Type); ast.IsExported(recv) {
					names = append(names, recv+"."+d.Name.Name)
				}
			} else {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						names = append(names, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

// receiverName is the name of a method's receiver type.
func receiverName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.IndexExpr:
		return receiverName(e.X)
	case *ast.IndexListExpr:
		return receiverName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}
