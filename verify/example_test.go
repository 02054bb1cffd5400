package verify_test

import (
	"fmt"

	"github.com/spots-dev/spots/verify"
)

// Check a certificate of the corpus: 0*4 is a first-player win. The
// independent check does the same with a second implementation of the
// rules.
func ExampleFile() {
	path := "../corpus/certs/5f5dcd7e857208cccc456bcf060c5b4a46e7ea360fa938ef341e4edbaf1e8995.arrow"
	for _, independent := range []bool{false, true} {
		res, err := verify.File(path, verify.Options{Independent: independent})
		if err != nil {
			fmt.Println("INVALID", err)
			continue
		}
		fmt.Println("VALID", res.Claim, res.Entries, "entries")
	}
	// Output:
	// VALID 0*4=W 17 entries
	// VALID 0*4=W 17 entries
}
