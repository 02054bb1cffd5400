package outcome

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct {
		o         Outcome
		str, mark string
		known     bool
		marshal   string // JSON of the value
	}{
		{Unknown, "unknown", "?", false, `"unknown"`},
		{Win, "W", "W", true, `"W"`},
		{Loss, "L", "L", true, `"L"`},
	}
	for _, tt := range tests {
		if got := tt.o.String(); got != tt.str {
			t.Errorf("%d: String() = %q, want %q", tt.o, got, tt.str)
		}
		if got := tt.o.Mark(); got != tt.mark {
			t.Errorf("%d: Mark() = %q, want %q", tt.o, got, tt.mark)
		}
		if got := tt.o.Known(); got != tt.known {
			t.Errorf("%d: Known() = %v, want %v", tt.o, got, tt.known)
		}
		for _, s := range []string{tt.str, tt.mark} {
			if back, err := Parse(s); err != nil || back != tt.o {
				t.Errorf("Parse(%q) = %v, %v; want %v", s, back, err, tt.o)
			}
		}
		js, err := json.Marshal(tt.o)
		if err != nil || string(js) != tt.marshal {
			t.Errorf("%d: JSON %s, %v; want %s", tt.o, js, err, tt.marshal)
		}
		back := Outcome(99)
		if err := json.Unmarshal(js, &back); err != nil || back != tt.o {
			t.Errorf("%d: JSON %s reads back as %v, %v", tt.o, js, back, err)
		}
	}
}

// TestEmptyIsUnknown: the empty JSON string, what earlier versions wrote
// for Unknown (a swarm worker or state file of such a version), reads as
// Unknown.
func TestEmptyIsUnknown(t *testing.T) {
	o := Win
	if err := json.Unmarshal([]byte(`""`), &o); err != nil || o != Unknown {
		t.Errorf(`JSON "" reads as %v, %v; want Unknown`, o, err)
	}
}

func TestParseRejects(t *testing.T) {
	for _, s := range []string{"", "w", "l", "win", "Win", "loss", "Unknown", "U", " W", "W ", "WL", "Outcome(3)", "\x00"} {
		o, err := Parse(s)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", s, o)
			continue
		}
		if !strings.Contains(err.Error(), strings.Trim(quote(s), `"`)) {
			t.Errorf("Parse(%q): error %q does not name the text", s, err)
		}
		if o != Unknown {
			t.Errorf("Parse(%q) = %v with its error, want Unknown", s, o)
		}
	}
	o := Win
	if err := o.UnmarshalText([]byte("x")); err == nil || o != Win {
		t.Errorf(`UnmarshalText("x"): %v, left %v; want an error and Win unchanged`, err, o)
	}
	var r struct{ Outcome Outcome }
	if err := json.Unmarshal([]byte(`{"Outcome":"draw"}`), &r); err == nil || !strings.Contains(err.Error(), "draw") {
		t.Errorf("JSON draw: %v, want an error naming it", err)
	}
}

func TestInvalid(t *testing.T) {
	bad := Outcome(7)
	if bad.String() != "Outcome(7)" || bad.Mark() != "Outcome(7)" || bad.Known() {
		t.Errorf("Outcome(7): %q, %q, known %v", bad.String(), bad.Mark(), bad.Known())
	}
	if _, err := bad.MarshalText(); err == nil {
		t.Error("MarshalText of Outcome(7) did not fail")
	}
	if _, err := Parse(bad.String()); err == nil {
		t.Error("Parse read an invalid outcome's text")
	}
}

func TestOfGrundy(t *testing.T) {
	for _, tt := range []struct {
		g    uint32
		want Outcome
	}{{0, Loss}, {1, Win}, {2, Win}, {1<<32 - 1, Win}} {
		if got := OfGrundy(tt.g); got != tt.want {
			t.Errorf("OfGrundy(%d) = %v, want %v", tt.g, got, tt.want)
		}
	}
}

// quote is how an error names s.
func quote(s string) string { return strconv.Quote(s) }
