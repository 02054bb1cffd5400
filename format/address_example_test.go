package format

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/zeebo/blake3"
)

// exampleCert is the certificate of "0*3=W" in corpus/certs: six entries,
// small enough to print its hashed bytes in docs/certificate-format.md.
func exampleCert() *Certificate {
	return &Certificate{
		Claim:    Claim{Root: "0*3", Kind: ClaimWin},
		Game:     "sprouts",
		Notation: "spots-canonical/1",
		Producer: "spots",
		Version:  "dev",
		Entries: []Entry{
			{Position: "22", Grundy: 1, Reach: []uint32{0}, Win: []int32{-1}},
			{Position: "AB|AB", Grundy: 1, Reach: []uint32{0}, Win: []int32{-1}},
			{Position: "0", Grundy: 0, Reach: []uint32{}, Win: []int32{-1}},
			{Position: "12", Grundy: 0, Reach: []uint32{}, Win: []int32{-1, -1}},
			{Position: "0.2", Grundy: 1, Reach: []uint32{0}, Win: []int32{-1, 1}},
			{Position: "0.AB|0.AB", Grundy: 0, Reach: []uint32{}, Win: []int32{2, 0, -1}},
		},
	}
}

// citedExampleCert is the certificate of gn(0*2)=0 in format/testdata/cites
// that citingExampleCert cites: version 1, three entries.
func citedExampleCert() *Certificate {
	return &Certificate{
		Claim:    Claim{Root: "0*2", Kind: ClaimGrundy, N: 0},
		Game:     "sprouts",
		Notation: "spots-canonical/1",
		Producer: "spots",
		Version:  "(devel)",
		Entries: []Entry{
			{Position: "0", Grundy: 0, Reach: []uint32{}, Win: []int32{0}},
			{Position: "ABCD|ABCD", Grundy: 0, Reach: []uint32{}, Win: []int32{0, 0}},
			{Position: "0*2", Grundy: 0, Reach: []uint32{}, Win: []int32{0, 2}},
		},
	}
}

// citingExampleCert is the certificate of "0*3=W" in format/testdata/cites
// that cites citedExampleCert (spots-solve --reuse): exampleCert's rows but
// "0", which the cited certificate gives. It is the worked example of a
// version 2 address in docs/certificate-format.md.
func citingExampleCert() *Certificate {
	c := exampleCert()
	c.Version = "(devel)"
	c.Cites = []string{citedAddress}
	c.Entries = slices.Delete(c.Entries, 2, 3)
	return c
}

// The hashed bytes of exampleCert and its address, as printed in
// docs/certificate-format.md ("A worked example"). If this test fails, the
// document is wrong too.
const (
	exampleHashedHex = "13" + "73706f74732d63657274696669636174652f31" + // str("spots-certificate/1")
		"07" + "7370726f757473" + // str("sprouts")
		"11" + "73706f74732d63616e6f6e6963616c2f31" + // str("spots-canonical/1")
		"05" + "302a333d57" + // str("0*3=W")
		"06" + // 6 entries
		"02" + "3232" + "01" + "0100" + "0101" + // "22": gn 1, reach [0], win [-1]
		"05" + "41427c4142" + "01" + "0100" + "0101" + // "AB|AB": gn 1, reach [0], win [-1]
		"01" + "30" + "00" + "00" + "0101" + // "0": gn 0, reach [], win [-1]
		"02" + "3132" + "00" + "00" + "020101" + // "12": gn 0, reach [], win [-1 -1]
		"03" + "302e32" + "01" + "0100" + "020102" + // "0.2": gn 1, reach [0], win [-1 1]
		"09" + "302e41427c302e4142" + "00" + "00" + "03040001" // "0.AB|0.AB": gn 0, reach [], win [2 0 -1]
	exampleAddress = "eacf849c669b63334200b95c830c05a5eb8cf06bad39c37c9cd5272d0f2a5386"
)

