package cmdline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/sprouts"
)

func TestNearest(t *testing.T) {
	flags := []string{"nimber", "json", "db-in", "db-out", "workers-local", "threads", "algorithm", "no-progress", "progress"}
	for _, tt := range []struct{ word, want string }{
		{"nimbr", "nimber"},  // a letter left out
		{"nimebr", "nimber"}, // two swapped
		{"jsno", "json"},     // two swapped, a short word
		{"db_in", "db-in"},   // SPOTS's underscore
		{"DB-OUT", "db-out"}, // case
		{"worker-local", "workers-local"},
		{"algo", "algorithm"},   // a prefix
		{"progres", "progress"}, // nearer than no-progress
		{"x", ""},               // nothing near
		{"verbose", ""},         // nothing near
		{"capacity", ""},        // not a flag of this set, nothing near
	} {
		if got := Nearest(tt.word, flags); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestParseSuggests(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // in the error; "" for none
	}{
		{[]string{"--nimbr"}, "unknown flag: --nimbr (did you mean --nimber?)"},
		{[]string{"-json"}, "(did you mean --json?)"},
		{[]string{"--zzz"}, "unknown flag: --zzz"},
		{[]string{"--nimber", "--json"}, ""},
		{[]string{"--json=maybe"}, "invalid argument"},
	} {
		flags := pflag.NewFlagSet("t", pflag.ContinueOnError)
		flags.SetOutput(io.Discard)
		flags.Bool("nimber", false, "")
		flags.Bool("json", false, "")
		err := Parse(flags, tt.args)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.args, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: %v, want %q", tt.args, err, tt.want)
		}
		var ue *UnknownFlagError
		if errors.As(err, &ue) && tt.want == "unknown flag: --zzz" && (ue.Suggestion != "" || strings.Contains(err.Error(), "did you mean")) {
			t.Errorf("%v: suggests %q", tt.args, ue.Suggestion)
		}
	}
}

func TestForeign(t *testing.T) {
	options := []Foreign{
		{Name: "no_sharing", Bool: true, Instead: "leave it out"},
		{Name: "state_level", Accept: []string{"0"}, Instead: "there are no levels"},
		{Name: "verbose", Bool: true, Accept: []string{"true"}, Instead: "progress is shown"},
	}
	for _, tt := range []struct {
		args []string
		want string // in the error; "" for none
	}{
		{nil, ""},
		{[]string{"--verbose"}, ""},
		{[]string{"--state_level", "0"}, ""},
		{[]string{"--state_level", "2"}, "--state_level 2 is an option of SPOTS that spots does not take: there are no levels"},
		{[]string{"--no_sharing"}, "--no_sharing is an option of SPOTS that spots does not take: leave it out"},
	} {
		flags := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs := AddForeign(flags, options...)
		if err := flags.Parse(tt.args); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		err := fs.Check(flags)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || err.Error() != tt.want) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.want)
		}
		if f := flags.Lookup("no_sharing"); !f.Hidden {
			t.Error("a foreign option shows in --help")
		}
	}
}

func TestPositionHints(t *testing.T) {
	parse := func(game, text string) error {
		if game == cram.Game {
			_, err := cram.Parse(text)
			return err
		}
		_, err := sprouts.Parse(text)
		return err
	}
	for _, tt := range []struct {
		game, text string
		note       string // in PositionNote (of a text that parsed, or not); "" for none
		hint       string // in PositionError's message; "" for none (the text parses, or no hint)
	}{
		{sprouts.Game, "12", "12 is read as 2 spots", ""},
		{sprouts.Game, "3", "3 is read as a spot", ""},
		{sprouts.Game, "0", "", ""},
		{sprouts.Game, "0*12", "", ""},
		{sprouts.Game, "45", "45 is read as 2 spots", "45 spots with no line drawn are written 0*45"},
		{sprouts.Game, "4x5", "", "4x5 is a Cram board, not a Sprouts position"},
		{sprouts.Game, ".#./...", "", "is a Cram board"},
		{sprouts.Game, "0*x", "", ""},
		{cram.Game, "0*4", "", "0*4 is a Sprouts position, not a Cram board: leave out --game cram"},
		{cram.Game, "12", "", "12 is a Sprouts position"}, // and no note: the note is Sprouts's
	} {
		if got := PositionNote(tt.game, tt.text); tt.note == "" && got != "" || !strings.Contains(got, tt.note) {
			t.Errorf("PositionNote(%s, %q) = %q, want %q", tt.game, tt.text, got, tt.note)
		}
		err := parse(tt.game, tt.text)
		got := PositionError(tt.game, tt.text, err)
		if !errors.Is(got, err) {
			t.Errorf("PositionError(%s, %q) = %v, does not wrap %v", tt.game, tt.text, got, err)
		}
		switch {
		case err == nil && got != nil:
			t.Errorf("PositionError(%s, %q) of no error = %v", tt.game, tt.text, got)
		case tt.hint == "" && err != nil && got.Error() != err.Error():
			t.Errorf("PositionError(%s, %q) = %q, want the error alone", tt.game, tt.text, got)
		case tt.hint != "" && (got == nil || !strings.Contains(got.Error(), tt.hint)):
			t.Errorf("PositionError(%s, %q) = %v, want %q in it", tt.game, tt.text, got, tt.hint)
		}
	}
}

func TestJSONErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		asJSON bool
		stdout string // what the command writes there
		stderr string
		status int
		want   string // standard output in the end
	}{
		{"a usage error", true, "", "spots-x: note: 12 is two spots\nspots-x: unknown flag: --nimbr\nusage: spots-x\n", 2,
			`{"error":"unknown flag: --nimbr"}` + "\n"},
		{"a subcommand's error", true, "", "spots-x add: --solve 0: want a number\n", 2, `{"error":"--solve 0: want a number"}` + "\n"},
		{"no message", true, "", "something else\n", 2, `{"error":"bad usage or input (exit status 2)"}` + "\n"},
		{"output already", true, `{"input":"x","error":"bad"}` + "\n", "spots-x: bad\n", 2, `{"input":"x","error":"bad"}` + "\n"},
		{"not JSON", false, "", "spots-x: bad\n", 2, ""},
		{"not status 2", true, "", "spots-x: not solved\n", 1, ""},
		{"a status line before", true, "", "   1.0s  working\r\x1b[Kspots-x: stopped\n", 2, `{"error":"stopped"}` + "\n"},
	} {
		var stdout, stderr bytes.Buffer
		status := JSONErrors("spots-x", tt.asJSON, &stdout, &stderr, func(o, e io.Writer) int {
			io.WriteString(o, tt.stdout)
			// in pieces, as a command writes
			for _, part := range strings.SplitAfter(tt.stderr, " ") {
				io.WriteString(e, part)
			}
			return tt.status
		})
		if status != tt.status || stdout.String() != tt.want || stderr.String() != tt.stderr {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want %d, %q, %q", tt.name, status, stdout.String(), stderr.String(), tt.status, tt.want, tt.stderr)
		}
		if tt.want != "" && tt.stdout == "" {
			var e ErrorJSON
			if err := json.Unmarshal(stdout.Bytes(), &e); err != nil || e.Error == "" {
				t.Errorf("%s: %q is not an ErrorJSON: %v", tt.name, stdout.String(), err)
			}
		}
	}
}

// TestJSONErrorsLongLine: a message longer than the bound is kept cut.
func TestJSONErrorsLongLine(t *testing.T) {
	var stdout bytes.Buffer
	long := strings.Repeat("x", 3*maxMessage)
	JSONErrors("spots-x", true, &stdout, io.Discard, func(_, e io.Writer) int {
		fmt.Fprintf(e, "spots-x: %s\n", long)
		return 2
	})
	var got ErrorJSON
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil || len(got.Error) > maxMessage+len("…") || !strings.HasSuffix(got.Error, "…") {
		t.Errorf("%d bytes kept, %v", len(got.Error), err)
	}
}

func TestWantsJSON(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"--json"}, true},
		{[]string{"0*3", "--json=true"}, true},
		{[]string{"--", "--json"}, false},
		{[]string{"--json=false"}, false},
		{nil, false},
	} {
		if got := WantsJSON(tt.args); got != tt.want {
			t.Errorf("WantsJSON(%q) = %v", tt.args, got)
		}
	}
	if !HasFlag([]string{"canon", "--pretty"}, "pretty") || HasFlag([]string{"--prettier"}, "pretty") {
		t.Error("HasFlag")
	}
}
