package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestMain runs the command instead of the tests in the process add starts
// to time a check (see verifyApart).
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	// add keeps its checkpoints in the user's cache directory: not the
	// real one in tests. A transcript runs the command as a copy of this
	// binary named after it, with a cache directory of its own ($WORK),
	// kept from one command of the transcript to the next.
	if filepath.Base(os.Args[0]) == "spots-corpus" {
		cmdtest.ScriptMain(m, "spots-corpus", runMain, func() {})
	}
	cache, err := os.MkdirTemp("", "spots-corpus-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	cmdtest.ScriptMain(m, "spots-corpus", runMain, func() { os.RemoveAll(cache) })
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	if len(args) > 0 {
		args = append(args, "--progress", "none")
	}
	return cmdtest.Run(t, func(args []string, stdout, stderr io.Writer) int {
		return run(context.Background(), args, stdout, stderr)
	}, args...)
}

// smallCorpus makes a corpus of the repository's certificates of 0*n,
// n ≤ maxN, in a temporary directory (see copyCorpus).
func smallCorpus(t *testing.T, maxN int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := copyCorpus(dir, maxN); err != nil {
		t.Fatal(err)
	}
	return dir
}

// record returns the record of 0*n (gn(0*n) with nimber) in the corpus in
// dir.
func record(t *testing.T, dir string, n int, nimber bool) (*corpus.Corpus, corpus.Record) {
	t.Helper()
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	i := c.RecordOf(n, nimber)
	if i < 0 {
		t.Fatalf("no record of n = %d (nimber %v) in %s", n, nimber, dir)
	}
	return c, c.Records[i]
}

// The behaviour of the commands is in the transcripts of testdata/script;
// the tests here need what a transcript cannot give: the size rule and
// the sample set small (limits, sampleMaxN), two adds at once in one
// process, and times compared as numbers.

// withLimits sets the size rule for the test.
func withLimits(t *testing.T, l corpus.Limits) {
	t.Helper()
	old := limits
	limits = l
	t.Cleanup(func() { limits = old })
}

// TestAddSizeRule: add commits a certificate that fits the size rule, and
// keeps one that does not elsewhere (--out), listed as such, with a word
// on why; check then verifies it there.
func TestAddSizeRule(t *testing.T) {
	// The size of the certificate add makes of 0*5 (the writer's, which
	// may differ from the committed file's).
	scratch := smallCorpus(t, 4)
	if status, stdout, stderr := runCmd(t, "add", "--solve", "5", "--dir", scratch); status != 0 {
		t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
	}
	_, r := record(t, scratch, 5, false)
	size := r.Bytes
	for _, tt := range []struct {
		name   string
		limits func(corpusBytes int64) corpus.Limits
		why    string // on stderr when kept elsewhere; "" when committed
	}{
		{"fits", func(int64) corpus.Limits { return corpus.Limits{} }, ""},
		{"at the limit", func(int64) corpus.Limits { return corpus.Limits{CertBytes: size} }, ""},
		{"over the certificate limit", func(int64) corpus.Limits { return corpus.Limits{CertBytes: size - 1} }, fmt.Sprintf("it has %d bytes", size)},
		// (Room for the index's new line and the regenerated files too.)
		{"within the corpus limit", func(b int64) corpus.Limits { return corpus.Limits{CorpusBytes: b + size + 20_000} }, ""},
		{"over the corpus limit", func(b int64) corpus.Limits { return corpus.Limits{CorpusBytes: b + size - 1} }, "with it "},
	} {
		t.Run(tt.name, func(t *testing.T) { addUnderLimits(t, tt.limits, size, tt.why) })
	}
}

