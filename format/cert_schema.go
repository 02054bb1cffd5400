package format

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
)

// checkSchema checks the columns of a certificate file: names, order and
// types (nullability aside: nulls are refused row by row).
func checkSchema(s *arrow.Schema) error {
	want := certSchema(arrow.Metadata{})
	if s.NumFields() != want.NumFields() {
		return corrupt("the schema has %d columns, want %d", s.NumFields(), want.NumFields())
	}
	for i, f := range s.Fields() {
		w := want.Field(i)
		if f.Name != w.Name || !sameType(f.Type, w.Type) {
			return corrupt("column %d is %s: %s, want %s: %s", i+1, f.Name, f.Type, w.Name, w.Type)
		}
		if reason := checkFieldMetadata(f.Metadata); reason != "" {
			return corrupt("column %d (%s): %s", i+1, f.Name, reason)
		}
	}
	return nil
}

// checkFieldMetadata returns why md cannot be a column's field metadata,
// or "": a column holds no metadata (files written before descriptions
// existed) or one description, whose text is not checked further since it
// carries no meaning for a program.
func checkFieldMetadata(md arrow.Metadata) string {
	switch {
	case md.Len() == 0:
		return ""
	case md.Len() > 1 || md.Keys()[0] != metaDescription:
		return fmt.Sprintf("field metadata %v: want none or only %q", md.Keys(), metaDescription)
	case len(md.Values()[0]) > maxHeaderText:
		return fmt.Sprintf("a description of %d bytes, more than %d", len(md.Values()[0]), maxHeaderText)
	}
	return ""
}

func sameType(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	la, ok := a.(*arrow.ListType)
	if !ok {
		return true
	}
	return la.Elem().ID() == b.(*arrow.ListType).Elem().ID()
}

var metaKeys = []string{metaFormat, metaGame, metaNotation, metaClaim, metaAddress, metaEntries, metaProducer, metaVersion, metaCreated}

// parseMetadata reads and checks the schema metadata of a certificate
// file: exactly the keys in metaKeys, each well formed.
func parseMetadata(md arrow.Metadata) (c Certificate, address string, entries uint64, err error) {
	m, err := metadataMap(md)
	if err != nil {
		return c, "", 0, err
	}
	switch m[metaFormat] {
	case FormatVersion:
		if hasKey(m, metaCites) {
			return c, "", 0, corrupt("metadata key %q is not part of %s", metaCites, FormatVersion)
		}
	case FormatCiting:
		if !hasKey(m, metaCites) {
			return c, "", 0, corrupt("metadata key %q is missing", metaCites)
		}
		if c.Cites = strings.Split(m[metaCites], ","); len(c.Cites) == 1 && c.Cites[0] == "" {
			return c, "", 0, corrupt("spots.cites is empty: a certificate that cites none is %s", FormatVersion)
		}
	default:
		return c, "", 0, corrupt("spots.format is %q; this reader knows %q and %q", cutString(m[metaFormat]), FormatVersion, FormatCiting)
	}
	if c.Claim, err = ParseClaim(m[metaClaim]); err != nil {
		return c, "", 0, corrupt("spots.claim: %v", err)
	}
	c.Game, c.Notation, c.Producer, c.Version = m[metaGame], m[metaNotation], m[metaProducer], m[metaVersion]
	if err := checkHeader(&c); err != nil {
		return c, "", 0, corrupt("%v", err)
	}
	if c.Created, err = time.Parse(time.RFC3339, m[metaCreated]); err != nil {
		return c, "", 0, corrupt("spots.created %q is not an RFC 3339 time", cutString(m[metaCreated]))
	}
	address = m[metaAddress]
	if !IsAddress(address) {
		return c, "", 0, corrupt("spots.address %q is not 64 lowercase hexadecimal digits", cutString(address))
	}
	entries, err = parseCount(m[metaEntries])
	if err != nil {
		return c, "", 0, corrupt("spots.entries: %v", err)
	}
	return c, address, entries, nil
}

// metadataMap returns the metadata as a map, refusing unknown, repeated,
// missing and overlong keys.
func metadataMap(md arrow.Metadata) (map[string]string, error) {
	m := make(map[string]string, len(metaKeys))
	for i, k := range md.Keys() {
		v := md.Values()[i]
		switch {
		case !isMetaKey(k):
			return nil, corrupt("unknown metadata key %q", cutString(k))
		case hasKey(m, k):
			return nil, corrupt("metadata key %q appears twice", k)
		case len(v) > maxHeaderText:
			return nil, corrupt("metadata %s has %d bytes, more than %d", k, len(v), maxHeaderText)
		}
		m[k] = v
	}
	for _, k := range metaKeys {
		if !hasKey(m, k) {
			return nil, corrupt("metadata key %q is missing", k)
		}
	}
	return m, nil
}

func isMetaKey(k string) bool {
	if k == metaCites {
		return true
	}
	for _, w := range metaKeys {
		if k == w {
			return true
		}
	}
	return false
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// parseCount reads a decimal uint64 without sign or leading zeros.
func parseCount(s string) (uint64, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" || len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("%q is not a decimal number without leading zeros", cutString(s))
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s does not fit 64 bits", s)
	}
	return n, nil
}
