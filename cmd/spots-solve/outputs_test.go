package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spots-dev/spots/internal/cmdline"
)

// TestCheckOutputDirs: an output is refused when its bytes would land in
// a directory the run reads or keeps, however it is named (the file, a
// link to it or to a new file there, a hard link to one of its files
// elsewhere), and only there; a certificate-only directory refuses
// certificates' names alone.
func TestCheckOutputDirs(t *testing.T) {
	dir := t.TempDir()
	reuse := filepath.Join(dir, "reuse")
	certs := filepath.Join(dir, "certs")
	cert := strings.Repeat("ab", 32) + ".arrow"
	for _, d := range []string{reuse, certs} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, cert), []byte("a certificate"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(name string) string { return filepath.Join(dir, name) }
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(reuse, cert), at("link")))
	must(os.Symlink(filepath.Join(reuse, "new.csv"), at("dangling")))
	must(os.Link(filepath.Join(reuse, cert), at("hard")))
	must(os.Link(filepath.Join(certs, cert), at("hardcert")))
	must(os.WriteFile(at("notes.txt"), []byte("mine"), 0o644))
	dirs := []outputDir{{"--reuse", reuse, "read", false}, {"--cert", certs, "written", true}, {"--state", "", "unset", false}}
	for _, tc := range []struct {
		path string
		flag string // of the directory refusing it; "" for none
	}{
		{filepath.Join(reuse, cert), "--reuse"},
		{filepath.Join(reuse, "stats.csv"), "--reuse"},
		{filepath.Join(reuse, ".", "x", "..", "stats.csv"), "--reuse"},
		{at("link"), "--reuse"},
		{at("dangling"), "--reuse"},
		{at("hard"), "--reuse"},
		{filepath.Join(certs, cert), "--cert"},
		{filepath.Join(certs, strings.Repeat("cd", 32)+".arrow"), "--cert"},
		{at("hardcert"), "--cert"},
		{filepath.Join(certs, "stats.csv"), ""},
		{at("notes.txt"), ""},
		{at("new.prof"), ""},
		{os.DevNull, ""},
	} {
		err := checkOutputDirs(dirs, []cmdline.File{{Flag: "--stats", Path: tc.path}})
		switch {
		case tc.flag == "" && err != nil:
			t.Errorf("%s: %v; want it accepted", tc.path, err)
		case tc.flag != "" && (err == nil || !strings.Contains(err.Error(), "would write into "+tc.flag+" ")):
			t.Errorf("%s: %v; want it refused as in %s", tc.path, err, tc.flag)
		}
	}
}