// The hashed bytes of citingExampleCert and its address, as printed in
// docs/certificate-format.md ("A worked example of version 2"), and the
// address of the certificate it cites.
const (
	citingHashedHex = "13" + "73706f74732d63657274696669636174652f32" + // str("spots-certificate/2")
		"07" + "7370726f757473" + // str("sprouts")
		"11" + "73706f74732d63616e6f6e6963616c2f31" + // str("spots-canonical/1")
		"05" + "302a333d57" + // str("0*3=W")
		"01" + // cites 1 certificate
		"40" + "3238366264343163353465646363333239343435633063656130383364656463" + // str("286bd41c…"): the 64 characters of the address,
		"3933383138373630613031333936343461636337313231643437396638376134" + // not the 32 bytes they spell
		"05" + // 5 entries
		"02" + "3232" + "01" + "0100" + "0101" + // "22": gn 1, reach [0], win [-1]
		"05" + "41427c4142" + "01" + "0100" + "0101" + // "AB|AB": gn 1, reach [0], win [-1]
		"02" + "3132" + "00" + "00" + "020101" + // "12": gn 0, reach [], win [-1 -1]
		"03" + "302e32" + "01" + "0100" + "020102" + // "0.2": gn 1, reach [0], win [-1 1]
		"09" + "302e41427c302e4142" + "00" + "00" + "03040001" // "0.AB|0.AB": gn 0, reach [], win [2 0 -1]
	citingAddress = "034e3c291863804e2715c5fc16fb74e07f00a722744074ae1197d2792fcc904c"
	citedAddress  = "286bd41c54edcc329445c0cea083dedc93818760a0139644acc7121d479f87a4"
)

// citesDir holds the certificates of the version 2 example: the citing
// one and the one it cites, as spots-solve wrote them.
var citesDir = filepath.Join("testdata", "cites")

// hashedBytes builds the byte string that a content address hashes,
// written from the recipe in docs/certificate-format.md rather than with
// the package's addresser, so the two can be compared.
func hashedBytes(c *Certificate) []byte {
	var b []byte
	uvarint := func(x uint64) {
		for x >= 0x80 {
			b = append(b, byte(x)|0x80)
			x >>= 7
		}
		b = append(b, byte(x))
	}
	zigzag := func(x int64) uint64 { return uint64(x<<1) ^ uint64(x>>63) }
	str := func(s string) {
		uvarint(uint64(len(s)))
		b = append(b, s...)
	}
	// The versions are spelled out, not taken from the package's
	// constants, so that a change to them fails the test.
	if len(c.Cites) == 0 {
		str("spots-certificate/1")
	} else {
		str("spots-certificate/2")
	}
	str(c.Game)
	str(c.Notation)
	str(c.Claim.String())
	if len(c.Cites) > 0 {
		uvarint(uint64(len(c.Cites)))
		for _, a := range c.Cites {
			str(a)
		}
	}
	uvarint(uint64(len(c.Entries)))
	for _, e := range c.Entries {
		str(e.Position)
		uvarint(uint64(e.Grundy))
		uvarint(uint64(len(e.Reach)))
		for _, r := range e.Reach {
			uvarint(uint64(r))
		}
		uvarint(uint64(len(e.Win)))
		for _, w := range e.Win {
			uvarint(zigzag(int64(w)))
		}
	}
	return b
}

// TestAddressExample checks the worked examples of the content address in
// docs/certificate-format.md, of version 1 and of version 2: the bytes
// (as the document groups them and as its b3sum command gives them), their
// BLAKE3 hash (with b3sum too where it is installed), the address of the
// certificate, and that the written file reads back with that address, its
// citations and the column descriptions.
func TestAddressExample(t *testing.T) {
	doc, err := os.ReadFile(formatDoc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		c       *Certificate
		hex     string
		address string
	}{
		{"version 1", exampleCert(), exampleHashedHex, exampleAddress},
		{"version 2", citingExampleCert(), citingHashedHex, citingAddress},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkDocExample(t, string(doc), tc.hex, tc.address)
			checkAddressExample(t, tc.c, tc.hex, tc.address)
		})
	}
}

// checkDocExample checks that the document prints the hashed bytes
// wantHex, grouped in a block after "Its hashed bytes are these N" (the
// bytes of each line come before the three spaces of its comment) and
// whole in the b3sum command, and the address they hash to.
func checkDocExample(t *testing.T, doc, wantHex, address string) {
	t.Helper()
	n := len(wantHex) / 2
	_, block, ok := strings.Cut(doc, fmt.Sprintf("Its hashed bytes are these %d", n))
	_, block, blank := strings.Cut(block, "\n\n")
	if !ok || !blank {
		t.Fatalf("%s does not give the %d hashed bytes of the example of %s", formatDoc, n, address)
	}
	block, _, _ = strings.Cut(block, "\n\n")
	var grouped strings.Builder
	for _, line := range strings.Split(block, "\n") {
		bytes, _, _ := strings.Cut(strings.TrimSpace(line), "   ")
		grouped.WriteString(strings.ReplaceAll(bytes, " ", ""))
	}
	if grouped.String() != wantHex {
		t.Errorf("%s groups the hashed bytes as\n%s\nwant\n%s", formatDoc, grouped.String(), wantHex)
	}
	if !strings.Contains(doc, "    echo "+wantHex+" \\\n") {
		t.Errorf("%s has no b3sum command of the bytes %s", formatDoc, wantHex)
	}
	if !strings.Contains(doc, "\n    "+address+"  -\n") {
		t.Errorf("%s does not give b3sum's answer %s", formatDoc, address)
	}
}

