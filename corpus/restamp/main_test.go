package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/format"
)

func TestProvenance(t *testing.T) {
	added := commit{Hash: "94ccda9bcdeb9f1bbd494a324299cb12f248032e", Time: time.Date(2026, 11, 22, 3, 11, 58, 0, time.FixedZone("CET", 3600))}
	real := time.Date(2026, 11, 22, 21, 24, 11, 771e6, time.UTC)
	const restamped = "94ccda9bcdeb (restamped: the commit that added it)"
	for _, tc := range []struct {
		name        string
		version     string
		created     time.Time
		wantVersion string
		wantCreated time.Time
	}{
		{"neither known", "dev", time.Time{}, restamped, added.Time.UTC()},
		{"a real time, no revision", "(devel)", real, restamped, real},
		{"no version at all", "", real, restamped, real},
		{"both known", "v0.0.0-20261122180353-99ba079ea8c7", real, "v0.0.0-20261122180353-99ba079ea8c7", real},
		{"a version, no time", "07f80d86f509", time.Time{}, "07f80d86f509", added.Time.UTC()},
	} {
		v, c := provenance(format.Certificate{Version: tc.version, Created: tc.created}, added)
		if v != tc.wantVersion || !c.Equal(tc.wantCreated) || c.Location() != time.UTC {
			t.Errorf("%s: provenance = %q, %v; want %q, %v (UTC)", tc.name, v, c, tc.wantVersion, tc.wantCreated)
		}
	}
}

// git runs git in dir with a fixed identity and date.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.org", "GIT_AUTHOR_DATE=2026-11-22T02:11:58Z", "GIT_COMMITTER_DATE=2026-11-22T02:11:58Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// corpusCopy copies the records keep accepts of the repository's corpus
// into ROOT/corpus, a new directory, and returns ROOT and the copy; it
// skips the test where git, which the command asks, is not installed.
func corpusCopy(t *testing.T, keep func(corpus.Record) bool) (string, *corpus.Corpus) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git is not installed: %v", err)
	}
	src, err := corpus.Find(".")
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	cp, err := c.Copy(filepath.Join(root, "corpus"), keep)
	if err != nil {
		t.Fatal(err)
	}
	return root, cp
}

// TestRun restamps a copy of part of the corpus, committed to a new
// repository: every certificate keeps its address and gets the commit's
// time and revision where it had none, and the index follows.
func TestRun(t *testing.T) {
	root, cp := corpusCopy(t, func(r corpus.Record) bool { return r.N <= 3 && r.Committed })
	dir := cp.Dir
	if len(cp.Records) < 3 {
		t.Fatalf("the copy holds %d certificates", len(cp.Records))
	}
	// The provenance of the corpus's first certificates before they were
	// restamped: no time and "dev"; one with a real time and "(devel)".
	real := time.Date(2026, 11, 22, 21, 24, 11, 771e6, time.UTC)
	before := map[string]format.Certificate{}
	for i, r := range cp.Records {
		version, created := "dev", time.Time{}
		if i == 0 {
			version, created = "(devel)", real
		}
		if _, err := format.Restamp(cp.CertPath(r), "spots", version, created); err != nil {
			t.Fatal(err)
		}
		h, err := header(cp.CertPath(r))
		if err != nil {
			t.Fatal(err)
		}
		before[r.Address] = h
	}
	git(t, root, "init", "-q")
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "corpus")
	hash := git(t, root, "rev-parse", "HEAD")

	var out bytes.Buffer
	if err := run(dir, true, &out); err != nil {
		t.Fatal(err)
	}
	if status := git(t, root, "status", "--porcelain"); status != "" || out.Len() == 0 {
		t.Fatalf("-n changed %q, printed %q", status, out.String())
	}
	out.Reset()
	if err := run(dir, false, &out); err != nil {
		t.Fatal(err)
	}
	after, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range after.Records {
		path := after.CertPath(r)
		got, err := format.ReadCertificate(path) // checks the rows against the address and the name
		if err != nil {
			t.Fatal(err)
		}
		old := before[r.Address]
		wantVersion, wantCreated := old.Version, old.Created
		if old.Version == "dev" || old.Version == "(devel)" {
			wantVersion = hash[:12] + " (restamped: the commit that added it)"
		}
		if old.Created.IsZero() {
			wantCreated = time.Date(2026, 11, 22, 2, 11, 58, 0, time.UTC)
		}
		switch {
		case got.Address() != r.Address:
			t.Errorf("%s: address %s", r.Claim, got.Address())
		case got.Producer != old.Producer || got.Version != wantVersion || !got.Created.Equal(wantCreated):
			t.Errorf("%s: %q %q %v, want %q %q %v", r.Claim, got.Producer, got.Version, got.Created, old.Producer, wantVersion, wantCreated)
		case r.Producer != got.Producer+" "+got.Version:
			t.Errorf("%s: index says producer %q", r.Claim, r.Producer)
		}
		if st, err := os.Stat(path); err != nil || st.Size() != r.Bytes {
			t.Errorf("%s: index says %d bytes, the file has %v (%v)", r.Claim, r.Bytes, st.Size(), err)
		}
	}
	// Once is enough.
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "restamped")
	out.Reset()
	if err := run(dir, false, &out); err != nil {
		t.Fatal(err)
	}
	if status := git(t, root, "status", "--porcelain"); status != "" || out.Len() != 0 {
		t.Errorf("a second run changed %q, printed %q", status, out.String())
	}
}

// TestRunRefusesUncommitted: a certificate git does not know has no commit
// to take its provenance from.
func TestRunRefusesUncommitted(t *testing.T) {
	root, _ := corpusCopy(t, func(r corpus.Record) bool { return r.N == 2 })
	git(t, root, "init", "-q")
	git(t, root, "add", "corpus/literature.csv")
	git(t, root, "commit", "-q", "-m", "the literature alone")
	if err := run(filepath.Join(root, "corpus"), false, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "commit it first") {
		t.Errorf("run = %v, want an error saying to commit first", err)
	}
}
