// Command restamp gives the committed certificates of the corpus the
// provenance their files lack, from git history, without changing their
// content addresses (format.Restamp rewrites only spots.producer,
// spots.version and spots.created):
//
//	go run ./corpus/restamp          # the corpus of this repository
//	go run ./corpus/restamp -n       # say what it would do, change nothing
//
// A certificate whose creation time is the zero time (0001-01-01) gets the
// time of the commit that added it to the repository: the file was written
// before, and that is the latest it can have been. One whose version says
// nothing ("", "dev", "(devel)": a build without a recorded revision) gets
// that commit's revision, marked as such ("94ccda9bcdeb (restamped: the
// commit that added it)"): the program that wrote it is the code of that
// commit or of one before it. A real creation time or version is kept.
// The bytes and producer columns of index.csv and the games' tables
// follow.
//
// It is a lab tool for the corpus's history; new certificates get their
// provenance when they are written (make build stamps the version).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/format"
)

func main() {
	dry := flag.Bool("n", false, "print what would change and change nothing")
	dir := flag.String("dir", "", "the corpus directory (default: corpus/ of the repository holding the working directory)")
	flag.Parse()
	if err := run(*dir, *dry, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "restamp:", err)
		os.Exit(1)
	}
}

func run(dir string, dry bool, out io.Writer) error {
	if dir == "" {
		var err error
		if dir, err = corpus.Find("."); err != nil {
			return err
		}
	}
	c, err := corpus.Open(dir)
	if err != nil {
		return err
	}
	restamp := func(path string) (producer string, size int64, err error) {
		p, err := restampFile(path, dry, out)
		if err != nil {
			return "", 0, err
		}
		st, err := os.Stat(path)
		if err != nil {
			return "", 0, err
		}
		return p, st.Size(), nil
	}
	for i, r := range c.Records {
		if !r.Committed {
			continue
		}
		if c.Records[i].Producer, c.Records[i].Bytes, err = restamp(c.CertPath(r)); err != nil {
			return err
		}
	}
	for _, t := range c.Games {
		for i, r := range t.Records {
			if t.Records[i].Producer, t.Records[i].Bytes, err = restamp(c.GamePath(t.Name(), r)); err != nil {
				return err
			}
		}
	}
	if dry {
		return nil
	}
	if err := c.SaveIndex(); err != nil {
		return err
	}
	for _, t := range c.Games {
		err := format.WriteFileAtomic(c.Path(corpus.GameIndexFile(t.Name())), func(w io.Writer) error {
			_, err := w.Write(corpus.EncodeGameIndex(t.Game, t.Records))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// restampFile gives the certificate at path the provenance provenance
// decides, and returns its producer and version as the index records them.
func restampFile(path string, dry bool, out io.Writer) (string, error) {
	h, err := header(path)
	if err != nil {
		return "", err
	}
	added, err := addedBy(path)
	if err != nil {
		return "", err
	}
	version, created := provenance(h, added)
	indexed := strings.TrimSpace(h.Producer + " " + version)
	if version == h.Version && created.Equal(h.Created) {
		return indexed, nil
	}
	fmt.Fprintf(out, "%s  %s: version %q → %q, created %s → %s\n", filepath.Base(path), h.Claim,
		h.Version, version, h.Created.UTC().Format(time.RFC3339Nano), created.UTC().Format(time.RFC3339Nano))
	if dry {
		return indexed, nil
	}
	if _, err := format.Restamp(path, h.Producer, version, created); err != nil {
		return "", err
	}
	return indexed, nil
}

// header reads the header of the certificate at path.
func header(path string) (format.Certificate, error) {
	r, err := format.OpenCertificate(path)
	if err != nil {
		return format.Certificate{}, err
	}
	defer r.Close()
	return r.Header(), nil
}

// commit is the commit that added a file.
type commit struct {
	Hash string
	Time time.Time
}

// provenance returns the version and creation time a certificate with
// header h, added to the repository by added, should carry (see the
// command's documentation).
func provenance(h format.Certificate, added commit) (version string, created time.Time) {
	version, created = h.Version, h.Created
	if created.IsZero() {
		created = added.Time.UTC()
	}
	switch strings.TrimSpace(version) {
	case "", "dev", "(devel)":
		version = added.Hash[:min(12, len(added.Hash))] + " (restamped: the commit that added it)"
	}
	return version, created
}

// addedBy returns the commit that first added the file at path, from git
// log run in the file's directory.
func addedBy(path string) (commit, error) {
	cmd := exec.Command("git", "log", "--diff-filter=A", "--format=%H %aI", "--", filepath.Base(path))
	cmd.Dir = filepath.Dir(path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return commit{}, fmt.Errorf("git log of %s: %v: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1] // git log lists the newest first
	hash, when, ok := strings.Cut(last, " ")
	if !ok {
		return commit{}, errors.New(path + ": not in the git history: commit it first")
	}
	t, err := time.Parse(time.RFC3339, when)
	if err != nil {
		return commit{}, fmt.Errorf("git log of %s: %w", path, err)
	}
	return commit{Hash: hash, Time: t}, nil
}
