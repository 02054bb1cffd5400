package format_test

import (
	"errors"
	"fmt"
	"io"

	"github.com/spots-dev/spots/format"
)

// Read a certificate row by row, without checking it (verify does that):
// its claim, each entry's position and Grundy value, and once every row
// is read, the content address its bytes hash to.
func ExampleOpenCertificate() {
	r, err := format.OpenCertificate("../corpus/certs/5f5dcd7e857208cccc456bcf060c5b4a46e7ea360fa938ef341e4edbaf1e8995.arrow")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	fmt.Println("claim", r.Header().Claim)
	rows := 0
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		if rows++; rows <= 3 {
			fmt.Printf("gn(%s) = %d\n", e.Position, e.Grundy)
		}
	}
	addr, err := r.Address()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rows, "rows, address", addr[:12])
	// Output:
	// claim 0*4=W
	// gn(1) = 1
	// gn(22) = 1
	// gn(AB|AB) = 1
	// 17 rows, address 5f5dcd7e8572
}
