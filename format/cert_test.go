package format

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/zeebo/blake3"
)

// sampleCert returns a small certificate of n entries, the same for the
// same n.
func sampleCert(n int) *Certificate {
	c := &Certificate{
		Claim:    Claim{Root: "0*3", Kind: ClaimGrundy, N: 1},
		Game:     "sprouts",
		Notation: "spots-canonical/1",
		Producer: "spots-test",
		Version:  "v0.0.0 (test)",
		Created:  time.Date(2025, 11, 16, 12, 30, 0, 123456789, time.UTC),
	}
	for i := range n {
		g := uint32(i % 4)
		e := Entry{Position: fmt.Sprintf("0*%d.AB|AB", i+1), Grundy: g}
		for m := range g {
			e.Reach = append(e.Reach, m*7)
		}
		for k := range i % 5 {
			e.Win = append(e.Win, int32(k)-1)
		}
		c.Entries = append(c.Entries, e)
	}
	return c
}

// randomCert returns a certificate of n random entries.
func randomCert(rng *rand.Rand, n int) *Certificate {
	c := sampleCert(0)
	c.Claim = Claim{Root: randomText(rng), Kind: ClaimKind(1 + rng.IntN(3)), N: rng.Uint32N(5)}
	for range n {
		e := Entry{Position: randomText(rng), Grundy: rng.Uint32N(6)}
		for range e.Grundy {
			e.Reach = append(e.Reach, rng.Uint32())
		}
		for range rng.IntN(12) {
			e.Win = append(e.Win, int32(rng.IntN(40))-1)
		}
		c.Entries = append(c.Entries, e)
	}
	return c
}

func randomText(rng *rand.Rand) string {
	const alphabet = "0123abclAY.|!()-=#é"
	runes := []rune(alphabet)
	var b strings.Builder
	for range 1 + rng.IntN(30) {
		b.WriteRune(runes[rng.IntN(len(runes))])
	}
	return b.String()
}

