package format

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// pythonReader is the Python reader that docs/certificate-format.md
// publishes.
var pythonReader = filepath.Join(nodeReaderDir, "read_certificate.py")

// TestPythonReadsCertificate runs the published Python reader docs/readers/
// read_certificate.py on the certificates TestNodeReadsCertificate reads
// (zstd bodies, several batches, list columns, version 1 and 2, none) and
// checks that it prints what the Go reader reads and the address it
// computes, by two routes:
//
//   - its own (python3 -S: the standard library alone, without even the
//     packages installed for Python, so its Arrow reader and its BLAKE3
//     are the ones tried), with the zstd command to decode the bodies; it
//     skips where python3 or zstd is not installed (apt install zstd);
//   - --pyarrow, which reads the file with pyarrow; it skips where pyarrow
//     cannot be imported (pip install pyarrow: Debian packages none).
//
// A certificate whose name is not its address makes it exit 1, one cut
// short exit 2, without a Python traceback.
func TestPythonReadsCertificate(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("python3 is not installed (%v), so %s cannot run", err, pythonReader)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	big := randomCert(rng, 1000)
	big.Claim = Claim{Root: "0*12", Kind: ClaimWin, N: 3}
	big.Entries[0].Win = append(big.Entries[0].Win, 3<<WinShift|5, math.MaxInt32) // multi-byte varints
	many := randomCert(rng, 20)
	many.Cites = []string{citingAddress, citedAddress, exampleAddress}
	cases := []struct {
		name    string
		c       *Certificate
		opt     WriteOptions
		batches int
	}{
		{"random", big, WriteOptions{BatchRows: 100}, 10},
		{"example", exampleCert(), WriteOptions{}, 1},
		{"citing example", citingExampleCert(), WriteOptions{}, 1},
		{"citing three", many, WriteOptions{BatchRows: 7}, 3},
		{"empty", &Certificate{Claim: Claim{Root: "0", Kind: ClaimLoss}, Game: "sprouts", Notation: "spots-canonical/1"}, WriteOptions{}, 0},
	}
	paths := make([]string, len(cases))
	for i, tc := range cases {
		if paths[i], err = WriteCertificate(t.TempDir(), tc.c, tc.opt); err != nil {
			t.Fatal(err)
		}
	}
	for _, route := range []struct {
		name string
		args []string
		skip func() string // why the route cannot run here, or ""
	}{
		{"own reader", []string{"-S", pythonReader}, func() string {
			if _, err := exec.LookPath("zstd"); err != nil {
				return "the zstd command is not installed (apt install zstd), which the reader's own route decodes the bodies with under python3 -S"
			}
			return ""
		}},
		{"pyarrow", []string{pythonReader, "--pyarrow"}, func() string {
			if out, err := exec.Command(python, "-c", "import pyarrow.ipc").CombinedOutput(); err != nil {
				return "pyarrow cannot be imported (pip install pyarrow; Debian packages none), so the --pyarrow route is not tried: " +
					strings.TrimSpace(lastLine(out))
			}
			return ""
		}},
	} {
		t.Run(route.name, func(t *testing.T) {
			if why := route.skip(); why != "" {
				t.Skip(why)
			}
			for i, tc := range cases {
				out, status := runPython(t, python, append(route.args, paths[i]))
				if status != 0 {
					t.Fatalf("%s: exit %d: %s", tc.name, status, out)
				}
				var got nodeOutput
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("%s: printed %q: %v", tc.name, out, err)
				}
				if want := nodeWant(tc.c, tc.batches); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: read\n%+v\nwant\n%+v", tc.name, got, want)
				}
			}
			// Another address as its name: exit 1, both addresses named.
			data, err := os.ReadFile(paths[1])
			if err != nil {
				t.Fatal(err)
			}
			renamed := filepath.Join(t.TempDir(), citedAddress+".arrow")
			cut := filepath.Join(t.TempDir(), "cut.arrow")
			if os.WriteFile(renamed, data, 0o644) != nil || os.WriteFile(cut, data[:len(data)-100], 0o644) != nil {
				t.Fatal("writing the test's files")
			}
			if out, status := runPython(t, python, append(route.args, renamed)); status != 1 || !strings.Contains(out, "hash to "+exampleAddress) {
				t.Errorf("a certificate named %s: exit %d, %q; want 1 and its address", citedAddress, status, out)
			}
			if out, status := runPython(t, python, append(route.args, cut)); status != 2 || strings.Contains(out, "Traceback") || !strings.Contains(out, "cut.arrow") {
				t.Errorf("a certificate cut short: exit %d, %q; want 2 and the file named, no traceback", status, out)
			}
		})
	}
}

// runPython runs python with args and returns its output (both streams)
// and exit status.
func runPython(t *testing.T, python string, args []string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", python, strings.Join(args, " "), err)
	}
	return out.String(), 0
}

// lastLine is the last line of out (a Python error's message).
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}
