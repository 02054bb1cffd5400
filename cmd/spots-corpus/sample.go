package main

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/corpus"
)

// sampleMaxN bounds the fixed part of check --sample (tests make it small).
var sampleMaxN = corpus.SampleMaxN

// sampleOf returns the choice of check --sample for the corpus in dir
// (nil: every certificate) and a phrase saying what it verifies: the
// committed certificates of 0*1 … 0*sampleMaxN and those changed since
// the last git tag. Without a tag (a clone may carry none) it compares
// with HEAD: the committed certificates were each verified by the
// spots-corpus add that wrote them, and a sample that grew with the
// history would break the time bound the sample is for. Outside a git
// work tree every certificate counts as changed.
func sampleOf(dir string) (func(corpus.Record) bool, string) {
	tag, changed, err := changedSinceTag(dir)
	if err != nil {
		return nil, fmt.Sprintf("every certificate (cannot tell which changed: %v)", err)
	}
	what := "none"
	if len(changed) > 0 {
		what = strconv.Itoa(len(changed))
	}
	since := "since the tag " + tag
	if tag == "" {
		since = "since HEAD (no git tag to compare with)"
	}
	return corpus.Sample(sampleMaxN, changed),
		fmt.Sprintf("those of 0*1 … 0*%d and those changed %s (%s)", sampleMaxN, since, what)
}

// changedSinceTag returns the last git tag reachable from HEAD in the
// repository holding the corpus directory dir ("" when there is none) and
// the addresses of the certificates in its certs/ that changed since it
// (since HEAD when there is no tag): those git diff lists against it, and
// those git does not track yet. It is an error if dir is not in a git work
// tree or git cannot be run.
func changedSinceTag(dir string) (string, map[string]bool, error) {
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return string(out), nil
	}
	if _, err := git("rev-parse", "--is-inside-work-tree"); err != nil {
		return "", nil, err
	}
	tag, against := "", "HEAD"
	if out, err := git("describe", "--tags", "--abbrev=0"); err == nil {
		tag = strings.TrimSpace(out)
		against = tag
	} else if _, err := git("rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		return "", nil, errors.New("no commit yet")
	}
	diff, err := git("diff", "--name-only", "--relative", against, "--", corpus.CertsDir, corpus.LemmaCertsDir)
	if err != nil {
		return "", nil, err
	}
	untracked, err := git("ls-files", "--others", "--exclude-standard", "--", corpus.CertsDir, corpus.LemmaCertsDir)
	if err != nil {
		return "", nil, err
	}
	changed := map[string]bool{}
	for _, line := range strings.Split(diff+"\n"+untracked, "\n") {
		if name := path.Base(strings.TrimSpace(line)); strings.HasSuffix(name, ".arrow") {
			changed[strings.TrimSuffix(name, ".arrow")] = true
		}
	}
	return tag, changed, nil
}

// headCommit returns the commit checked out in the git work tree that
// holds dir (40 hex digits), or "" when there is none (a variable: tests
// fix the rotation).
var headCommit = gitHead

func gitHead(dir string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--verify", "--quiet", "HEAD").Output()
	commit := strings.TrimSpace(string(out))
	if err != nil || len(commit) < 16 {
		return ""
	}
	if _, err := strconv.ParseUint(commit[:16], 16, 64); err != nil {
		return ""
	}
	return commit
}
