package format

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
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
	str(FormatVersion)
	str(c.Game)
	str(c.Notation)
	str(c.Claim.String())
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

// TestAddressExample checks the worked example of the content address in
// docs/certificate-format.md: the bytes, their BLAKE3 hash (with b3sum too
// where it is installed), the address of the certificate, and that the
// written file reads back with that address and the column descriptions.
func TestAddressExample(t *testing.T) {
	c := exampleCert()
	b := hashedBytes(c)
	if got := hex.EncodeToString(b); got != exampleHashedHex {
		t.Errorf("hashed bytes\n%s\nwant\n%s", got, exampleHashedHex)
	}
	sum := blake3.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != exampleAddress {
		t.Errorf("BLAKE3 of the hashed bytes is %s, want %s", got, exampleAddress)
	}
	if got := c.Address(); got != exampleAddress {
		t.Errorf("Address() = %s, want %s", got, exampleAddress)
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
	} else if got := strings.TrimSpace(string(out)); got != exampleAddress {
		t.Errorf("b3sum printed %s, want %s", got, exampleAddress)
	}

	path, err := WriteCertificate(dir, c, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != exampleAddress+".arrow" {
		t.Errorf("written as %s", path)
	}
	r, err := OpenCertificate(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
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
