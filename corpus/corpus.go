package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spots-dev/spots/format"
)

// The files of a corpus directory (see the package documentation).
const (
	LiteratureFile = "literature.csv"
	IndexFile      = "index.csv"
	CertsDir       = "certs"
	OutcomesFile   = "OUTCOMES.md"
	PlotFile       = "outcomes.svg"
)

// Module is the module path whose repository holds the corpus Find looks for.
const Module = "github.com/spots-dev/spots"

// Corpus is a corpus directory as read: the literature table and the index.
// Certificates are read only by Check.
type Corpus struct {
	Dir        string
	Literature []Known       // in increasing order of n
	Records    []Record      // in the order of EncodeIndex
	Games      []GameTable   // the tables of the other games (<game>.csv), in the order of the registry; those the corpus has
	Lemmas     []LemmaRecord // the lemmas of searches not yet finished (lemmas.csv), in the order of EncodeLemmaIndex; empty without the file
}

// Open reads the literature table and the index of the corpus in dir.
// An unreadable or malformed file is an error naming the file and, for a
// malformed one, the line.
func Open(dir string) (*Corpus, error) {
	c := &Corpus{Dir: dir}
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("corpus: %s is not a directory", dir)
	}
	lit, err := readFile(filepath.Join(dir, LiteratureFile), ReadLiterature)
	if err != nil {
		return nil, err
	}
	c.Literature = lit
	recs, err := readFile(filepath.Join(dir, IndexFile), ReadIndex)
	if err != nil {
		return nil, err
	}
	sortRecords(recs)
	c.Records = recs
	c.sumCited()
	if err := c.readGames(); err != nil {
		return nil, err
	}
	if err := c.readLemmas(); err != nil {
		return nil, err
	}
	return c, nil
}

// sumCited sets each record's CitedSolveSeconds from the records of the
// addresses it cites, transitively (an address the index does not list
// counts nothing; check refuses it).
func (c *Corpus) sumCited() {
	byAddr := make(map[string]*Record, len(c.Records))
	for i := range c.Records {
		byAddr[c.Records[i].Address] = &c.Records[i]
	}
	for i := range c.Records {
		r := &c.Records[i]
		seen := map[string]bool{r.Address: true}
		stack := slices.Clone(r.Cites)
		r.CitedSolveSeconds = 0
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[a] {
				continue
			}
			seen[a] = true
			if d := byAddr[a]; d != nil {
				r.CitedSolveSeconds += d.SolveSeconds
				stack = append(stack, d.Cites...)
			}
		}
	}
}

// Bounds of the files of a corpus read as tables (literature.csv,
// index.csv, the games' tables): a few kilobytes each, lines of a few hundred
// bytes.
const (
	maxTableFile = 64 << 20
	maxTableLine = 64 << 10
)

// readFile reads the table at path with read: a regular file (see
// format.OpenInput) of at most maxTableFile bytes and lines of at most
// maxTableLine, so that no file (a link to /dev/zero, a file of one endless
// line) costs more than that.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	if err := refuseLink(path); err != nil {
		var zero T
		return zero, err
	}
	f, err := format.OpenInput(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	v, err := read(bufio.NewReader(format.NewBoundedReader(f, path, format.Bounds{File: maxTableFile, Line: maxTableLine})))
	if tl := (*format.TooLongError)(nil); errors.As(err, &tl) {
		return v, fmt.Errorf("corpus: %w", tl) // it names the file and the line
	}
	if err != nil {
		return v, fmt.Errorf("corpus: %s: %w", path, err)
	}
	return v, nil
}

// readOptional is readFile of a table a corpus may lack (a game's
// table, lemmas.csv): none when the file is not there.
func readOptional[R any](path string, read func(io.Reader) ([]R, error)) ([]R, error) {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return readFile(path, read)
}

// ErrLink is wrapped by the error for a file of a corpus that is a
// symbolic link.
var ErrLink = errors.New("a symbolic link")

// refuseLink returns an error wrapping ErrLink if path is a symbolic link.
// The files of a corpus are read and written only as the regular files
// they are: a link in a clone could make a command read, or overwrite, a
// file anywhere the user may write.
func refuseLink(path string) error {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	target, _ := os.Readlink(path)
	return fmt.Errorf("corpus: %s is %w (to %s), which the corpus never follows: put the file itself there (git checkout restores a committed one)", path, ErrLink, target)
}

// Find returns the corpus directory of the repository that holds start:
// the corpus/ beside the go.mod of module Module in start or the nearest
// directory above it. It is an error if there is none.
func Find(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		if data, err := format.ReadInput(filepath.Join(dir, "go.mod"), maxTableFile); err == nil && modulePath(data) == Module {
			c := filepath.Join(dir, "corpus")
			if _, err := os.Stat(filepath.Join(c, LiteratureFile)); err != nil {
				return "", fmt.Errorf("the repository %s has no corpus: %w", dir, err)
			}
			return c, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("%s is not inside the %s repository; give the corpus directory with --dir", start, Module)
		}
		dir = up
	}
}

