package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestParseChoice(t *testing.T) {
	texts := []string{"0*2.AB|AB", "0.1a1a", "0.AB|0.AB"}
	tests := []struct {
		in   string
		want choice
		err  string
	}{
		{in: "1", want: choice{move: 0}},
		{in: " 3 \r", want: choice{move: 2}},
		{in: "Q", want: choice{quit: true}},
		{in: "quit", want: choice{quit: true}},
		{in: "0.1a1a", want: choice{move: 1}},
		{in: "0", err: "0 is not a move's number: enter one from 1 to 3"},
		{in: "4", err: "4 is not a move's number"},
		{in: "99999999999999999999999", err: "is not a move's number"},
		{in: "", err: "enter a move's number, from 1 to 3, or q to quit"},
		{in: "-1", err: `"-1" is not a move`},
		{in: "0*3", err: `"0*3" is not a move`},
	}
	for _, tt := range tests {
		c, err := parseChoice(tt.in, texts)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("parseChoice(%q) = %+v, %v; want an error containing %q", tt.in, c, err, tt.err)
		case tt.err == "" && (err != nil || c != tt.want):
			t.Errorf("parseChoice(%q) = %+v, %v; want %+v", tt.in, c, err, tt.want)
		}
	}
}

// FuzzParseChoice checks that parseChoice never panics and only returns
// a move that exists.
func FuzzParseChoice(f *testing.F) {
	for _, s := range []string{"1", "3", "q", "0.1a1a", "", "-0", "007", "４"} {
		f.Add(s)
	}
	texts := []string{"0*2.AB|AB", "0.1a1a", "0.AB|0.AB"}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseChoice(s, texts)
		if err == nil && !c.quit && (c.move < 0 || c.move >= len(texts)) {
			t.Fatalf("parseChoice(%q) = %+v", s, c)
		}
	})
}

// FuzzLineReader checks the line reader against splitting the whole
// input: the same lines, except that lines over maxLine are refused.
func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"1\n2\n", "1\r\n\r\nq", "", "\n", strings.Repeat("x", maxLine+1) + "\n1\n", strings.Repeat("y", 3*maxLine) + "\n2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want []string
		sc := bufio.NewScanner(strings.NewReader(s))
		sc.Buffer(nil, len(s)+1)
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if len(line) > maxLine {
				line = "\x00too long"
			}
			want = append(want, line)
		}
		l := newLineReader(strings.NewReader(s))
		var got []string
		for {
			line, err := l.next()
			line = strings.TrimSuffix(line, "\r")
			if err == io.EOF {
				break
			}
			if err == errLineTooLong {
				line = "\x00too long"
			} else if err != nil {
				t.Fatal(err)
			}
			got = append(got, line)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
			t.Fatalf("lines %q, want %q", got, want)
		}
	})
}
