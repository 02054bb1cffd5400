package cmdline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
)

// Status is the exit status of a usage error or bad input.
const Status = 2

// WantsJSON reports whether the command line asks for JSON output: --json
// (or --json=true) before any "--".
func WantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "--json=true":
			return true
		}
	}
	return false
}

// HasFlag reports whether the command line gives the boolean flag --name
// (or --name=true) before any "--".
func HasFlag(args []string, name string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--" + name, "--" + name + "=true":
			return true
		}
	}
	return false
}

// ErrorJSON is the object a command prints on standard output for an
// error that ended it before it printed anything there, when its output is
// JSON (see JSONErrors).
type ErrorJSON struct {
	Error string `json:"error"` // the message, as on standard error without the command's name
}

// JSONErrors runs a command (run, with the streams it should use) whose
// name is name. When asJSON is set, and the command ends with Status (bad
// usage or input) without having written anything on standard output,
// its last message on standard error ("name: message", or
// "name sub: message"; notes and warnings aside) is also printed on
// standard output as an ErrorJSON, so that a program reading the output
// always gets JSON. Standard error is passed through as it is.
func JSONErrors(name string, asJSON bool, stdout, stderr io.Writer, run func(stdout, stderr io.Writer) int) int {
	if !asJSON {
		return run(stdout, stderr)
	}
	out := &countingWriter{w: stdout}
	errs := &lastMessage{w: stderr, name: name}
	status := run(out, errs)
	if status != Status || out.written() {
		return status
	}
	msg := errs.last()
	if msg == "" {
		msg = "bad usage or input (exit status 2)"
	}
	b, _ := json.Marshal(ErrorJSON{Error: msg})
	stdout.Write(append(b, '\n'))
	return status
}

// countingWriter passes writes through and remembers whether any was made.
type countingWriter struct {
	w  io.Writer
	mu sync.Mutex
	n  int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.mu.Lock()
	c.n += int64(n)
	c.mu.Unlock()
	return n, err
}

func (c *countingWriter) written() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n > 0
}

// maxMessage bounds the bytes of a line lastMessage keeps.
const maxMessage = 64 << 10

// lastMessage passes writes through and keeps the last complete line that
// is a message of the command name (not a note or a warning). It holds at
// most maxMessage bytes of a line.
type lastMessage struct {
	w    io.Writer
	name string
	mu   sync.Mutex
	line []byte // the line being written
	cut  bool   // the line being written was longer than maxMessage
	msg  string
}

func (l *lastMessage) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	l.mu.Lock()
	defer l.mu.Unlock()
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		part := rest
		if i >= 0 {
			part = rest[:i]
		}
		if room := maxMessage - len(l.line); len(part) > room {
			part, l.cut = part[:max(room, 0)], true
		}
		l.line = append(l.line, part...)
		if i < 0 {
			break
		}
		l.take(string(l.line))
		l.line, l.cut, rest = l.line[:0], false, rest[i+1:]
	}
	return n, err
}

// take keeps line if it is one of the command's messages.
func (l *lastMessage) take(line string) {
	if i := strings.LastIndexByte(line, '\r'); i >= 0 {
		line = strings.TrimPrefix(line[i+1:], "\x1b[K") // after a refreshing status line
	}
	rest, ok := strings.CutPrefix(line, l.name)
	if !ok {
		return
	}
	switch {
	case strings.HasPrefix(rest, ": "):
		rest = rest[2:]
	case strings.HasPrefix(rest, " "):
		// "spots-corpus add: message"
		sub, msg, ok := strings.Cut(rest[1:], ": ")
		if !ok || sub == "" || strings.ContainsAny(sub, " \t") {
			return
		}
		rest = msg
	default:
		return
	}
	if strings.HasPrefix(rest, "note: ") || strings.HasPrefix(rest, "warning: ") {
		return
	}
	if l.cut {
		rest += "…"
	}
	l.msg = rest
}

// Stat is the Stat of the stream under l when it has one (an *os.File),
// so that a status line still knows a terminal when it sees one.
func (l *lastMessage) Stat() (os.FileInfo, error) {
	if f, ok := l.w.(interface{ Stat() (os.FileInfo, error) }); ok {
		return f.Stat()
	}
	return nil, errors.New("not a file")
}

func (l *lastMessage) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.msg
}
