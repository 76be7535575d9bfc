// Package complexity measures the cyclomatic complexity of the module's
// functions the way gocyclo does, with the standard library only, so the
// module's own test (complexity_test.go) can keep every function readable
// without a new module dependency.
package complexity

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Func is one function or method and its complexity.
type Func struct {
	File       string // slash-separated, relative to the module root
	Line       int
	Name       string // as gocyclo writes it: "F", "(T).M", "(*T).M"
	Complexity int
}

// Key names a function independently of its line, so an allow-list entry
// survives edits above it.
func (f Func) Key() string { return f.File + " " + f.Name }

func (f Func) String() string {
	return fmt.Sprintf("%s:%d: %s has cyclomatic complexity %d", f.File, f.Line, f.Name, f.Complexity)
}

// Cyclomatic is 1 plus one for every if, for, range, case and select case
// other than default, && and ||: gocyclo's count. Function literals count
// toward the function that holds them, as in gocyclo.
func Cyclomatic(fn ast.Node) int {
	n := 1
	ast.Inspect(fn, func(node ast.Node) bool {
		switch node := node.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			n++
		case *ast.CaseClause:
			if node.List != nil {
				n++
			}
		case *ast.CommClause:
			if node.Comm != nil {
				n++
			}
		case *ast.BinaryExpr:
			if node.Op == token.LAND || node.Op == token.LOR {
				n++
			}
		}
		return true
	})
	return n
}

// FuncName is a function declaration's name as gocyclo writes it.
func FuncName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	return "(" + recvString(fn.Recv.List[0].Type) + ")." + fn.Name.Name
}

func recvString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + recvString(e.X)
	case *ast.IndexExpr: // a generic receiver T[K]: the type's name
		return recvString(e.X)
	case *ast.IndexListExpr:
		return recvString(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// File returns every function declared in one file's source; name is the
// file name reported for them.
func File(fset *token.FileSet, name string, src any) ([]Func, error) {
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	var out []Func
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		out = append(out, Func{
			File:       name,
			Line:       fset.Position(fn.Pos()).Line,
			Name:       FuncName(fn),
			Complexity: Cyclomatic(fn),
		})
	}
	return out, nil
}

// Module returns every function of the non-test Go files of the module at
// root, as the go command sees the module: folders named testdata or
// starting with "." or "_" and nested modules (a folder with its own
// go.mod, such as app/locale) are left out.
func Module(root string) ([]Func, error) {
	fset := token.NewFileSet()
	var out []Func
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p == root {
				return nil
			}
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") ||
			strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		funcs, err := File(fset, filepath.ToSlash(rel), src)
		if err != nil {
			return err
		}
		out = append(out, funcs...)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk module %s: %w", root, err)
	}
	return out, nil
}