func encode(t testing.TB, c *Certificate, opt WriteOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeCertificate(&buf, c, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decode reads a whole certificate from memory, as ReadCertificate does
// from a file.
func decode(data []byte) (*Certificate, error) {
	r, err := NewCertReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readAll(r)
}

// diff returns how a and b differ, or "".
func diff(a, b *Certificate) string {
	switch {
	case a.Claim != b.Claim:
		return fmt.Sprintf("claim %v, want %v", a.Claim, b.Claim)
	case a.Game != b.Game || a.Notation != b.Notation || a.Producer != b.Producer || a.Version != b.Version:
		return fmt.Sprintf("header %q %q %q %q, want %q %q %q %q", a.Game, a.Notation, a.Producer, a.Version, b.Game, b.Notation, b.Producer, b.Version)
	case !a.Created.Equal(b.Created):
		return fmt.Sprintf("created %v, want %v", a.Created, b.Created)
	case len(a.Entries) != len(b.Entries):
		return fmt.Sprintf("%d entries, want %d", len(a.Entries), len(b.Entries))
	}
	for i := range a.Entries {
		x, y := &a.Entries[i], &b.Entries[i]
		if x.Position != y.Position || x.Grundy != y.Grundy || !slices.Equal(x.Reach, y.Reach) || !slices.Equal(x.Win, y.Win) {
			return fmt.Sprintf("entry %d is %+v, want %+v", i+1, *x, *y)
		}
	}
	return ""
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	big := sampleCert(3)
	big.Entries[1].Grundy = MaxReach
	big.Entries[1].Reach = make([]uint32, MaxReach)
	big.Entries[1].Win = make([]int32, MaxWin)
	for i := range big.Entries[1].Win {
		big.Entries[1].Win[i] = int32(i%3) - 1
	}
	empty := &Certificate{Claim: Claim{Root: "!", Kind: ClaimLoss}, Game: "sprouts", Notation: "n/1"}
	bare := sampleCert(0)
	bare.Entries = []Entry{{Position: "0", Grundy: 0}, {Position: "1", Grundy: 0, Reach: []uint32{}, Win: []int32{}}}
	tests := []struct {
		name string
		c    *Certificate
		opt  WriteOptions
	}{
		{"empty", empty, WriteOptions{}},
		{"empty lists", bare, WriteOptions{}},
		{"one batch", sampleCert(10), WriteOptions{}},
		{"batches of 1", sampleCert(10), WriteOptions{BatchRows: 1}},
		{"batches of 7", sampleCert(50), WriteOptions{BatchRows: 7}},
		{"random", randomCert(rng, 300), WriteOptions{BatchRows: 64}},
		{"random, level 19", randomCert(rng, 300), WriteOptions{CompressionLevel: 19}},
		{"longest lists", big, WriteOptions{BatchRows: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decode(encode(t, tt.c, tt.opt))
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(got, tt.c); d != "" {
				t.Fatal(d)
			}
			if got.Address() != tt.c.Address() {
				t.Errorf("address %s, want %s", got.Address(), tt.c.Address())
			}
		})
	}
}

func TestCertReaderStreams(t *testing.T) {
	c := sampleCert(20)
	data := encode(t, c, WriteOptions{BatchRows: 6})
	r, err := NewCertReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Header(); h.Claim != c.Claim || h.Game != c.Game || h.Entries != nil {
		t.Errorf("header %+v", h)
	}
	if r.DeclaredAddress() != c.Address() {
		t.Errorf("declared address %s, want %s", r.DeclaredAddress(), c.Address())
	}
	if _, err := r.Address(); err == nil {
		t.Error("Address before the end gave no error")
	}
	for i := 1; ; i++ {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil || r.Row() != i {
			t.Fatalf("row %d: %v, Row() = %d", i, err, r.Row())
		}
	}
	if r.Row() != 20 {
		t.Errorf("Row() = %d after the end", r.Row())
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next after the end: %v", err)
	}
	if addr, err := r.Address(); err != nil || addr != c.Address() {
		t.Errorf("Address() = %s, %v; want %s", addr, err, c.Address())
	}
}

func TestCertReaderAddressMismatch(t *testing.T) {
	c := sampleCert(4)
	md := certMetadata(c)
	m := map[string]string{}
	for i, k := range md.Keys() {
		m[k] = md.Values()[i]
	}
	m[metaAddress] = sampleCert(5).Address()
	schema := certSchema(arrow.MetadataFrom(m))
	data := rawFile(t, schema, []ipc.Option{ipc.WithZstd()}, entriesRecord(schema, c.Entries))
	r, err := NewCertReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for err == nil {
		_, err = r.Next()
	}
	addr, aerr := r.Address()
	if err != io.EOF || aerr != nil || addr != c.Address() || r.DeclaredAddress() != m[metaAddress] {
		t.Errorf("Next: %v; Address: %s, %v; declared %s", err, addr, aerr, r.DeclaredAddress())
	}
}

// TestAddressSerialization recomputes addresses from the serialization
// documented on Certificate.Address, byte by byte.
func TestAddressSerialization(t *testing.T) {
	head := func(claim string, entries byte) []byte {
		b := append([]byte{19}, "spots-certificate/1"...)
		b = append(b, 1, 'g', 1, 'n', byte(len(claim)))
		return append(append(b, claim...), entries)
	}
	empty := &Certificate{Claim: Claim{Root: "!", Kind: ClaimLoss}, Game: "g", Notation: "n"}
	one := &Certificate{Claim: Claim{Root: "0*2", Kind: ClaimWin, N: 3}, Game: "g", Notation: "n", Entries: []Entry{
		{Position: "0.AB|AB", Grundy: 2, Reach: []uint32{0, 300}, Win: []int32{-1, 1, 200}},
	}}
	oneBytes := append(head("0*2+*3=W", 1), 7)
	oneBytes = append(oneBytes, "0.AB|AB"...)
	oneBytes = append(oneBytes, 2, 2, 0, 0xac, 0x02, 3, 0x01, 0x02, 0x90, 0x03)
	tests := []struct {
		c    *Certificate
		want []byte
	}{
		{empty, head("!=L", 0)},
		{one, oneBytes},
	}
	for _, tt := range tests {
		sum := blake3.Sum256(tt.want)
		if got, want := tt.c.Address(), hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%v: address %s, want %s", tt.c.Claim, got, want)
		}
	}
	if len(head("!=L", 0)) != 29 {
		t.Errorf("the documented example has %d bytes, not 29", len(head("!=L", 0)))
	}
	if got := empty.Address(); got != emptyAddress {
		t.Errorf("the documented example hashes to %s, want %s", got, emptyAddress)
	}
}

// emptyAddress is the address of the example in Certificate.Address's
// documentation.
const emptyAddress = "2de01a61b9bfda12f51a8df8f4a57a2c3cf1ab9dc40d9bfdfaa69829a78e5e6c"

func TestAddressIgnoresEncoding(t *testing.T) {
	c := sampleCert(40)
	want := c.Address()
	seen := map[string]bool{}
	for _, rows := range []int{1, 7, 65536} {
		for _, level := range []int{0, 1, 22} {
			for _, created := range []time.Time{{}, c.Created, c.Created.Add(time.Hour).In(time.FixedZone("x", 3600))} {
				d := *c
				d.Created, d.Producer, d.Version = created, fmt.Sprint("p", rows), fmt.Sprint("v", level)
				data := encode(t, &d, WriteOptions{BatchRows: rows, CompressionLevel: level})
				seen[string(data)] = true
				got, err := decode(data)
				if err != nil {
					t.Fatalf("rows %d, level %d: %v", rows, level, err)
				}
				if got.Address() != want || d.Address() != want {
					t.Errorf("rows %d, level %d, created %v: address %s, want %s", rows, level, created, got.Address(), want)
				}
			}
		}
	}
	if len(seen) < 9 {
		t.Errorf("only %d different files: the test does not vary the encoding", len(seen))
	}
}

func TestAddressCoversContent(t *testing.T) {
	changes := map[string]func(c *Certificate){
		"game":          func(c *Certificate) { c.Game = "sprouts2" },
		"notation":      func(c *Certificate) { c.Notation = "spots-canonical/2" },
		"claim root":    func(c *Certificate) { c.Claim.Root = "0*4" },
		"claim kind":    func(c *Certificate) { c.Claim.Kind = ClaimWin },
		"claim N":       func(c *Certificate) { c.Claim.N = 2 },
		"entry dropped": func(c *Certificate) { c.Entries = c.Entries[:len(c.Entries)-1] },
		"entries moved": func(c *Certificate) { c.Entries[0], c.Entries[1] = c.Entries[1], c.Entries[0] },
		"position":      func(c *Certificate) { c.Entries[2].Position += "." },
		"grundy":        func(c *Certificate) { c.Entries[3].Grundy++; c.Entries[3].Reach = append(c.Entries[3].Reach, 0) },
		"reach value":   func(c *Certificate) { c.Entries[3].Reach[0]++ },
		"win value":     func(c *Certificate) { c.Entries[3].Win[0]++ },
		"win longer":    func(c *Certificate) { c.Entries[3].Win = append(c.Entries[3].Win, -1) },
		"win moved":     func(c *Certificate) { c.Entries[4].Win = append(c.Entries[4].Win[1:], c.Entries[4].Win[0]) },
		"list boundary": func(c *Certificate) {
			c.Entries[1].Win = append(c.Entries[1].Win, 0)
			c.Entries[2].Win = c.Entries[2].Win[1:]
		},
		"string boundar": func(c *Certificate) { c.Entries[1].Position += "A"; c.Entries[2].Position = c.Entries[2].Position[1:] },
	}
	want := sampleCert(6).Address()
	for name, change := range changes {
		c := sampleCert(6)
		change(c)
		if c.Address() == want {
			t.Errorf("%s: the address did not change", name)
		}
	}
	same := map[string]func(c *Certificate){
		"producer": func(c *Certificate) { c.Producer = "other" },
		"version":  func(c *Certificate) { c.Version = "v9" },
		"created":  func(c *Certificate) { c.Created = time.Now() },
		"nil list": func(c *Certificate) { c.Entries[0].Win = nil },
	}
	for name, change := range same {
		c := sampleCert(6)
		change(c)
		if c.Address() != want {
			t.Errorf("%s: the address changed", name)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := map[string]struct {
		change func(c *Certificate)
		opt    WriteOptions
		reason string
	}{
		"claim kind":        {func(c *Certificate) { c.Claim.Kind = 0 }, WriteOptions{}, "claim"},
		"claim root":        {func(c *Certificate) { c.Claim.Root = "0 1" }, WriteOptions{}, "whitespace"},
		"empty game":        {func(c *Certificate) { c.Game = "" }, WriteOptions{}, "game"},
		"notation space":    {func(c *Certificate) { c.Notation = "a b" }, WriteOptions{}, "notation"},
		"producer control":  {func(c *Certificate) { c.Producer = "a\nb" }, WriteOptions{}, "producer"},
		"long version":      {func(c *Certificate) { c.Version = strings.Repeat("v", maxHeaderText+1) }, WriteOptions{}, "version"},
		"created year":      {func(c *Certificate) { c.Created = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, WriteOptions{}, "creation time"},
		"reach short":       {func(c *Certificate) { c.Entries[2].Reach = nil }, WriteOptions{}, "entry 3: reach has 0 values"},
		"win below -1":      {func(c *Certificate) { c.Entries[4].Win[1] = -2 }, WriteOptions{}, "entry 5: win[1] is -2"},
		"empty position":    {func(c *Certificate) { c.Entries[0].Position = "" }, WriteOptions{}, "entry 1: position"},
		"position tab":      {func(c *Certificate) { c.Entries[0].Position = "0\t1" }, WriteOptions{}, "control character"},
		"long position":     {func(c *Certificate) { c.Entries[0].Position = strings.Repeat("0", MaxPositionBytes+1) }, WriteOptions{}, "longer than"},
		"long win":          {func(c *Certificate) { c.Entries[0].Win = make([]int32, MaxWin+1) }, WriteOptions{}, "more than"},
		"negative rows":     {func(c *Certificate) {}, WriteOptions{BatchRows: -1}, "batch rows"},
		"compression level": {func(c *Certificate) {}, WriteOptions{CompressionLevel: 23}, "compression level"},
	}
	for name, tt := range tests {
		c := sampleCert(6)
		tt.change(c)
		err := EncodeCertificate(io.Discard, c, tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("%s: %v, want an error about %q", name, err, tt.reason)
		}
	}
}

func TestLargeBatchesAreCut(t *testing.T) {
	c := sampleCert(12)
	for i := range c.Entries {
		c.Entries[i].Win = make([]int32, MaxWin) // 4 MiB each
	}
	data := encode(t, c, WriteOptions{})
	r, err := NewCertReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := r.fr.NumRecords(); n < 2 {
		t.Errorf("%d entries of 4 MiB in %d batch", len(c.Entries), n)
	}
	got, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if d := diff(got, c); d != "" {
		t.Fatal(d)
	}
}

func TestWriteCertificate(t *testing.T) {
	dir := t.TempDir()
	c := sampleCert(30)
	path, err := WriteCertificate(dir, c, WriteOptions{BatchRows: 7})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, c.Address()+".arrow"); path != want {
		t.Errorf("wrote %s, want %s", path, want)
	}
	got, err := ReadCertificate(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := diff(got, c); d != "" {
		t.Fatal(d)
	}

	// Writing the same content again leaves the first file as it was.
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)
	again := *c
	again.Producer, again.Created = "another", c.Created.Add(time.Hour)
	path2, err := WriteCertificate(dir, &again, WriteOptions{BatchRows: 1})
	if err != nil || path2 != path {
		t.Fatalf("second write: %s, %v", path2, err)
	}
	info, _ := os.Stat(path)
	now, _ := os.ReadFile(path)
	if !info.ModTime().Equal(old) || !bytes.Equal(now, first) {
		t.Error("the second write touched the file")
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Errorf("the directory holds %d files, want 1", len(files))
	}

	if _, err := WriteCertificate(filepath.Join(dir, "missing"), c, WriteOptions{}); err == nil {
		t.Error("wrote into a missing directory")
	}
	bad := sampleCert(3)
	bad.Entries[1].Reach = nil
	if _, err := WriteCertificate(dir, bad, WriteOptions{}); err == nil {
		t.Error("wrote an invalid certificate")
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("the directory holds %d files after failed writes, want 1", len(files))
	}
}

func TestReadCertificateChecksTheName(t *testing.T) {
	dir := t.TempDir()
	data := encode(t, sampleCert(3), WriteOptions{})
	other := sampleCert(4).Address()
	for name, ok := range map[string]bool{
		"cert.arrow":                                 true,
		sampleCert(3).Address() + ".arrow":           true,
		other + ".arrow":                             false,
		strings.ToUpper(other) + ".arrow":            false,
		other + ".certificate":                       true,
		"x" + sampleCert(3).Address()[1:] + ".arrow": true, // not an address
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadCertificate(path)
		if (err == nil) != ok || err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ReadCertificate(filepath.Join(dir, "missing.arrow")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// rawFile writes an Arrow file with the given schema and records, for
// files our writer would refuse to produce.
func rawFile(t *testing.T, schema *arrow.Schema, opts []ipc.Option, recs ...arrow.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := ipc.NewFileWriter(newOffsetWriter(&buf), append([]ipc.Option{ipc.WithSchema(schema)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := fw.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entriesRecord builds a record of the certificate schema from entries,
// checked or not.
func entriesRecord(schema *arrow.Schema, entries []Entry) arrow.Record {
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for _, e := range entries {
		b.Field(0).(*array.StringBuilder).Append(e.Position)
		b.Field(1).(*array.Uint32Builder).Append(e.Grundy)
		b.Field(2).(*array.ListBuilder).Append(true)
		b.Field(2).(*array.ListBuilder).ValueBuilder().(*array.Uint32Builder).AppendValues(e.Reach, nil)
		b.Field(3).(*array.ListBuilder).Append(true)
		b.Field(3).(*array.ListBuilder).ValueBuilder().(*array.Int32Builder).AppendValues(e.Win, nil)
	}
	return b.NewRecord()
}

func TestReadRejectsMetadata(t *testing.T) {
	c := sampleCert(4)
	tests := map[string]struct {
		change func(m map[string]string)
		reason string
	}{
		"missing key":       {func(m map[string]string) { delete(m, metaCreated) }, `"spots.created" is missing`},
		"unknown key":       {func(m map[string]string) { m["spots.extra"] = "1" }, `unknown metadata key "spots.extra"`},
		"format version":    {func(m map[string]string) { m[metaFormat] = "spots-certificate/3" }, "spots.format"},
		"cites missing":     {func(m map[string]string) { m[metaFormat] = FormatCiting }, `"spots.cites" is missing`},
		"cites in v1":       {func(m map[string]string) { m[metaCites] = sampleCert(5).Address() }, "not part of spots-certificate/1"},
		"cites empty":       {func(m map[string]string) { m[metaFormat], m[metaCites] = FormatCiting, "" }, "spots.cites is empty"},
		"cites not address": {func(m map[string]string) { m[metaFormat], m[metaCites] = FormatCiting, "abc" }, `citation 1 "abc" is not a content address`},
		"cites unsorted": {func(m map[string]string) {
			m[metaFormat], m[metaCites] = FormatCiting, sampleCert(5).Address()+","+sampleCert(5).Address()
		}, "citations are sorted, each once"},
		"cites swapped":    {func(m map[string]string) { m[metaFormat], m[metaCites] = FormatCiting, sampleCert(5).Address() }, "the rows hash to"},
		"claim":            {func(m map[string]string) { m[metaClaim] = "0*12=X" }, "outcome must be W or L"},
		"game":             {func(m map[string]string) { m[metaGame] = "" }, "game"},
		"address":          {func(m map[string]string) { m[metaAddress] = strings.ToUpper(c.Address()) }, "spots.address"},
		"other address":    {func(m map[string]string) { m[metaAddress] = sampleCert(5).Address() }, "the rows hash to"},
		"entries":          {func(m map[string]string) { m[metaEntries] = "x" }, "spots.entries"},
		"entries zero":     {func(m map[string]string) { m[metaEntries] = "04" }, "leading zeros"},
		"more entries":     {func(m map[string]string) { m[metaEntries] = "5" }, "the file has 4 rows, spots.entries says 5"},
		"fewer entries":    {func(m map[string]string) { m[metaEntries] = "3" }, "row 4: more rows than spots.entries (3)"},
		"created":          {func(m map[string]string) { m[metaCreated] = "yesterday" }, "spots.created"},
		"producer control": {func(m map[string]string) { m[metaProducer] = "a\x00" }, "producer"},
	}
	for name, tt := range tests {
		m := map[string]string{}
		md := certMetadata(c)
		for i, k := range md.Keys() {
			m[k] = md.Values()[i]
		}
		tt.change(m)
		schema := certSchema(arrow.MetadataFrom(m))
		data := rawFile(t, schema, []ipc.Option{ipc.WithZstd()}, entriesRecord(schema, c.Entries))
		_, err := decode(data)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("%s: %v, want a corrupt certificate about %q", name, err, tt.reason)
		}
	}
}

func TestReadRejectsRows(t *testing.T) {
	long := strings.Repeat("0", MaxPositionBytes+1)
	tests := map[string]struct {
		entries []Entry
		reason  string
	}{
		"reach short":   {[]Entry{{Position: "a"}, {Position: "b", Grundy: 2, Reach: []uint32{1}}}, "row 2: reach has 1 values"},
		"win below -1":  {[]Entry{{Position: "a", Win: []int32{0, -2}}}, "row 1: win[1] is -2"},
		"position":      {[]Entry{{Position: "a"}, {Position: "a b"}}, "row 2: position"},
		"long position": {[]Entry{{Position: long}}, "row 1: position of 65537 bytes"},
		"long win":      {[]Entry{{Position: "a", Win: make([]int32, MaxWin+1)}}, "row 1: win has 1048577 values"},
		"long reach":    {[]Entry{{Position: "a", Grundy: MaxReach + 1, Reach: make([]uint32, MaxReach+1)}}, "row 1: reach has 65537 values"},
	}
	for name, tt := range tests {
		c := sampleCert(0)
		c.Entries = tt.entries
		schema := certSchema(certMetadata(c))
		data := rawFile(t, schema, []ipc.Option{ipc.WithZstd()}, entriesRecord(schema, tt.entries))
		_, err := decode(data)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("%s: %v, want a corrupt certificate about %q", name, err, tt.reason)
		}
	}
}

func TestReadRejectsSchema(t *testing.T) {
	c := sampleCert(1)
	md := certMetadata(c)
	utf8 := arrow.Field{Name: colPosition, Type: arrow.BinaryTypes.String}
	grundy := arrow.Field{Name: colGrundy, Type: arrow.PrimitiveTypes.Uint32}
	reach := arrow.Field{Name: colReach, Type: arrow.ListOf(arrow.PrimitiveTypes.Uint32)}
	win := arrow.Field{Name: colWin, Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)}
	tests := map[string][]arrow.Field{
		"missing column": {utf8, grundy, reach},
		"extra column":   {utf8, grundy, reach, win, grundy},
		"grundy int64":   {utf8, {Name: colGrundy, Type: arrow.PrimitiveTypes.Int64}, reach, win},
		"binary":         {{Name: colPosition, Type: arrow.BinaryTypes.Binary}, grundy, reach, win},
		"win of uint32":  {utf8, grundy, reach, {Name: colWin, Type: arrow.ListOf(arrow.PrimitiveTypes.Uint32)}},
		"large list":     {utf8, grundy, reach, {Name: colWin, Type: arrow.LargeListOf(arrow.PrimitiveTypes.Int32)}},
		"renamed":        {utf8, {Name: "nimber", Type: arrow.PrimitiveTypes.Uint32}, reach, win},
		"swapped":        {utf8, grundy, win, reach},
		"dictionary":     {{Name: colPosition, Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}}, grundy, reach, win},
		"field metadata": {{Name: colPosition, Type: arrow.BinaryTypes.String, Metadata: arrow.NewMetadata([]string{"k"}, []string{"v"})}, grundy, reach, win},
		"description and more": {{Name: colPosition, Type: arrow.BinaryTypes.String,
			Metadata: arrow.NewMetadata([]string{metaDescription, "k"}, []string{"a position", "v"})}, grundy, reach, win},
		"item metadata": {utf8, grundy, reach, {Name: colWin, Type: arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32,
			Metadata: arrow.NewMetadata([]string{metaDescription}, []string{"a hint"})})}},
	}
	for name, fields := range tests {
		schema := arrow.NewSchema(fields, &md)
		data := rawFile(t, schema, nil) // no rows: the schema alone must be refused
		if _, err := decode(data); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want a corrupt certificate", name, err)
		}
	}
	// A column may describe itself in any words.
	described := arrow.NewSchema([]arrow.Field{utf8, grundy, reach, {Name: colWin, Type: win.Type,
		Metadata: arrow.NewMetadata([]string{metaDescription}, []string{"other words"})}}, &md)
	if _, err := decode(rawFile(t, described, nil, entriesRecord(described, c.Entries))); err != nil {
		t.Errorf("a column with its own description: %v", err)
	}
	// The nullability of columns and list items is not part of the format.
	schema := arrow.NewSchema([]arrow.Field{{Name: colPosition, Type: arrow.BinaryTypes.String, Nullable: true}, grundy, reach, win}, &md)
	if _, err := decode(rawFile(t, schema, nil, entriesRecord(schema, c.Entries))); err != nil {
		t.Errorf("nullable columns: %v", err)
	}
}

func TestReadRejectsNulls(t *testing.T) {
	// Nulls in each column, one at a time, built by hand.
	for col := range 4 {
		pos := array.NewStringBuilder(memory.NewGoAllocator())
		gr := array.NewUint32Builder(memory.NewGoAllocator())
		re := array.NewListBuilderWithField(memory.NewGoAllocator(), arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Uint32})
		wi := array.NewListBuilderWithField(memory.NewGoAllocator(), arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32})
		for i := range 2 {
			null := i == 1
			appendOr(null && col == 0, pos.AppendNull, func() { pos.Append("0") })
			appendOr(null && col == 1, gr.AppendNull, func() { gr.Append(0) })
			appendOr(null && col == 2, re.AppendNull, func() { re.Append(true) })
			appendOr(null && col == 3, wi.AppendNull, func() { wi.Append(true) })
		}
		d := sampleCert(0)
		d.Entries = []Entry{{Position: "0"}, {Position: "0"}}
		s := certSchema(certMetadata(d))
		rec := array.NewRecord(s, []arrow.Array{pos.NewArray(), gr.NewArray(), re.NewArray(), wi.NewArray()}, 2)
		_, err := decode(rawFile(t, s, []ipc.Option{ipc.WithZstd()}, rec))
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "nulls") {
			t.Errorf("null in column %d: %v", col+1, err)
		}
	}
}