func checkAddressExample(t *testing.T, c *Certificate, wantHex, address string) {
	t.Helper()
	b := hashedBytes(c)
	if got := hex.EncodeToString(b); got != wantHex {
		t.Errorf("hashed bytes\n%s\nwant\n%s", got, wantHex)
	}
	sum := blake3.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != address {
		t.Errorf("BLAKE3 of the hashed bytes is %s, want %s", got, address)
	}
	if got := c.Address(); got != address {
		t.Errorf("Address() = %s, want %s", got, address)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "example.bin")
	if err := os.WriteFile(bin, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if b3sum, err := exec.LookPath("b3sum"); err != nil {
		t.Logf("b3sum is not installed (%v); the Go BLAKE3 checked the example", err)
	} else if out, err := exec.Command(b3sum, "--no-names", bin).Output(); err != nil {
		t.Errorf("b3sum: %v\n%s", err, stderr(err))
	} else if got := strings.TrimSpace(string(out)); got != address {
		t.Errorf("b3sum printed %s, want %s", got, address)
	}

	path, err := WriteCertificate(dir, c, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != address+".arrow" {
		t.Errorf("written as %s", path)
	}
	r, err := OpenCertificate(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Header(); !slices.Equal(h.Cites, c.Cites) || h.Format() != c.Format() {
		t.Errorf("read back as %s citing %v, want %s citing %v", h.Format(), h.Cites, c.Format(), c.Cites)
	}
	for _, f := range r.fr.Schema().Fields() {
		if d, ok := f.Metadata.GetValue(metaDescription); !ok || d != columnDescriptions[f.Name] {
			t.Errorf("column %s: description %q, want %q", f.Name, d, columnDescriptions[f.Name])
		}
	}
}

// TestReadsFilesWithoutDescriptions: files written before columns carried
// descriptions read as before, with the same address.
func TestReadsFilesWithoutDescriptions(t *testing.T) {
	c := exampleCert()
	s := certSchema(certMetadata(c))
	fields := s.Fields()
	for i := range fields {
		fields[i].Metadata = arrow.Metadata{}
	}
	md := s.Metadata()
	bare := arrow.NewSchema(fields, &md)
	got, err := decode(rawFile(t, bare, nil, entriesRecord(bare, c.Entries)))
	if err != nil {
		t.Fatalf("a file without column descriptions: %v", err)
	}
	if got.Address() != exampleAddress {
		t.Errorf("read back with address %s, want %s", got.Address(), exampleAddress)
	}
}

// TestCorpusExample: the example is the corpus's certificate of 0*3=W,
// where the corpus is there.
func TestCorpusExample(t *testing.T) {
	path := filepath.Join("..", "corpus", "certs", exampleAddress+".arrow")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no corpus certificate: %v", err)
	}
	got, err := ReadCertificate(path)
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(hashedBytes(got)) != exampleHashedHex {
		t.Errorf("the corpus certificate %s is not the example", path)
	}
}

// TestCitesExample: the version 2 example and the certificate it cites are
// the files in format/testdata/cites, which the readers' tests use, and
// the cited one is named by the address the citing one cites.
func TestCitesExample(t *testing.T) {
	for _, tc := range []struct {
		c       *Certificate
		address string
	}{
		{citingExampleCert(), citingAddress},
		{citedExampleCert(), citedAddress},
	} {
		path := filepath.Join(citesDir, tc.address+".arrow")
		got, err := ReadCertificate(path)
		if err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(hashedBytes(got)) != hex.EncodeToString(hashedBytes(tc.c)) {
			t.Errorf("%s is not the example %s", path, tc.c.Claim)
		}
		if got.Address() != tc.address {
			t.Errorf("%s has the address %s", path, got.Address())
		}
	}
}
