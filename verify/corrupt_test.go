package verify

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/spots-dev/spots/format"
)

//go:generate go run ./corruptcerts -corpus ../corpus -out testdata/corrupt

// TestCorruptCertificates checks the committed certificates of
// testdata/corrupt, each made by verify/corruptcerts from a certificate
// of the corpus to break one thing, against testdata/corrupt/manifest.txt
// (go test ./verify -run TestCorruptCertificates -rewrite writes what the
// checker says; review the diff). Its one command,
//
//	check file=NAME [independent]
//
// checks the file with File (with Options.Independent: the second
// implementation of the rules, which ignores the hints) and prints the
// verdict, the rule the first failure breaks and its row (none for the
// claim or the file as a whole), and the error.
func TestCorruptCertificates(t *testing.T) {
	datadriven.RunTest(t, filepath.Join("testdata", "corrupt", "manifest.txt"), func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "check" {
			d.Fatalf(t, "unknown command %q", d.Cmd)
		}
		var name string
		d.ScanArgs(t, "file", &name)
		opt := Options{Independent: d.HasArg("independent")}
		_, err := File(filepath.Join("testdata", "corrupt", name), opt)
		verdict, rule, row := judge(err)
		var b strings.Builder
		fmt.Fprintf(&b, "verdict: %s\n", verdict)
		switch {
		case row > 0:
			fmt.Fprintf(&b, "rule: %s, row %d\n", rule, row)
		case rule != "":
			fmt.Fprintf(&b, "rule: %s\n", rule)
		}
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
		}
		return b.String()
	})
}

// judge sorts the error of a check into a verdict (valid, invalid,
// refused by a limit, unsupported by the check, unreadable) and, for an
// invalid certificate, the rule broken and the row that broke it: a
// Failure's (row 0 for the claim or the file), or "corrupt" (row 0) for a
// file that package format could not decode.
func judge(err error) (verdict, rule string, row int) {
	var f *Failure
	switch {
	case err == nil:
		return "valid", "", 0
	case IsLimit(err):
		return "refused", "", 0
	case errors.Is(err, ErrUnsupported):
		return "unsupported", "", 0
	case errors.As(err, &f):
		return "invalid", f.Rule, f.Row
	case IsInvalid(err) && errors.Is(err, format.ErrCorrupt):
		return "invalid", "corrupt", 0
	case IsInvalid(err):
		return "invalid", "?", 0
	}
	return "unreadable", "", 0
}
