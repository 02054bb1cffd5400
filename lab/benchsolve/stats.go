package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// verifyCertificate checks the certificate at path with spots-verify and
// returns why it failed, or "" when it proves claim and has the address
// spots-solve reported.
func verifyCertificate(verifier, path, claim, address string) string {
	cmd := exec.Command(verifier, "--json", "--progress", "none", path)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return fmt.Sprintf("spots-verify: %v: %s", err, strings.TrimSpace(errOut.String()))
	}
	var v struct {
		Valid   bool   `json:"valid"`
		Claim   string `json:"claim"`
		Address string `json:"address"`
	}
	switch err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &v); {
	case err != nil:
		return fmt.Sprintf("spots-verify: output %q: %v", out.String(), err)
	case !v.Valid:
		return "spots-verify: not valid"
	case v.Claim != claim || v.Address != address:
		return fmt.Sprintf("spots-verify: claim %s at %s, spots-solve said %s at %s", v.Claim, v.Address, claim, address)
	}
	return ""
}

// medianOf is the median of xs (the mean of the middle two for an even
// count); xs is left as it was.
func medianOf(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func minMax(xs []float64) (float64, float64) {
	return slices.Min(xs), slices.Max(xs)
}

// spread formats the median of xs and its range, each with format.
func spread(xs []float64, format string) string {
	lo, hi := minMax(xs)
	return fmt.Sprintf(format+" ("+format+"–"+format+")", medianOf(xs), lo, hi)
}

// loadAverage is the one-minute load average (Linux), or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// cpuModel is " (model name)" from /proc/cpuinfo (Linux), or "".
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return " (" + strings.TrimSpace(v) + ")"
		}
	}
	return ""
}
