package corpus

import (
	"fmt"
	"io/fs"
	"path/filepath"
)

// The size rule of a corpus kept in a repository: a committed certificate
// has at most MaxCertBytes bytes, and the corpus directory as a whole (its
// certificates, tables, generated files and source) at most
// MaxCorpusBytes. A certificate over them is kept elsewhere: index.csv
// lists it with committed "no", its address, claim, entries, bytes and
// the command that makes it, and Check verifies it in the directories of
// CheckOptions.Elsewhere (spots-corpus check --dir DIR).
const (
	MaxCertBytes   int64 = 16_000_000  // 16 MB
	MaxCorpusBytes int64 = 100_000_000 // 100 MB
	// MaxLemmaBytes bounds a certificate of lemmas: they live in
	// corpus/lemmas/, outside corpus/certs/, where the repository holds
	// every file to 1 MiB (internal/repocheck).
	MaxLemmaBytes int64 = 1 << 20
)

// Limits is the size rule; a zero field means its default (MaxCertBytes,
// MaxCorpusBytes). Tests set small ones.
type Limits struct {
	CertBytes   int64 // the most bytes of one committed certificate
	CorpusBytes int64 // the most bytes of the whole corpus directory
}

// Cert returns the limit of one committed certificate.
func (l Limits) Cert() int64 {
	if l.CertBytes > 0 {
		return l.CertBytes
	}
	return MaxCertBytes
}

// Corpus returns the limit of the corpus directory.
func (l Limits) Corpus() int64 {
	if l.CorpusBytes > 0 {
		return l.CorpusBytes
	}
	return MaxCorpusBytes
}

// Size returns the number of bytes of the regular files under the corpus
// directory (all of them: certificates, tables, generated files, source).
func (c *Corpus) Size() (int64, error) {
	var total int64
	err := filepath.WalkDir(c.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("corpus: measuring %s: %w", c.Dir, err)
	}
	return total, nil
}

// Fits reports whether a certificate of bytes bytes may be committed under
// l, and if not, why. The corpus is measured as it is on disk, minus freed
// bytes (a certificate about to be removed), plus the certificate unless
// inCorpus says it is already written into the corpus directory.
func (c *Corpus) Fits(l Limits, bytes int64, inCorpus bool, freed int64) (bool, string, error) {
	if bytes > l.Cert() {
		return false, fmt.Sprintf("it has %d bytes (%s), over the %s a committed certificate may have", bytes, SizeText(bytes), SizeText(l.Cert())), nil
	}
	total, err := c.Size()
	if err != nil {
		return false, "", err
	}
	total -= freed
	if !inCorpus {
		total += bytes
	}
	if total > l.Corpus() {
		return false, fmt.Sprintf("with it %s would hold %d bytes (%s), over its limit of %s", c.Dir, total, SizeText(total), SizeText(l.Corpus())), nil
	}
	return true, "", nil
}