func appendOr(cond bool, a, b func()) {
	if cond {
		a()
	} else {
		b()
	}
}

func TestReadAcceptsOtherEncodings(t *testing.T) {
	c := sampleCert(9)
	schema := certSchema(certMetadata(c))
	for name, opts := range map[string][]ipc.Option{
		"uncompressed": nil,
		"lz4":          {ipc.WithLZ4()},
	} {
		data := rawFile(t, schema, opts, entriesRecord(schema, c.Entries[:4]), entriesRecord(schema, c.Entries[4:]))
		got, err := decode(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if d := diff(got, c); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

func TestReadRejectsNonCertificates(t *testing.T) {
	valid := encode(t, sampleCert(3), WriteOptions{})
	var stream bytes.Buffer
	schema := certSchema(certMetadata(sampleCert(3)))
	w := ipc.NewWriter(&stream, ipc.WithSchema(schema))
	w.Write(entriesRecord(schema, sampleCert(3).Entries))
	w.Close()
	tests := map[string][]byte{
		"empty":        nil,
		"text":         []byte("[Positions+Nimber]\n0 0\n"),
		"magic only":   []byte("ARROW1\x00\x00ARROW1"),
		"no head":      append([]byte("XXXXXX"), valid[6:]...),
		"stream":       stream.Bytes(),
		"zero footer":  append(slices.Clone(valid[:len(valid)-10]), 0, 0, 0, 0, 'A', 'R', 'R', 'O', 'W', '1'),
		"huge footer":  append(slices.Clone(valid[:len(valid)-10]), 0xff, 0xff, 0xff, 0x7f, 'A', 'R', 'R', 'O', 'W', '1'),
		"neg footer":   append(slices.Clone(valid[:len(valid)-10]), 0xff, 0xff, 0xff, 0xff, 'A', 'R', 'R', 'O', 'W', '1'),
		"doubled tail": append(slices.Clone(valid), valid[len(valid)-10:]...),
	}
	for name, data := range tests {
		if _, err := decode(data); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want a corrupt certificate", name, err)
		}
	}
}

func TestReadTruncated(t *testing.T) {
	data := encode(t, sampleCert(20), WriteOptions{BatchRows: 6})
	for n := range len(data) {
		if _, err := decode(data[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("cut to %d of %d bytes: %v, want a corrupt certificate", n, len(data), err)
		}
	}
}

// TestReadBodyCut removes bytes between the head and the footer, keeping
// a well-formed tail: the reader must refuse the file.
func TestReadBodyCut(t *testing.T) {
	data := encode(t, sampleCert(20), WriteOptions{BatchRows: 6})
	footer := len(data) - 10 - int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	for from := 8; from < footer; from += 8 {
		for _, n := range []int{1, 8, 64} {
			if from+n > footer {
				continue
			}
			bad := append(slices.Clone(data[:from]), data[from+n:]...)
			got, err := decode(bad)
			if err == nil && got.Address() != sampleCert(20).Address() {
				t.Fatalf("cut %d bytes at %d: read a different certificate", n, from)
			}
			if err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("cut %d bytes at %d: %v, not marked corrupt", n, from, err)
			}
		}
	}
}

// TestReadFlipped flips every bit pattern 0x01 and 0xff at every byte: the
// reader must refuse the file, or read a certificate of the same content
// (the byte was padding, or part of the producer, version or creation
// time): never a different certificate that passes.
func TestReadFlipped(t *testing.T) {
	c := sampleCert(20)
	data := encode(t, c, WriteOptions{BatchRows: 6})
	accepted := 0
	for i := range data {
		for _, mask := range []byte{0x01, 0xff} {
			bad := slices.Clone(data)
			bad[i] ^= mask
			got, err := decode(bad)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("byte %d ^ %#x: %v, not marked corrupt", i, mask, err)
				}
				continue
			}
			accepted++
			got.Producer, got.Version, got.Created = c.Producer, c.Version, c.Created
			if d := diff(got, c); d != "" || got.Address() != c.Address() {
				t.Fatalf("byte %d ^ %#x: read a different certificate: %s", i, mask, d)
			}
		}
	}
	t.Logf("%d of %d flips read back the same content", accepted, 2*len(data))
}

