// Package repocheck keeps the repository's tracked files fit for a source
// repository: none is larger than MaxSize (except the corpus certificates,
// which are the data the repository exists to publish) and none is an
// executable binary. Its test lists the files with git ls-files.
package repocheck

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxSize is the largest size, in bytes, of a tracked file outside
// ExemptDir (1 MiB).
const MaxSize = 1 << 20

// ExemptDir is the directory, relative to the repository root and with a
// trailing slash, whose files may exceed MaxSize: the corpus certificates.
const ExemptDir = "corpus/certs/"

// HeadSize is how many leading bytes of a file Problems needs to recognise
// an executable binary.
const HeadSize = 8000

// File is a tracked file as git lists it.
type File struct {
	Path string // slash-separated, relative to the repository root
	Mode string // git's mode: "100644", "100755" (executable), "120000" (symbolic link), "160000" (submodule)
	Size int64  // bytes
	Head []byte // the first HeadSize bytes of the content (all of it if shorter)
}

// Problems returns why f should not be tracked (empty when it may be): too
// large, or an executable binary, recognised by the magic bytes of ELF,
// Mach-O or PE, or by an executable mode on content that is not text.
func Problems(f File) []string {
	if f.Mode == "120000" || f.Mode == "160000" {
		return nil // a link's or submodule's "content" is a name
	}
	var out []string
	if f.Size > MaxSize && !strings.HasPrefix(f.Path, ExemptDir) {
		out = append(out, fmt.Sprintf("%d bytes, over the %d-byte limit for files outside %s", f.Size, MaxSize, ExemptDir))
	}
	if kind := executableKind(f.Head); kind != "" {
		out = append(out, "an executable binary ("+kind+")")
	} else if f.Mode == "100755" && !IsText(f.Head) {
		out = append(out, "executable (mode 100755) and not text")
	}
	return out
}

// executableKind names the executable format whose magic bytes head starts
// with, or returns "".
func executableKind(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF"
	case bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xce}), bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xcf}),
		bytes.HasPrefix(head, []byte{0xce, 0xfa, 0xed, 0xfe}), bytes.HasPrefix(head, []byte{0xcf, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(head, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return "Mach-O"
	case bytes.HasPrefix(head, []byte("MZ")) && !IsText(head):
		// "MZ" alone may begin a text file; a PE file's DOS header holds
		// zero bytes.
		return "PE"
	}
	return ""
}

// IsText reports whether head looks like the start of a text file: no zero
// byte and valid UTF-8 (a character cut at the end of head is allowed).
func IsText(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 {
			return len(head)-i < utf8.UTFMax && !utf8.FullRune(head[i:])
		}
		i += n
	}
	return true
}
