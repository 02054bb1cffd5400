package format

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadSPR(t *testing.T) {
	in := "[Positions+Nimber]\n0 0\n0*2 0\n\n0.AB|AB 2\n"
	got, err := ReadSPR(strings.NewReader(in), SPROptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []SPREntry{{"0", 0, 2}, {"0*2", 0, 3}, {"0.AB|AB", 2, 5}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d: %v, want %v", i, got[i], want[i])
		}
	}
}

func TestReadSPRRejects(t *testing.T) {
	tests := []struct {
		in     string
		line   int
		reason string
	}{
		{"", 1, "empty file"},
		{"0 0\n", 1, "first line must be"},
		{"[Positions+Nimber]\r\n0 0\n", 1, "first line must be"},
		{"[WinLoss_Misere:Losing_Position]\n0\n", 1, "first line must be"},
		{"[Positions+Nimber]\n0*2\n", 2, "no space"},
		{"[Positions+Nimber]\n 0\n", 2, "empty position"},
		{"[Positions+Nimber]\n0 0\n0*2  1\n", 3, "one space"},
		{"[Positions+Nimber]\n0 x\n", 2, "not a decimal"},
		{"[Positions+Nimber]\n0 -1\n", 2, "not a decimal"},
		{"[Positions+Nimber]\n0 256\n", 2, "more than 255"},
		{"[Positions+Nimber]\n0 99999999999999999999\n", 2, "more than 255"},
		{"[Positions+Nimber]\n0 1\r\n", 2, "carriage return"},
		{"[Positions+Nimber]\n0 1 2\n", 2, "one space"},
		{"[Positions+Nimber]\n" + strings.Repeat("0.", MaxSPRLine) + " 1\n", 2, "longer than"},
	}
	for _, tt := range tests {
		_, err := ReadSPR(strings.NewReader(tt.in), SPROptions{})
		var le *LineError
		if !errors.As(err, &le) {
			t.Errorf("ReadSPR(%.30q): %v, want a *LineError", tt.in, err)
			continue
		}
		if le.Line != tt.line || !strings.Contains(le.Reason, tt.reason) {
			t.Errorf("ReadSPR(%.30q): line %d %q; want line %d %q", tt.in, le.Line, le.Reason, tt.line, tt.reason)
		}
	}
}

func TestReadSPRLenient(t *testing.T) {
	in := "[Positions+Nimber]\n0 0\nbad\n0*2 x\n1 1\n"
	var warned []int
	got, err := ReadSPR(strings.NewReader(in), SPROptions{Lenient: true, Warn: func(e *LineError) { warned = append(warned, e.Line) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(warned) != 2 || warned[0] != 3 || warned[1] != 4 {
		t.Errorf("got %v, warnings on lines %v", got, warned)
	}
	if _, err := ReadSPR(strings.NewReader("nope\n0 0\n"), SPROptions{Lenient: true}); err == nil {
		t.Error("lenient read accepted a missing header")
	}
}

func TestWriteSPRRoundTrip(t *testing.T) {
	entries := []SPREntry{{Position: "0*2", Grundy: 0}, {Position: "0", Grundy: 0}, {Position: "1a1a", Grundy: 2}}
	var buf bytes.Buffer
	if err := WriteSPR(&buf, entries); err != nil {
		t.Fatal(err)
	}
	if want := "[Positions+Nimber]\n0 0\n0*2 0\n1a1a 2\n"; buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
	back, err := ReadSPR(&buf, SPROptions{})
	if err != nil || len(back) != 3 {
		t.Fatalf("read back %v, %v", back, err)
	}
	if err := WriteSPR(&buf, []SPREntry{{Position: "0", Grundy: 256}}); err == nil {
		t.Error("wrote a Grundy value of 256")
	}
	if err := WriteSPR(&buf, []SPREntry{{Position: "0 0", Grundy: 1}}); err == nil {
		t.Error("wrote a position with a space")
	}
}

func TestWriteSPRFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db.spr")
	if err := WriteSPRFile(path, []SPREntry{{Position: "0", Grundy: 0}}); err != nil {
		t.Fatal(err)
	}
	// Shared results are readable by others, not private like a temp file.
	if fi, err := os.Stat(path); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want -rw-r--r--", fi.Mode())
	}
	// A failed write leaves the old file and no temporary behind.
	if err := WriteSPRFile(path, []SPREntry{{Position: "0", Grundy: 300}}); err == nil {
		t.Fatal("wrote a Grundy value of 300")
	}
	data, _ := os.ReadFile(path)
	if string(data) != "[Positions+Nimber]\n0 0\n" {
		t.Errorf("file now %q", data)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Errorf("directory holds %d files", len(files))
	}
}

// FuzzReadSPR checks that no input makes the reader panic and that what it
// accepts is written back and read again to the same entries.
func FuzzReadSPR(f *testing.F) {
	f.Add("[Positions+Nimber]\n0 0\n0*2 0\n")
	f.Add("[Positions+Nimber]\n\n1a1a 2\n0.AB|AB 2")
	f.Fuzz(func(t *testing.T, in string) {
		entries, err := ReadSPR(strings.NewReader(in), SPROptions{})
		if err != nil {
			if !IsLineError(err) {
				t.Fatalf("error %v is not a LineError", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteSPR(&buf, entries); err != nil {
			t.Fatalf("accepted entries do not write: %v", err)
		}
		back, err := ReadSPR(&buf, SPROptions{})
		if err != nil || len(back) != len(entries) {
			t.Fatalf("round trip: %v, %d entries of %d", err, len(back), len(entries))
		}
	})
}
