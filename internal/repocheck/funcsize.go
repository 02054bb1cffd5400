package repocheck

import (
	"go/ast"
	"go/token"
)

// The bounds a function of the commands (cmd/) keeps: the commands are
// thin mains, and what does not fit in a function this size belongs in a
// package of its own.
const (
	MaxFuncLines      = 80 // from the line of func to the line of its closing brace
	MaxFuncComplexity = 20 // cyclomatic complexity, as gocyclo counts it
)

// FuncSize is the size of one function declaration.
type FuncSize struct {
	Name       string // Recv.Name for a method
	Pos        token.Position
	Lines      int
	Complexity int
}

// FuncSizes returns the size of every function declared in f.
func FuncSizes(fset *token.FileSet, f *ast.File) []FuncSize {
	var out []FuncSize
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		name := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) > 0 {
			name = recvName(fn.Recv.List[0].Type) + "." + name
		}
		start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
		out = append(out, FuncSize{Name: name, Pos: start, Lines: end.Line - start.Line + 1, Complexity: Complexity(fn)})
	}
	return out
}

func recvName(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// Complexity returns the cyclomatic complexity of fn as gocyclo counts it:
// 1, plus 1 for each if, for and range statement, each case of a switch or
// select but the default, and each && and ||, the function literals in its
// body included.
func Complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