func modulePath(gomod []byte) string {
	for line := range bytes.Lines(gomod) {
		if f := strings.Fields(string(line)); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// Path returns the path of a file of the corpus, e.g. Path(IndexFile).
func (c *Corpus) Path(name string) string { return filepath.Join(c.Dir, name) }

// CertPath returns where the corpus keeps the certificate of r.
func (c *Corpus) CertPath(r Record) string { return filepath.Join(c.Dir, CertsDir, r.FileName()) }

// Known returns the literature row of 0*n, if the table has one.
func (c *Corpus) Known(n int) (Known, bool) {
	i, ok := slices.BinarySearchFunc(c.Literature, n, func(k Known, n int) int { return k.N - n })
	if !ok {
		return Known{}, false
	}
	return c.Literature[i], true
}

// RecordOf returns the index in Records of the record of a claim about
// 0*n that states a Grundy value (grundy) or an outcome (not grundy), or -1.
func (c *Corpus) RecordOf(n int, grundy bool) int {
	return slices.IndexFunc(c.Records, func(r Record) bool {
		return r.N == n && (r.Claim.Kind == format.ClaimGrundy) == grundy
	})
}

// Put adds r to the records, replacing the record at index replace (if not
// -1), and returns the record it replaced (ok false if none). It does not
// write the index: see SaveIndex.
func (c *Corpus) Put(r Record, replace int) (old Record, ok bool) {
	if replace >= 0 && replace < len(c.Records) {
		old, ok = c.Records[replace], true
		c.Records = slices.Delete(c.Records, replace, replace+1)
	}
	c.Records = append(c.Records, r)
	sortRecords(c.Records)
	return old, ok
}

// SaveIndex writes the records to index.csv (through a temporary file
// renamed into place, so a reader never sees half an index). When it
// writes the cites column, a committed record read from an index without
// it first gets its citations from its certificate's header, so that the
// column never says of a certificate that cites others that it cites
// none. One kept elsewhere, or whose file cannot be read (a problem
// Check reports), is written as citing none, and Check compares it with
// its certificate when it has the file.
func (c *Corpus) SaveIndex() error {
	if enc := EncodeIndex(c.Records); bytes.HasPrefix(enc, []byte(strings.Join(indexHeader, ",")+"\n")) {
		for i := range c.Records {
			r := &c.Records[i]
			if r.CitesRecorded || !r.Committed {
				continue
			}
			if cites, err := headerCites(c.CertPath(*r)); err == nil {
				r.Cites, r.CitesRecorded = cites, true
			}
		}
	}
	return writeFile(c.Path(IndexFile), EncodeIndex(c.Records))
}

// headerCites returns the citations a certificate's header gives (sorted,
// as the format keeps them); it reads the header alone, so nothing is
// verified.
func headerCites(path string) ([]string, error) {
	r, err := format.OpenCertificate(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return slices.Clone(r.Header().Cites), nil
}

// writeFile writes data to path atomically, readable by everyone as a file
// of a repository should be.
func writeFile(path string, data []byte) error {
	if err := refuseLink(path); err != nil {
		return err
	}
	err := format.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o644); err != nil && !errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Copy makes a corpus in dir (created if needed) holding the literature
// table and the records keep accepts (all when keep is nil), with their
// committed certificates; it does not copy the generated files. Tests use
// it to break a copy without touching the repository.
func (c *Corpus) Copy(dir string, keep func(Record) bool) (*Corpus, error) {
	if err := os.MkdirAll(filepath.Join(dir, CertsDir), 0o755); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if err := refuseLink(c.Path(LiteratureFile)); err != nil {
		return nil, err
	}
	lit, err := format.ReadInput(c.Path(LiteratureFile), maxTableFile)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	cp := &Corpus{Dir: dir, Literature: slices.Clone(c.Literature)}
	if err := writeFile(cp.Path(LiteratureFile), lit); err != nil {
		return nil, err
	}
	for _, r := range c.Records {
		if keep != nil && !keep(r) {
			continue
		}
		if r.Committed {
			data, err := format.ReadInput(c.CertPath(r), MaxCertBytes)
			if err != nil {
				return nil, fmt.Errorf("corpus: %w", err)
			}
			if err := writeFile(cp.CertPath(r), data); err != nil {
				return nil, err
			}
		}
		cp.Records = append(cp.Records, r)
	}
	if err := cp.SaveIndex(); err != nil {
		return nil, err
	}
	// Line numbers are those of the copy's index.
	return Open(dir)
}