// TestReadHostileSizes rewrites sizes that the decoder would allocate by.
func TestReadHostileSizes(t *testing.T) {
	c := sampleCert(1)
	c.Entries[0].Position = strings.Repeat("0", 1000)
	data := encode(t, c, WriteOptions{})

	// The uncompressed length before each compressed buffer.
	prefix := binary.LittleEndian.AppendUint64(nil, 1000)
	i := bytes.Index(data, prefix)
	if i < 0 {
		t.Fatal("no buffer of 1000 bytes found")
	}
	for size, reason := range map[uint64]string{
		1 << 40:           "refusing to allocate",
		1 << 62:           "refusing to allocate",
		MaxBatchBytes * 3: "refusing to allocate",
		1<<64 - 2:         "Arrow decoder failed",
		2000:              "Arrow decoder failed",
	} {
		bad := slices.Clone(data)
		binary.LittleEndian.PutUint64(bad[i:], size)
		if _, err := decode(bad); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), reason) {
			t.Errorf("buffer of %d bytes: %v, want an error about %q", size, err, reason)
		}
	}

	// Vector lengths in the footer.
	footer := len(data) - 10 - int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	fb := data[footer : len(data)-10]
	root, _ := fbRoot(fb)
	schema, err := root.table(1, "schema")
	if err != nil {
		t.Fatal(err)
	}
	fields, _, _ := schema.ref(1)
	meta, _, _ := schema.ref(2)
	batches, _, _ := root.ref(3)
	for name, at := range map[string]int{"columns": fields, "metadata": meta, "batches": batches} {
		for _, n := range []uint32{1 << 31, 1<<32 - 1, 1 << 20} {
			bad := slices.Clone(data)
			binary.LittleEndian.PutUint32(bad[footer+at:], n)
			if _, err := decode(bad); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s vector of %d: %v", name, n, err)
			}
		}
	}
}

