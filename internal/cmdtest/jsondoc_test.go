package cmdtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "TestJSONDoc: write the commands' output into docs/json.md")

// jsonDoc is the document of the commands' JSON output.
const jsonDoc = "docs/json.md"

// docExample is a command of docs/json.md and the output shown for it.
type docExample struct {
	command []string // the command line of a ```sh block
	line    int      // the line of the ```json block's first value
	want    []string // the values of the ```json block, as written
	start   int      // the index in the document's lines of the block's first line of content
	end     int      // and of its closing fence
}

// TestJSONDoc runs each command of docs/json.md, from a directory where
// corpus/ is the repository's corpus, and checks that each value the
// document shows for it has the keys of the value the command printed in
// its place (the first, the second…), nested keys included: values
// (times, a build's paths) change from run to run, the vocabulary may
// not. With -update it writes the output into the document instead.
func TestJSONDoc(t *testing.T) {
	bin, root := commandsAndRoot(t)
	docPath := filepath.Join(root, jsonDoc)
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	examples, err := docExamples(lines)
	if err != nil {
		t.Fatal(err)
	}
	commands := map[string]bool{}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "corpus"), filepath.Join(dir, "corpus")); err != nil {
		t.Fatal(err)
	}
	for i := len(examples) - 1; i >= 0; i-- { // from the end: an update keeps the earlier lines in place
		ex := examples[i]
		commands[ex.command[0]] = true
		got := runExample(t, bin, dir, ex.command)
		if len(got) < len(ex.want) {
			t.Errorf("%s:%d: %s printed %d JSON values, the document shows %d", jsonDoc, ex.line, strings.Join(ex.command, " "), len(got), len(ex.want))
			continue
		}
		if *update {
			lines = slices.Replace(lines, ex.start, ex.end, indented(t, got[:len(ex.want)])...)
			continue
		}
		for k, w := range ex.want {
			if missing, extra := compareKeys(t, w, got[k]); len(missing)+len(extra) > 0 {
				t.Errorf("%s:%d: %s: value %d: the document has keys the command no longer prints %v, and lacks keys it prints %v; run go test ./internal/cmdtest -run TestJSONDoc -update and say what changed",
					jsonDoc, ex.line, strings.Join(ex.command, " "), k+1, missing, extra)
			}
		}
	}
	for _, c := range Commands {
		if !commands[c] {
			t.Errorf("%s has no example of %s", jsonDoc, c)
		}
	}
	if *update {
		if err := os.WriteFile(docPath, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// docExamples reads the ```sh blocks of the document (one command line
// each) and the ```json block that follows each.
func docExamples(lines []string) ([]docExample, error) {
	var out []docExample
	var command []string
	for i := 0; i < len(lines); i++ {
		switch lines[i] {
		case "```sh":
			if i+2 >= len(lines) || lines[i+2] != "```" || strings.ContainsAny(lines[i+1], `'"$|<>;&\`) {
				return nil, fmt.Errorf("%s:%d: want one command line without quotes or shell syntax in a sh block", jsonDoc, i+1)
			}
			command = strings.Fields(lines[i+1])
		case "```json":
			if command == nil {
				return nil, fmt.Errorf("%s:%d: a json block with no sh block before it", jsonDoc, i+1)
			}
			ex := docExample{command: command, line: i + 2, start: i + 1}
			for ex.end = i + 1; ex.end < len(lines) && lines[ex.end] != "```"; ex.end++ {
			}
			dec := json.NewDecoder(strings.NewReader(strings.Join(lines[ex.start:ex.end], "\n")))
			for {
				var v json.RawMessage
				if err := dec.Decode(&v); err == io.EOF {
					break
				} else if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", jsonDoc, ex.line, err)
				}
				ex.want = append(ex.want, string(v))
			}
			out = append(out, ex)
			command = nil
		}
	}
	return out, nil
}

// runExample runs the command line args (a command of the project, from
// bin) in dir, with no cache of the user's, and returns the lines of its
// standard output.
func runExample(t *testing.T, bin, dir string, args []string) []string {
	t.Helper()
	if !slices.Contains(Commands, args[0]) {
		t.Fatalf("%s: %s is not a command of the project", jsonDoc, args[0])
	}
	cmd := exec.Command(filepath.Join(bin, args[0]), args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"), "SPOTS_SWARM_KEY=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s: %v", strings.Join(args, " "), err)
		}
	}
	var out []string
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if len(out) == 0 {
		t.Logf("%s: nothing on standard output; standard error: %s", strings.Join(args, " "), stderr.String())
	}
	return out
}

// indented returns the JSON values as the document shows them: indented
// by two spaces, keys in the order the command wrote them.
func indented(t *testing.T, values []string) []string {
	t.Helper()
	var out []string
	for _, v := range values {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(v), "", "  "); err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		out = append(out, strings.Split(b.String(), "\n")...)
	}
	return out
}

// compareKeys returns the key paths of want that got lacks and those of
// got that want lacks.
func compareKeys(t *testing.T, want, got string) (missing, extra []string) {
	t.Helper()
	w, g := keyPaths(t, want), keyPaths(t, got)
	for k := range w {
		if !g[k] {
			missing = append(missing, k)
		}
	}
	for k := range g {
		if !w[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}

// keyPaths returns the paths of the keys of a JSON value: "a", "a.b" for
// the key b of the object a, "a[].b" for the key b of any object in the
// array a.
func keyPaths(t *testing.T, value string) map[string]bool {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(value), &v); err != nil {
		t.Fatalf("%q: %v", value, err)
	}
	paths := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				p := prefix + k
				paths[p] = true
				walk(p+".", x)
			}
		case []any:
			for _, x := range v {
				walk(strings.TrimSuffix(prefix, ".")+"[].", x)
			}
		}
	}
	walk("", v)
	return paths
}
