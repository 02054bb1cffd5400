package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/cmdtest"
)

// dumpScript is the Python reader of spots-verify --dump that
// docs/certificate-format.md publishes; this test keeps it honest.
var dumpScript = filepath.Join("..", "..", "docs", "readers", "dump_address.py")

// TestDumpAddressScript dumps certificates (of the corpus: Sprouts, an
// outcome and a Grundy value, and Cram; and the version 2 example of
// format/testdata/cites, which cites the certificate beside it) with
// spots-verify --dump and pipes each dump to docs/readers/dump_address.py,
// which must recompute the certificate's content address from the rows of
// the dump alone (a cited certificate's rows are in its own file), with
// b3sum where it is installed and in pure Python otherwise; a dump with
// one Grundy value changed, or with its citations dropped, must hash to
// another address (status 1). It skips, saying why, where python3 is not
// installed.
func TestDumpAddressScript(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("python3 is not installed (%v), so docs/readers/dump_address.py cannot run", err)
	}
	for _, tc := range []struct {
		dir, address string
		cites        []string
	}{
		{"corpus/certs", "5424fc9eedb30f0953f9af5c5774f6d4f81b93b79118046b656c239ae286fa8c", nil}, // 0*14=L, 6260 entries
		{"corpus/certs", "58a1c83cc287df1d63c779c92b7c3a3f80afc103006dce2360f9e99f196bbf8c", nil}, // gn(0*9)=1
		{"corpus/cram", "c058c1aa1218c28e916a5a577519528a8a559fe62087f8d566e36beab4acc11b", nil},  // 4x8=L
		{"format/testdata/cites", "034e3c291863804e2715c5fc16fb74e07f00a722744074ae1197d2792fcc904c", // 0*3=W, 5 entries
			[]string{"286bd41c54edcc329445c0cea083dedc93818760a0139644acc7121d479f87a4"}}, // gn(0*2)=0, beside it
	} {
		path := filepath.Join("..", "..", filepath.FromSlash(tc.dir), tc.address+".arrow")
		checkDumpScript(t, python, path, tc.address, tc.cites)
	}
}

// checkDumpScript dumps the certificate at path, of the given address and
// citations, and runs the script on the dump, on the dump with its first
// entry's Grundy value changed and, for a certificate that cites others,
// on the dump with its header made that of a certificate that cites none.
func checkDumpScript(t *testing.T, python, path, address string, cites []string) {
	t.Helper()
	status, dump, stderr := cmdtest.Run(t, run, "--dump", "--progress", "none", path)
	if status != 0 {
		t.Fatalf("--dump %s: status %d\n%s", path, status, stderr)
	}
	var head format.DumpHeader
	if err := json.Unmarshal([]byte(strings.SplitN(dump, "\n", 2)[0]), &head); err != nil {
		t.Fatalf("%s: the dump's header: %v", path, err)
	}
	if !slices.Equal(head.Cites, cites) {
		t.Errorf("%s: the dump's header cites %v, want %v", path, head.Cites, cites)
	}
	out, status := runScript(t, python, dump)
	if status != 0 || !strings.HasPrefix(out, address+"  ") || !strings.Contains(out, "matches the address the header gives") {
		t.Errorf("%s: status %d, output %q, want the address %s and a match", path, status, out, address)
	}
	if said := fmt.Sprintf("cites %d certificate", len(cites)); strings.Contains(out, said) != (len(cites) > 0) {
		t.Errorf("%s: output %q, want %q in it exactly when the certificate cites others", path, out, said)
	}
	lines := strings.SplitN(dump, "\n", 3)
	if len(lines) < 3 || !strings.Contains(lines[1], `"grundy":`) {
		t.Fatalf("%s: the dump has no entry to change:\n%.300s", path, dump)
	}
	changed := strings.Replace(lines[1], `"grundy":0`, `"grundy":1`, 1)
	if changed == lines[1] {
		changed = strings.Replace(lines[1], `"grundy":`, `"grundy":9`, 1)
	}
	if out, status := runScript(t, python, lines[0]+"\n"+changed+"\n"+lines[2]); status != 1 || strings.Contains(out, "matches") {
		t.Errorf("%s with an entry changed: status %d, output %q, want 1 and no match", path, status, out)
	}
	if len(cites) == 0 {
		return
	}
	// The citations are part of the address: the same rows under a
	// version 1 header hash to another one.
	plain := head
	plain.Format, plain.Cites = format.FormatVersion, nil
	b, err := json.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	if out, status := runScript(t, python, string(b)+"\n"+lines[1]+"\n"+lines[2]); status != 1 || strings.Contains(out, "matches") {
		t.Errorf("%s without its citations: status %d, output %q, want 1 and no match", path, status, out)
	}
}

// runScript runs docs/readers/dump_address.py on the dump given on its
// standard input and returns its output (both streams) and exit status.
func runScript(t *testing.T, python, dump string) (string, int) {
	t.Helper()
	cmd := exec.Command(python, dumpScript)
	cmd.Stdin = strings.NewReader(dump)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", dumpScript, err)
	}
	return out.String(), 0
}