func TestBudgetAllocator(t *testing.T) {
	a := NewBudgetAllocator(1000)
	b := a.Allocate(600)
	b = a.Reallocate(900, b)
	b = a.Reallocate(100, b)
	c := a.Allocate(900)
	a.Free(b)
	a.Free(c)
	if a.InUse() != 0 {
		t.Errorf("%d bytes in use after freeing all", a.InUse())
	}
	for name, f := range map[string]func(){
		"over":     func() { a.Allocate(1001) },
		"negative": func() { a.Allocate(-1) },
		"grow":     func() { a.Reallocate(2000, a.Allocate(10)) },
	} {
		if err := guard(name, func() error { f(); return nil }); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "refusing to allocate") {
			t.Errorf("%s: %v, want ErrCorrupt refusing to allocate", name, err)
		}
	}
}

// FuzzReadCertificate checks that no input makes the reader panic or
// return an error not marked ErrCorrupt, and that what it accepts has a
// consistent address.
func FuzzReadCertificate(f *testing.F) {
	f.Add(encode(f, &Certificate{Claim: Claim{Root: "!", Kind: ClaimLoss}, Game: "g", Notation: "n"}, WriteOptions{}))
	f.Add(encode(f, sampleCert(3), WriteOptions{}))
	f.Add(encode(f, sampleCert(9), WriteOptions{BatchRows: 4}))
	citing := sampleCert(3)
	citing.Cites = []string{sampleCert(1).Address(), sampleCert(2).Address()}
	slices.Sort(citing.Cites)
	f.Add(encode(f, citing, WriteOptions{}))
	f.Add([]byte("ARROW1\x00\x00ARROW1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decode(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v is not marked corrupt", err)
			}
			return
		}
		if err := checkCertificate(c); err != nil {
			t.Fatalf("accepted a certificate that does not check: %v", err)
		}
		if _, err := decode(encode(t, c, WriteOptions{})); err != nil {
			t.Fatalf("accepted certificate does not round-trip: %v", err)
		}
	})
}

