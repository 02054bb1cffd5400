package sprouts2

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportsNothingOfTheModule: the second implementation of the rules
// shares no code with the rest of spots (package sprouts above all), so a
// bug there cannot be repeated here. Its tests may import package sprouts
// to compare the two.
func TestImportsNothingOfTheModule(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.HasPrefix(imp, "github.com/spots-dev/spots") {
			t.Errorf("package sprouts2 imports %s", imp)
		}
	}
	if len(pkg.Imports) == 0 {
		t.Error("no imports found: the test reads the wrong directory")
	}
}