// addUnderLimits adds 0*5 to a corpus of 0*1 … 0*4 under the size rule
// lim gives for the corpus's size, and checks that its certificate of
// size bytes is committed (why "") or kept elsewhere for the reason why.
func addUnderLimits(t *testing.T, lim func(int64) corpus.Limits, size int64, why string) {
	dir := smallCorpus(t, 4)
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	corpusBytes, err := c.Size()
	if err != nil {
		t.Fatal(err)
	}
	withLimits(t, lim(corpusBytes))
	out := filepath.Join(t.TempDir(), "kept")
	status, stdout, stderr := runCmd(t, "add", "--solve", "5", "--out", out, "--dir", dir)
	if status != 0 {
		t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
	}
	c, r := record(t, dir, 5, false)
	if r.Claim.String() != "0*5=W" || r.Bytes != size || r.Committed != (why == "") {
		t.Fatalf("record %+v", r)
	}
	inCorpus, inOut := exists(c.CertPath(r)), exists(filepath.Join(out, r.FileName()))
	if why == "" {
		if !inCorpus || inOut || r.Command != "spots-corpus add --solve 5" || withoutPool(stderr) != "" {
			t.Errorf("committed: in the corpus %v, in --out %v, command %q, stderr %q", inCorpus, inOut, r.Command, stderr)
		}
		return
	}
	if inCorpus || !inOut || r.Command != "spots-corpus add --solve 5 --no-commit --out DIR" ||
		!strings.Contains(stderr, "not committing the certificate of 0*5=W: "+why) || !strings.Contains(stderr, "kept elsewhere (committed no)") {
		t.Errorf("kept elsewhere: in the corpus %v, in --out %v, command %q, stderr %q", inCorpus, inOut, r.Command, stderr)
	}
	checkKeptIn(t, dir, out, r)
}