// TestCitingCertificate holds the version 2 format to its promises: a
// certificate that cites others is written as spots-certificate/2 with its
// citations, reads back with them, and its address covers them (another
// citation, or none, is another address); one that cites none keeps the
// version 1 address.
func TestCitingCertificate(t *testing.T) {
	plain := sampleCert(3)
	a, b := sampleCert(4).Address(), sampleCert(5).Address()
	if a > b {
		a, b = b, a
	}
	citing := sampleCert(3)
	citing.Cites = []string{a, b}
	other := sampleCert(3)
	other.Cites = []string{a}
	addrs := map[string]string{"none": plain.Address(), "two": citing.Address(), "one": other.Address()}
	if addrs["none"] == addrs["two"] || addrs["two"] == addrs["one"] || addrs["none"] == addrs["one"] {
		t.Fatalf("citations do not change the address: %v", addrs)
	}
	if plain.Format() != FormatVersion || citing.Format() != FormatCiting {
		t.Fatalf("formats %q and %q", plain.Format(), citing.Format())
	}
	dir := t.TempDir()
	path, err := WriteCertificate(dir, citing, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadCertificate(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Cites, citing.Cites) || got.Address() != addrs["two"] {
		t.Fatalf("read back cites %v at %s, want %v at %s", got.Cites, got.Address(), citing.Cites, addrs["two"])
	}
	bad := sampleCert(3)
	bad.Cites = []string{b, a}
	if _, err := WriteCertificate(dir, bad, WriteOptions{}); err == nil || !strings.Contains(err.Error(), "sorted") {
		t.Fatalf("unsorted citations written: %v", err)
	}
}
