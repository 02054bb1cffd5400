package octal

import (
	"slices"
	"testing"
)

func TestKnownValues(t *testing.T) {
	// Kayles has period 12 from heap 71 on; the first values are classical.
	kayles, _ := New("0.77")
	want := []uint32{0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1}
	if got := kayles.Grundy(20); !slices.Equal(got, want) {
		t.Errorf("Kayles: %v, want %v", got, want)
	}
	dawson, _ := New("0.07")
	wantD := []uint32{0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3}
	if got := dawson.Grundy(20); !slices.Equal(got, wantD) {
		t.Errorf("Dawson's Kayles: %v, want %v", got, wantD)
	}
}

func TestNewRejects(t *testing.T) {
	for _, code := range []string{"", "77", "0.", "0.8", "1.77"} {
		if _, err := New(code); err == nil {
			t.Errorf("New(%q) accepted", code)
		}
	}
}
