package complexity

import (
	"go/token"
	"slices"
	"testing"
)

// TestCyclomatic checks the counter on small functions against the count
// gocyclo gives them.
func TestCyclomatic(t *testing.T) {
	tests := []struct {
		name, src string
		want      int
	}{
		{"straight line", `func f() { x := 1; _ = x }`, 1},
		{"if else", `func f(a bool) { if a { } else { } }`, 2},
		{"else if", `func f(a, b bool) { if a { } else if b { } }`, 3},
		{"for and range", `func f(s []int) { for i := 0; i < 3; i++ { }; for range s { } }`, 3},
		{"and or", `func f(a, b, c bool) bool { return a && b || c }`, 3},
		{"bitwise is no branch", `func f(a, b int) int { return a & b | a }`, 1},
		{"switch cases, default free", `func f(x int) { switch x { case 1: case 2, 3: default: } }`, 3},
		{"type switch", `func f(x any) { switch x.(type) { case int: case string: default: } }`, 3},
		{"select, default free", `func f(c chan int) { select { case <-c: case c <- 1: default: } }`, 3},
		{"closure counts toward its holder", `func f() { g := func(a bool) { if a { } }; g(true) }`, 2},
		{"goto and labels are no branch", `func f() { L: goto L }`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			funcs, err := File(token.NewFileSet(), "x.go", "package x\n"+tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if len(funcs) != 1 {
				t.Fatalf("got %d functions, want 1", len(funcs))
			}
			if got := funcs[0].Complexity; got != tt.want {
				t.Errorf("complexity %d, want %d", got, tt.want)
			}
		})
	}
}

// TestFuncName checks the names the gate reports and keys its allow-list by.
func TestFuncName(t *testing.T) {
	src := `package x
type T struct{}
type G[K any] struct{}
func F() {}
func (T) A() {}
func (t *T) B() {}
func (g *G[K]) C() {}
`
	funcs, err := File(token.NewFileSet(), "dir/x.go", src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range funcs {
		got = append(got, f.Key())
	}
	want := []string{"dir/x.go F", "dir/x.go (T).A", "dir/x.go (*T).B", "dir/x.go (*G).C"}
	if !slices.Equal(got, want) {
		t.Errorf("keys %q, want %q", got, want)
	}
	if funcs[2].Line != 6 {
		t.Errorf("(*T).B on line %d, want 6", funcs[2].Line)
	}
}
