package main

import (
	"fmt"
	"strings"
)

// fromGLOP converts a position written in GLOP's notation into ours and
// returns any other text unchanged. In GLOP every boundary ends with '.',
// every region with '}', every land with ']', and the position with '!':
// 2AB.}AB.}]! is our 2AB|AB. Text without '}' or ']' is taken to be in our
// notation already (where '.' separates boundaries, '|' regions and '+'
// lands).
func fromGLOP(s string) (string, error) {
	if !strings.ContainsAny(s, "}]") {
		return s, nil
	}
	body := strings.TrimSuffix(s, "!")
	if !strings.HasSuffix(body, "]") {
		return "", fmt.Errorf("GLOP notation: a position must end with ']' (and '!'), not %q", tail(body))
	}
	var lands []string
	for i, land := range strings.Split(strings.TrimSuffix(body, "]"), "]") {
		if !strings.HasSuffix(land, "}") {
			return "", fmt.Errorf("GLOP notation: land %d must end with '}' before ']'", i+1)
		}
		var regions []string
		for j, region := range strings.Split(strings.TrimSuffix(land, "}"), "}") {
			if !strings.HasSuffix(region, ".") {
				return "", fmt.Errorf("GLOP notation: region %d of land %d must end with '.' before '}'", j+1, i+1)
			}
			regions = append(regions, strings.TrimSuffix(region, "."))
		}
		lands = append(lands, strings.Join(regions, "|"))
	}
	return strings.Join(lands, "+"), nil
}

// tail returns the end of s, for an error message.
func tail(s string) string {
	if len(s) > 10 {
		return "…" + s[len(s)-10:]
	}
	return s
}
