package main

import (
	"fmt"
	"io"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
)

// dumpUsage is the help of --dump.
const dumpUsage = "verify the one certificate given, then write its rows on standard output as JSON lines (a header object, then an object per entry: position, grundy, reach, win), for readers without Arrow (docs/readers/dump_address.py recomputes the address from them); the verdict goes to standard error"

// dump checks the one certificate of args (refusing more, or a
// database: withSPR) and, when it is valid, writes its
// rows as JSON lines (format.Dump) on stdout; the verdict goes to stderr,
// as a line or with asJSON an object. The status is run's: 0 valid and
// written, 1 invalid (nothing written) or changed since it was checked,
// 2 unreadable or refused by a limit.
func dump(args []string, withSPR bool, opt verify.Options, asJSON bool, stdout, stderr io.Writer) int {
	if withSPR || len(args) != 1 {
		fmt.Fprintln(stderr, "spots-verify: --dump writes the rows of one certificate: give one FILE.arrow (and no --spr)")
		return 2
	}
	path := args[0]
	r, status := checkOne(path, opt, asJSON, stderr)
	if status >= 0 {
		return status
	}
	cr, err := format.OpenCertificate(path)
	if err != nil {
		fmt.Fprintf(stderr, "spots-verify: --dump: %v\n", err)
		return 2
	}
	defer cr.Close()
	if err := format.Dump(stdout, cr, r.Address); err != nil {
		fmt.Fprintf(stderr, "spots-verify: --dump %s: %v\n", path, err)
		return 1
	}
	return 0
}
