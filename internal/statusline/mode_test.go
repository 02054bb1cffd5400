package statusline

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestModeFlag(t *testing.T) {
	for _, tt := range []struct {
		text string
		want Mode
		ok   bool
	}{{"text", Text, true}, {"json", JSON, true}, {"none", Off, true}, {"JSON", Text, false}, {"", Text, false}} {
		var m Mode
		err := m.Set(tt.text)
		if (err == nil) != tt.ok || tt.ok && (m != tt.want || m.String() != tt.text) {
			t.Errorf("Set(%q): %v, %v", tt.text, m, err)
		}
	}
	if Off.New(&bytes.Buffer{}) != nil {
		t.Error("Off makes a line")
	}
}

// TestJSONLines: in JSON mode every report is one JSON object a line, the
// first at once, with the figures, the phase and the text; Show's text
// becomes a message; Clear writes nothing.
func TestJSONLines(t *testing.T) {
	var buf bytes.Buffer
	l := JSON.New(&buf)
	l.Show(false, "starting %d", 1)                                     // the first: at once
	l.Report(true, "solving", struct{ Iterations uint64 }{42}, "42 it") // forced
	l.Report(true, "solving", nil, "no figures")
	l.Clear()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %q", len(lines), buf.String())
	}
	want := []map[string]any{
		{"message": "starting 1"},
		{"phase": "solving", "Iterations": 42.0, "message": "42 it"},
		{"phase": "solving", "message": "no figures"},
	}
	for i, line := range lines {
		var got map[string]any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d %q: %v", i, line, err)
		}
		if _, ok := got["elapsed_seconds"].(float64); !ok {
			t.Errorf("line %d %q: no elapsed_seconds", i, line)
		}
		delete(got, "elapsed_seconds")
		if len(got) != len(want[i]) {
			t.Errorf("line %d: %v, want %v", i, got, want[i])
		}
		for k, v := range want[i] {
			if got[k] != v {
				t.Errorf("line %d: %s = %v, want %v", i, k, got[k], v)
			}
		}
	}
}

// TestTextUnchanged: in text mode Report writes the text as Show does.
func TestTextUnchanged(t *testing.T) {
	var a, b bytes.Buffer
	Text.New(&a).Report(true, "solving", struct{ N int }{1}, "42 it")
	Text.New(&b).Show(true, "%s", "42 it")
	if a.String() != b.String() || !strings.HasSuffix(a.String(), "s  42 it\n") {
		t.Errorf("Report %q, Show %q", a.String(), b.String())
	}
}
