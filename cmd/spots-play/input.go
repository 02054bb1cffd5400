package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxLine is the longest line of input read as a whole; the rest of a
// longer line is skipped and the line refused.
const maxLine = 4096

// errLineTooLong is a line over maxLine.
var errLineTooLong = errors.New("line too long")

// lineReader reads lines of bounded length.
type lineReader struct{ r *bufio.Reader }

func newLineReader(r io.Reader) *lineReader { return &lineReader{bufio.NewReaderSize(r, maxLine)} }

// next returns the next line without its end ("\n" or "\r\n") and
// without a last "\r", io.EOF at
// the end of input (a last line without "\n" is returned first), or
// errLineTooLong for a line longer than maxLine, which it skips.
func (l *lineReader) next() (string, error) {
	var b []byte
	long := false
	for {
		chunk, isPrefix, err := l.r.ReadLine()
		if err != nil {
			if err == io.EOF && (len(b) > 0 || long) {
				break
			}
			return "", err
		}
		if !long {
			if len(b)+len(chunk) > maxLine {
				long, b = true, nil
			} else {
				b = append(b, chunk...)
			}
		}
		if !isPrefix {
			break
		}
	}
	if long {
		return "", errLineTooLong
	}
	return strings.TrimSuffix(string(b), "\r"), nil
}

// choice is what a human typed at the prompt of game.
type choice struct {
	quit bool
	move int // 0-based index of the chosen move
}

// parseChoice reads a line typed at the prompt: "q" or "quit" (any case)
// to quit, a move's number from 1 to n, or the canonical text of the
// position a move reaches (texts[i], that of move i). Anything else is an
// error saying what to type.
func parseChoice(line string, texts []string) (choice, error) {
	s := strings.TrimSpace(line)
	n := len(texts)
	switch strings.ToLower(s) {
	case "q", "quit", "exit":
		return choice{quit: true}, nil
	case "":
		return choice{}, fmt.Errorf("enter a move's number, from 1 to %d, or q to quit", n)
	}
	if strings.Trim(s, "0123456789") == "" {
		k, err := strconv.Atoi(s)
		if err != nil || k < 1 || k > n {
			return choice{}, fmt.Errorf("%s is not a move's number: enter one from 1 to %d, or q to quit", cut(s), n)
		}
		return choice{move: k - 1}, nil
	}
	for i, t := range texts {
		if t == s {
			return choice{move: i}, nil
		}
	}
	return choice{}, fmt.Errorf("%q is not a move: enter a move's number, from 1 to %d, or q to quit", cut(s), n)
}

// cut shortens text typed by a human for a message.
func cut(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