// withoutPool returns add's standard error without the line that says
// what it draws on from the corpus.
func withoutPool(stderr string) string {
	var out []string
	for _, line := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(line, "spots-corpus: drawing on ") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// checkKeptIn checks that the corpus in dir checks, and verifies the
// certificate of r kept in out.
func checkKeptIn(t *testing.T, dir, out string, r corpus.Record) {
	t.Helper()
	status, stdout, stderr := runCmd(t, "check", "--dir", dir, "--dir", out)
	if status != 0 || !strings.Contains(stdout, fmt.Sprintf("verified  0*5=W  %s  %d entries", r.ShortAddress(), r.Entries)) ||
		!strings.Contains(stdout, "(kept elsewhere)") || !strings.Contains(stdout, "1 listed but not committed (1 verified in --dir, 0 missing)") {
		t.Errorf("check --dir OUT: %d\n%s%s", status, stdout, stderr)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestCheckSizeRule(t *testing.T) {
	dir := smallCorpus(t, 3)
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	largest := c.Records[c.RecordOf(3, true)] // gn(0*3)=1, the largest of n ≤ 3
	tests := []struct {
		name   string
		limits corpus.Limits
		status int
		stdout string
	}{
		{"defaults", corpus.Limits{}, 0, "no problem"},
		{"a certificate over", corpus.Limits{CertBytes: largest.Bytes - 1}, 1, fmt.Sprintf("the certificate of gn(0*3)=1 has %d bytes", largest.Bytes)},
		{"the corpus over", corpus.Limits{CorpusBytes: 10_000}, 1, "over the 10.0 KB the corpus may have"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withLimits(t, tt.limits)
			status, stdout, stderr := runCmd(t, "check", "--dir", dir)
			if status != tt.status || !strings.Contains(stdout, tt.stdout) {
				t.Errorf("check: %d, want %d and %q\n%s%s", status, tt.status, tt.stdout, stdout, stderr)
			}
		})
	}
}

// git runs git in dir, failing the test on an error.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// sampleCase is a case of TestCheckSample.
type sampleCase struct {
	name     string
	git      bool // the corpus is in a git work tree
	tag      bool // with a tag
	after    func(t *testing.T, dir string)
	args     []string
	status   int
	sample   string   // the sample line; "" for none
	verified []string // claims verified
	found    []string // claims only found
}

// sampleCases are the cases of TestCheckSample, on a corpus of 0*1 … 0*4
// without gn(0*3)=1 (some cases add it), with sampleMaxN 2.
func sampleCases() []sampleCase {
	all := []string{"0=L", "0*2=L", "0*3=W", "0*4=W", "gn(0*4)=1"}
	sampled, rest := []string{"0=L", "0*2=L"}, []string{"0*3=W", "0*4=W", "gn(0*4)=1"}
	// gn(0*3)=1, added drawing on the corpus, cites gn(0*4)=1 (whose
	// value of 0*3 it is): the sample verifies it with what it cites.
	withGn3, restGn3 := []string{"0=L", "0*2=L", "gn(0*3)=1", "gn(0*4)=1"}, []string{"0*3=W", "0*4=W"}
	addGn3 := func(t *testing.T, dir string) {
		if status, stdout, stderr := runCmd(t, "add", "--solve", "3", "--nimber", "--dir", dir); status != 0 {
			t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
		}
	}
	spoil4 := func(t *testing.T, dir string) {
		_, r := record(t, dir, 4, false)
		if err := spoilCert(filepath.Join(dir, corpus.CertsDir, r.FileName())); err != nil {
			t.Fatal(err)
		}
	}
	return []sampleCase{
		{"not sampled", true, true, nil, nil, 0, "", all, nil},
		{"not in git", false, false, nil, []string{"--sample"}, 0, "every certificate (cannot tell which changed: git rev-parse:", all, nil},
		{"no tag", true, false, nil, []string{"--sample"}, 0, "those of 0*1 … 0*2 and those changed since HEAD (no git tag to compare with) (none)", sampled, rest},
		{"no tag, a new certificate", true, false, addGn3, []string{"--sample"}, 0, "changed since HEAD (no git tag to compare with) (1), and the 1 certificate they cite", withGn3, restGn3},
		{"nothing changed", true, true, nil, []string{"--sample"}, 0, "those of 0*1 … 0*2 and those changed since the tag v1 (none)", sampled, rest},
		{"a new certificate", true, true, addGn3, []string{"--sample"}, 0, "changed since the tag v1 (1), and the 1 certificate they cite", withGn3, restGn3},
		{"a committed change", true, true, func(t *testing.T, dir string) {
			addGn3(t, dir)
			git(t, dir, "add", "-A", ".")
			git(t, dir, "commit", "-q", "-m", "gn(0*3)")
		}, []string{"--sample"}, 0, "changed since the tag v1 (1), and the 1 certificate they cite", withGn3, restGn3},
		{"a spoilt certificate that changed", true, true, spoil4, []string{"--sample"}, 1, "changed since the tag v1 (1)", sampled, []string{"0*3=W", "gn(0*4)=1"}},
		{"a spoilt certificate outside the sample", true, true, func(t *testing.T, dir string) {
			spoil4(t, dir)
			git(t, dir, "commit", "-q", "-a", "-m", "spoilt")
			git(t, dir, "tag", "v2")
		}, []string{"--sample"}, 0, "changed since the tag v2 (none)", sampled, rest},
		{"within the budget", true, true, nil, []string{"--budget", "1h"}, 0, "", all, nil},
		// Every certificate recorded at 1 s (sampleCorpus): over the
		// budget, the fixed sample takes 2 s; what is left goes in turn
		// (seed 0: from the first record) to those that fit.
		{"over the budget", true, true, nil, []string{"--budget", "1s"}, 0, "changed since the tag v1 (none) (the recorded verify times add up to 5 s, over --budget 1s), and 0 certificates in turn, chosen by commit 000000000000", sampled, rest},
		{"over the budget, room for one in turn", true, true, nil, []string{"--budget", "3500ms"}, 0, "(the recorded verify times add up to 5 s, over --budget 3.5s), and 1 certificate in turn, chosen by commit 000000000000", []string{"0=L", "0*2=L", "0*3=W"}, []string{"0*4=W", "gn(0*4)=1"}},
	}
}

// TestCheckSample: check --sample (and --budget, when the recorded times
// are over it) verifies the certificates of 0*1 … 0*sampleMaxN and those
// changed since the last tag, and only finds the others.
func TestCheckSample(t *testing.T) {
	old, oldHead := sampleMaxN, headCommit
	sampleMaxN = 2
	headCommit = func(dir string) string {
		if gitHead(dir) == "" {
			return ""
		}
		return strings.Repeat("0", 40)
	}
	t.Cleanup(func() { sampleMaxN, headCommit = old, oldHead })
	for _, tt := range sampleCases() {
		t.Run(tt.name, func(t *testing.T) {
			dir := sampleCorpus(t, tt.git, tt.tag)
			if tt.after != nil {
				tt.after(t, dir)
			}
			status, stdout, stderr := runCmd(t, append([]string{"check", "--dir", dir}, tt.args...)...)
			if status != tt.status {
				t.Errorf("status %d, want %d\n%s%s", status, tt.status, stdout, stderr)
			}
			if hasSample := strings.HasPrefix(stdout, "sample    verifying "); hasSample != (tt.sample != "") || !strings.Contains(stdout, tt.sample) {
				t.Errorf("want the sample line %q:\n%s", tt.sample, stdout)
			}
			verified, found := checkedClaims(stdout)
			if !slices.Equal(verified, tt.verified) || !slices.Equal(found, tt.found) {
				t.Errorf("verified %v, found %v; want %v, %v\n%s", verified, found, tt.verified, tt.found, stdout)
			}
		})
	}
}

// sampleCorpus makes the corpus of TestCheckSample: 0*1 … 0*4 without
// gn(0*3)=1, committed into a new git repository (git) and tagged v1
// (tag).
func sampleCorpus(t *testing.T, inGit, tag bool) string {
	t.Helper()
	dir := smallCorpus(t, 4)
	c, gn3 := record(t, dir, 3, true)
	if err := os.Remove(c.CertPath(gn3)); err != nil {
		t.Fatal(err)
	}
	c.Records = slices.DeleteFunc(c.Records, func(r corpus.Record) bool { return r.Address == gn3.Address })
	for i := range c.Records { // what the budget and the rotation count, the same on every machine
		c.Records[i].VerifySeconds = 1
	}
	if err := c.SaveIndex(); err != nil {
		t.Fatal(err)
	}
	if status, stdout, stderr := runCmd(t, "regenerate", "--dir", dir); status != 0 {
		t.Fatalf("regenerate: %d\n%s%s", status, stdout, stderr)
	}
	if inGit {
		repo := filepath.Dir(dir)
		git(t, repo, "init", "-q")
		git(t, repo, "add", "-A", ".")
		git(t, repo, "commit", "-q", "-m", "corpus")
		if tag {
			git(t, repo, "tag", "v1")
		}
	}
	return dir
}

// checkedClaims returns the claims check's output says it verified and
// those it only found.
func checkedClaims(stdout string) (verified, found []string) {
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 1 && f[0] == "verified":
			verified = append(verified, f[1])
		case len(f) > 1 && f[0] == "found":
			found = append(found, f[1])
		}
	}
	return verified, found
}

