package format

import (
	"context"
	"encoding/json"
	"io"
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

// nodeReaderDir holds the JavaScript reader that docs/certificate-format.md
// publishes; this test is what keeps it honest.
var nodeReaderDir = filepath.Join("..", "docs", "readers")

// nodeFiles are the files of nodeReaderDir that the reader needs.
var nodeFiles = []string{"package.json", "package-lock.json", "read-certificate.mjs"}

// nodeOutput is what read-certificate.mjs prints about a certificate.
type nodeOutput struct {
	Format          string      `json:"format"`
	Cites           []string    `json:"cites"`
	Claim           string      `json:"claim"`
	Game            string      `json:"game"`
	Notation        string      `json:"notation"`
	Producer        string      `json:"producer"`
	Version         string      `json:"version"`
	DeclaredAddress string      `json:"declaredAddress"`
	Address         string      `json:"address"`
	Batches         int         `json:"batches"`
	Entries         []nodeEntry `json:"entries"`
}

type nodeEntry struct {
	Position string   `json:"position"`
	Grundy   uint32   `json:"grundy"`
	Reach    []uint32 `json:"reach"`
	Win      []int32  `json:"win"`
}

// TestNodeReadsCertificate proves that another Arrow implementation, Arrow
// JS under node, reads our files (zstd bodies, several batches, metadata
// and list columns), and that the published reader docs/readers/
// read-certificate.mjs recomputes the content address by the documented
// recipe, of version 1 and of version 2 (a certificate that cites others,
// one and three). It installs the packages pinned by docs/readers/package-lock.json
// (npm ci) into a temporary directory, never into the source tree, and
// skips, saying why, where node or npm is not installed or the npm registry
// cannot be reached.
func TestNodeReadsCertificate(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not installed (%v), so no non-Go Arrow reader can be tried", err)
	}
	dir := installNodePackages(t, nodeReaderDir)

	rng := rand.New(rand.NewPCG(3, 4))
	big := randomCert(rng, 1000)
	big.Claim = Claim{Root: "0*12", Kind: ClaimWin, N: 3}
	big.Entries[0].Win = append(big.Entries[0].Win, 3<<WinShift|5, math.MaxInt32) // multi-byte varints
	many := randomCert(rng, 20)
	many.Cites = []string{citingAddress, citedAddress, exampleAddress} // in increasing order, as the format requires
	for _, tc := range []struct {
		name    string
		c       *Certificate
		opt     WriteOptions
		batches int
	}{
		{"random", big, WriteOptions{BatchRows: 100}, 10},
		{"example", exampleCert(), WriteOptions{}, 1},
		{"citing example", citingExampleCert(), WriteOptions{}, 1},
		{"citing three", many, WriteOptions{BatchRows: 7}, 3},
		{"empty", &Certificate{Claim: Claim{Root: "0", Kind: ClaimLoss}, Game: "sprouts", Notation: "spots-canonical/1"}, WriteOptions{}, 1}, // no batch in the file; Arrow JS makes its table of one empty batch
	} {
		path, err := WriteCertificate(t.TempDir(), tc.c, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, node, "read-certificate.mjs", path)
		cmd.Dir = dir
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("%s: node read-certificate.mjs: %v\n%s", tc.name, err, stderr(err))
		}
		var got nodeOutput
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: node printed %q: %v", tc.name, out, err)
		}
		if want := nodeWant(tc.c, tc.batches); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: node read\n%+v\nwant\n%+v", tc.name, got, want)
		}
	}
}

// nodeWant is what read-certificate.mjs should print about c, written in
// the given number of batches.
func nodeWant(c *Certificate, batches int) nodeOutput {
	addr := c.Address()
	o := nodeOutput{
		Format: c.Format(), Cites: append([]string{}, c.Cites...),
		Claim: c.Claim.String(), Game: c.Game, Notation: c.Notation, Producer: c.Producer, Version: c.Version,
		DeclaredAddress: addr, Address: addr, Batches: batches, Entries: []nodeEntry{},
	}
	for _, e := range c.Entries {
		ne := nodeEntry(e)
		if ne.Reach == nil {
			ne.Reach = []uint32{}
		}
		if ne.Win == nil {
			ne.Win = []int32{}
		}
		o.Entries = append(o.Entries, ne)
	}
	return o
}

// installNodePackages copies the reader in src into a temporary directory,
// runs npm ci there and returns the directory. It skips the test when npm
// is not installed or its registry does not answer (npm ping).
func installNodePackages(t *testing.T, src string) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed (%v), so Arrow JS cannot be installed", err)
	}
	dir := t.TempDir()
	for _, name := range nodeFiles {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatalf("the node reader: %v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	npmIn := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, npm, args...)
		cmd.Dir = dir
		return cmd.CombinedOutput()
	}
	// The cache may hold the packages; otherwise the registry must answer.
	if _, err := npmIn("ci", "--offline", "--no-audit", "--no-fund"); err == nil {
		return dir
	}
	if out, err := npmIn("ping"); err != nil {
		t.Skipf("the npm registry does not answer, so Arrow JS cannot be installed: npm ping: %v\n%s", err, out)
	}
	if out, err := npmIn("ci", "--prefer-offline", "--no-audit", "--no-fund"); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return dir
}

func stderr(err error) []byte {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.Stderr
	}
	return nil
}

// formatDoc is the document of the certificate format.
var formatDoc = filepath.Join("..", "docs", "certificate-format.md")

// TestNodeSnippet runs the ```js block of docs/certificate-format.md, the
// few lines a Node user copies, on the certificates of the document's
// worked examples (corpus/certs, and format/testdata/cites for version 2),
// with the packages of the published reader, and checks that it prints
// the format, the citations, the claim, the address and every entry as the
// Go reader reads them. It skips as TestNodeReadsCertificate does.
func TestNodeSnippet(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not installed (%v), so the snippet cannot run", err)
	}
	doc, err := os.ReadFile(formatDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n```js\n")
	snippet, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatalf("%s has no ```js block", formatDoc)
	}
	dir := installNodePackages(t, nodeReaderDir)
	if err := os.WriteFile(filepath.Join(dir, "snippet.mjs"), []byte(snippet+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{
		filepath.Join("..", "corpus", "certs", exampleAddress+".arrow"),
		filepath.Join(citesDir, citingAddress+".arrow"),
	} {
		path, err := filepath.Abs(rel)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, node, "snippet.mjs", path)
		cmd.Dir = dir
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("node snippet.mjs %s: %v\n%s", rel, err, stderr(err))
		}
		want := snippetWant(t, path)
		if got := strings.Split(strings.TrimSpace(string(out)), "\n"); !reflect.DeepEqual(got, want) {
			t.Errorf("the snippet printed on %s\n%s\nwant\n%s", rel, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// snippetWant is what the document's ```js block should print about the
// certificate at path, as the Go reader reads it.
func snippetWant(t *testing.T, path string) []string {
	t.Helper()
	r, err := OpenCertificate(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	head, _ := json.Marshal(struct {
		Format  string   `json:"format"`
		Cites   []string `json:"cites"`
		Claim   string   `json:"claim"`
		Address string   `json:"address"`
	}{h.Format(), append([]string{}, h.Cites...), h.Claim.String(), r.DeclaredAddress()})
	want := []string{string(head)}
	for {
		e, err := r.Next()
		if err == io.EOF {
			return want
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(nodeEntry{Position: e.Position, Grundy: e.Grundy, Reach: append([]uint32{}, e.Reach...), Win: append([]int32{}, e.Win...)})
		want = append(want, string(b))
	}
}
