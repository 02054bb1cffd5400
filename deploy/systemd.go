package deploy

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// Unit is a systemd unit file: for each section, its directives in order
// (a directive given twice keeps both values).
type Unit struct {
	Name     string
	Sections map[string][]directive
}

// directive is one "Key=Value" line of a unit.
type directive struct {
	Key, Value string
	Line       int
}

// ParseUnit reads a unit file. Comments (# or ;) and blank lines are
// skipped; a line ending in a backslash goes on on the next. A line
// outside a section or without "=" is an error naming it.
func ParseUnit(name string, data []byte) (Unit, error) {
	u := Unit{Name: name, Sections: map[string][]directive{}}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	var pending strings.Builder
	start := 0
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if pending.Len() == 0 {
			start = n
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
		}
		if strings.HasSuffix(line, "\\") {
			pending.WriteString(strings.TrimSuffix(line, "\\") + " ")
			continue
		}
		pending.WriteString(line)
		line = pending.String()
		pending.Reset()
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = line[1 : len(line)-1]
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		switch {
		case !ok:
			return Unit{}, fmt.Errorf("%s:%d: %q is not Key=Value", name, start, line)
		case section == "":
			return Unit{}, fmt.Errorf("%s:%d: %q is outside a section", name, start, line)
		}
		u.Sections[section] = append(u.Sections[section], directive{Key: strings.TrimSpace(key), Value: strings.TrimSpace(value), Line: start})
	}
	if err := sc.Err(); err != nil {
		return Unit{}, fmt.Errorf("%s: %w", name, err)
	}
	return u, nil
}

// Values returns the values of a directive of a section, in order.
func (u Unit) Values(section, key string) []string {
	var out []string
	for _, d := range u.Sections[section] {
		if d.Key == key {
			out = append(out, d.Value)
		}
	}
	return out
}

// Value returns the last value of a directive ("" if it is not there).
func (u Unit) Value(section, key string) string {
	v := u.Values(section, key)
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// ParseEnvFile reads an EnvironmentFile: NAME=value lines, comments (# or
// ;) and blank lines; a value may be quoted with ' or ". A line that is not
// NAME=value is an error naming it.
func ParseEnvFile(name string, data []byte) (map[string]string, error) {
	env := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" || strings.ContainsAny(key, " \t$") {
			return nil, fmt.Errorf("%s:%d: %q is not NAME=value", name, n, line)
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		env[key] = value
	}
	return env, sc.Err()
}

// ExpandExec splits and expands a command line of ExecStart= as systemd
// does for the forms the units here use: words split on spaces, "..." and
// '...' quoting, specifiers %x replaced from spec (%% is %), ${NAME}
// replaced by the variable's value within its word, and a word that is
// exactly $NAME replaced by the value split on spaces (no words when it is
// empty). An unknown specifier or an unterminated quote is an error; an
// unset variable is empty, as in systemd.
func ExpandExec(line string, spec map[byte]string, env map[string]string) ([]string, error) {
	words, err := splitQuoted(line)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, w := range words {
		w, err := specifiers(w, spec)
		if err != nil {
			return nil, fmt.Errorf("ExecStart %q: %w", line, err)
		}
		if name, ok := strings.CutPrefix(w, "$"); ok && isEnvName(name) {
			out = append(out, strings.Fields(env[name])...)
			continue
		}
		out = append(out, bracedVars(w, env))
	}
	return out, nil
}

func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// bracedVars replaces each ${NAME} of w.
func bracedVars(w string, env map[string]string) string {
	var b strings.Builder
	for {
		i := strings.Index(w, "${")
		if i < 0 {
			b.WriteString(w)
			return b.String()
		}
		j := strings.IndexByte(w[i:], '}')
		if j < 0 {
			b.WriteString(w)
			return b.String()
		}
		b.WriteString(w[:i])
		b.WriteString(env[w[i+2:i+j]])
		w = w[i+j+1:]
	}
}

func specifiers(w string, spec map[byte]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if w[i] != '%' {
			b.WriteByte(w[i])
			continue
		}
		if i+1 == len(w) {
			return "", fmt.Errorf("a lone %% at the end of %q", w)
		}
		i++
		if w[i] == '%' {
			b.WriteByte('%')
			continue
		}
		v, ok := spec[w[i]]
		if !ok {
			return "", fmt.Errorf("specifier %%%c in %q: not known here", w[i], w)
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

func splitQuoted(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '"' || c == '\'':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("ExecStart %q: unterminated %c", line, c)
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