// TestRetime: retime records the median of its runs (here as --dry-run
// prints them), changes the time of the claim it is given and of no other,
// and with --independent records independent_seconds and leaves
// verify_seconds alone. (retime.txtar shows the rest.)
func TestRetime(t *testing.T) {
	dir := smallCorpus(t, 6)
	status, stdout, stderr := runCmd(t, "retime", "--dir", dir, "--min-n", "5", "--runs", "3", "--dry-run", "--json")
	var got []struct {
		Claim string    `json:"claim"`
		After float64   `json:"verify_seconds"`
		Runs  []float64 `json:"runs_seconds"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); status != 0 || err != nil || len(got) == 0 {
		t.Fatalf("retime --dry-run --json: %d %v %q %s", status, err, stdout, stderr)
	}
	for _, r := range got {
		if len(r.Runs) != 3 || r.After != millis(r.Runs[1]) {
			t.Errorf("%s: median %v of runs %v", r.Claim, r.After, r.Runs)
		}
	}
	for _, independent := range []bool{false, true} {
		before, err := corpus.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"retime", "--dir", dir, "--claim", "0*6=L", "--runs", "1"}
		if independent {
			args = append(args, "--independent")
		}
		if status, _, stderr := runCmd(t, args...); status != 0 {
			t.Fatalf("%v: %d %s", args, status, stderr)
		}
		retimedOnly(t, before, dir, "0*6=L", independent)
	}
}

// retimedOnly checks that the corpus in dir has, against before, another
// time of the check of claim (the independent one with independent) and
// the same times for everything else.
func retimedOnly(t *testing.T, before *corpus.Corpus, dir, claim string, independent bool) {
	t.Helper()
	after, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range after.Records {
		b := before.Records[i]
		changed := [2]bool{r.VerifySeconds != b.VerifySeconds, r.IndependentSeconds != b.IndependentSeconds}
		want := [2]bool{r.Claim.String() == claim && !independent, r.Claim.String() == claim && independent}
		if independent && r.Claim.String() == claim && r.IndependentSeconds <= 0 {
			t.Errorf("%s: no independent time recorded", r.Claim)
		}
		if changed[0] && !want[0] || changed[1] && !want[1] {
			t.Errorf("%s: verify time %v → %v, independent %v → %v; asked to retime %s (independent %v)",
				r.Claim, b.VerifySeconds, r.VerifySeconds, b.IndependentSeconds, r.IndependentSeconds, claim, independent)
		}
	}
}

// TestAddWhileAnotherAdds starts a second add while the first has written
// its certificate into certs/ but not yet listed it, as two long solves
// running side by side do: the second says it waits for the first's lock,
// and both rows survive (a real run once lost one, and the other failed
// its check on the unlisted file).
func TestAddWhileAnotherAdds(t *testing.T) {
	dir := smallCorpus(t, 4)
	var wg sync.WaitGroup
	var other int
	var otherErr cmdtest.Buffer
	beforeListing = func() {
		beforeListing = nil
		wg.Add(1)
		go func() {
			defer wg.Done()
			other = run(context.Background(), []string{"add", "--solve", "6", "--dir", dir, "--no-state", "--progress", "none"}, io.Discard, &otherErr)
		}()
		for deadline := time.Now().Add(time.Minute); !strings.Contains(otherErr.String(), "waiting for another add into "+dir); {
			if time.Now().After(deadline) {
				t.Errorf("the other add does not wait for the lock after a minute: %s", otherErr.String())
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Cleanup(func() { beforeListing = nil })
	status, stdout, stderr := runCmd(t, "add", "--solve", "5", "--dir", dir, "--no-state")
	wg.Wait()
	if status != 0 || other != 0 {
		t.Fatalf("add --solve 5: %d\n%s%s\nthe other add: %d %s", status, stdout, stderr, other, otherErr.String())
	}
	for _, n := range []int{5, 6} {
		record(t, dir, n, false)
	}
	if status, _, stderr := runCmd(t, "check", "--dir", dir); status != 0 {
		t.Errorf("check: %d %s", status, stderr)
	}
}

// TestAddForgedCheckpoint (F1 for add): a checkpoint is input, not truth.
// One whose values say 0*6 (a second-player win) has the Grundy value 1,
// written with checkpoint.Save so that its sizes and sums match, makes
// the resumed search answer W at once; add cannot derive that from the
// rules, says so, solves 0*6 again without the checkpoint and adds the
// right certificate, 0*6=L.
func TestAddForgedCheckpoint(t *testing.T) {
	dir := smallCorpus(t, 5)
	state := t.TempDir()
	root := sprouts.MustParse("0*6")
	db := solve.NewNimberDB()
	db.Put(root.Key(), 1)
	search := solve.NewDFPN(sprouts.Rules{}, db, solve.Options{Capacity: 1 << 12})
	if _, err := checkpoint.Save(state, checkpoint.Manifest{Position: root.String(), Algorithm: solve.SearchDFPN, Capacity: 1 << 12}, search); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runCmd(t, "add", "--solve", "6", "--dir", dir, "--state", state, "--no-reuse")
	if status != 0 {
		t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
	}
	if !strings.Contains(stderr, "0*6: the values of the checkpoint in "+state+" do not prove the result found with them") {
		t.Errorf("stderr %q does not say why it solved again", stderr)
	}
	if _, r := record(t, dir, 6, false); r.Claim.String() != "0*6=L" {
		t.Errorf("added %s, want 0*6=L", r.Claim)
	}
}
