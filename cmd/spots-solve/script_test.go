package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/spots-dev/spots/internal/cmdtest"
)

// TestScript runs the transcripts of testdata/script: spots-solve as a user
// meets it, with the other commands on PATH. Beside the commands of
// cmdtest.Scripts a transcript has
//
//	gendb FILE LINES SUMS
//		writes a [Positions+Nimber] database of LINES entries of
//		distinct positions of one land (about 50 bytes a line), the
//		first SUMS of the even lines made sums of two lands (X+0): a
//		large database made by the test rather than committed.
func TestScript(t *testing.T) {
	cmdtest.Scripts(t, map[string]func(*testscript.TestScript, bool, []string){
		"gendb": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 3 {
				ts.Fatalf("usage: gendb FILE LINES SUMS")
			}
			lines, err := strconv.Atoi(args[1])
			ts.Check(err)
			sums, err := strconv.Atoi(args[2])
			ts.Check(err)
			ts.Check(genDB(ts.MkAbs(args[0]), lines, sums))
		},
	})
}

// genDB writes the database of gendb to path.
func genDB(path string, lines, sums int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString("[Positions+Nimber]\n")
	for i := range lines {
		sum := ""
		if i%2 == 0 && i/2 < sums {
			sum = "+0"
		}
		fmt.Fprintf(w, "%s%s %d\n", genLand(i), sum, i%4)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// genLand returns the i-th of a family of distinct positions of one land
// (for i below 40·5⁷, over three million): one region of 1 to 40 lone
// spots and 0 to 4 boundaries of each of seven kinds, i written in those
// digits.
func genLand(i int) string {
	var b strings.Builder
	b.WriteString("0*" + strconv.Itoa(i%40+1))
	i /= 40
	for _, boundary := range []string{"1a1a", "2", "12", "22", "1212", "222", "1a1a2"} {
		for range i % 5 {
			b.WriteString("." + boundary)
		}
		i /= 5
	}
	return b.String()
}
