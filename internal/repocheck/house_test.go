package repocheck

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// MaxFileLines is the most lines a non-test Go file may have: a file is one
// topic, and a topic longer than this is two.
const MaxFileLines = 700

// MaxComplexity is the highest cyclomatic complexity a non-test function
// of the module may have, the rules parsers aside (parserExempt).
const MaxComplexity = 40

// parserExempt names the functions held to no complexity bound: the
// readers of the position notation (of the second implementation of the
// rules; the first, package sprouts, keeps within the bound), whose grammar
// is one switch and reads best as one.
var parserExempt = []string{
	"verify/sprouts2/land.go:parser.land",
}

// TestHouse holds every non-test Go file of the module (the lab included)
// to MaxFileLines lines and every function in it to MaxComplexity.
func TestHouse(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if n := bytes.Count(src, []byte("\n")); n > MaxFileLines {
			t.Errorf("%s is %d lines long (at most %d): split it by topic", rel, n, MaxFileLines)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, s := range FuncSizes(fset, f) {
			if s.Complexity > MaxComplexity && !slices.Contains(parserExempt, rel+":"+s.Name) {
				t.Errorf("%s:%d: %s has a cyclomatic complexity of %d (at most %d)", rel, s.Pos.Line, s.Name, s.Complexity, MaxComplexity)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files found under %s", files, root)
	}
}

// MaxBenchmarksLines is the most lines BENCHMARKS.md may have: one page
// of current results; history is in git.
const MaxBenchmarksLines = 300

// TestBenchmarksIsOnePage holds BENCHMARKS.md to MaxBenchmarksLines.
func TestBenchmarksIsOnePage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(moduleRoot(t), "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(src, []byte("\n")); n > MaxBenchmarksLines {
		t.Errorf("BENCHMARKS.md is %d lines long (at most %d): keep current results only, history is in git", n, MaxBenchmarksLines)
	}
}

// mdLink matches the target of a Markdown link or image.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks: every relative link of every tracked Markdown document
// names a file of the repository and, where it names a section, a heading
// of that file, so that each document stands on its own.
func TestDocLinks(t *testing.T) {
	root := moduleRoot(t)
	var docs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			docs = append(docs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 5 {
		t.Fatalf("only %d documents found", len(docs))
	}
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, doc)
		for _, m := range mdLink.FindAllStringSubmatch(string(src), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(link, "#")
			target := doc
			if path != "" {
				target = filepath.Join(filepath.Dir(doc), filepath.FromSlash(path))
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links %s, which is not in the repository", rel, link)
				continue
			}
			if frag == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			anchors, err := headingAnchors(target)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors[frag] {
				t.Errorf("%s links %s, but no heading of %s makes the anchor #%s", rel, link, filepath.Base(target), frag)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub makes of a Markdown file's
// headings: lower case, letters, digits, '-' and '_' kept, spaces to '-'.
func headingAnchors(path string) (map[string]bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		out[b.String()] = true
	}
	return out, nil
}
