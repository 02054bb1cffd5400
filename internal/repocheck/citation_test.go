package repocheck

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// citation holds the fields of CITATION.cff (Citation File Format 1.2.0)
// that GitHub's "Cite this repository" and citation managers need.
type citation struct {
	CFFVersion string   `yaml:"cff-version"`
	Message    string   `yaml:"message"`
	Type       string   `yaml:"type"`
	Title      string   `yaml:"title"`
	Authors    []person `yaml:"authors"`
	Repository string   `yaml:"repository-code"`
	License    string   `yaml:"license"`
	References []struct {
		Type    string   `yaml:"type"`
		Title   string   `yaml:"title"`
		Authors []person `yaml:"authors"`
		Year    int      `yaml:"year"`
		URL     string   `yaml:"url"`
	} `yaml:"references"`
}

// person is an author: a person (family-names) or an entity (name).
type person struct {
	FamilyNames string `yaml:"family-names"`
	GivenNames  string `yaml:"given-names"`
	Name        string `yaml:"name"`
}

func (p person) ok() bool { return p.Name != "" || p.FamilyNames != "" && p.GivenNames != "" }

// TestLicenseAndCitation: LICENSE is the MIT license, and CITATION.cff
// cites the project under that license and the paper it implements, with
// every field a citation needs. Unknown keys are refused (a misspelt key
// would be dropped silently by GitHub).
func TestLicenseAndCitation(t *testing.T) {
	root := moduleRoot(t)
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(license, []byte("MIT License\n")) || !bytes.Contains(license, []byte("Permission is hereby granted, free of charge")) {
		t.Errorf("LICENSE is not the MIT license")
	}
	data, err := os.ReadFile(filepath.Join(root, "CITATION.cff"))
	if err != nil {
		t.Fatal(err)
	}
	var c citation
	var raw map[string]any
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"cff-version": true, "message": true, "type": true, "title": true, "abstract": true,
		"authors": true, "repository-code": true, "license": true, "keywords": true, "references": true,
		"version": true, "date-released": true, "doi": true, "url": true, "identifiers": true, "preferred-citation": true}
	for k := range raw {
		if !known[k] {
			t.Errorf("CITATION.cff: key %q is not one this test knows of Citation File Format 1.2.0", k)
		}
	}
	switch {
	case c.CFFVersion != "1.2.0":
		t.Errorf("cff-version %q, want 1.2.0", c.CFFVersion)
	case c.Message == "" || c.Title == "" || c.Type != "software":
		t.Errorf("message %q, title %q, type %q: all needed, type software", c.Message, c.Title, c.Type)
	case c.License != "MIT":
		t.Errorf("license %q, LICENSE says MIT", c.License)
	case !strings.HasPrefix(c.Repository, "https://github.com/"):
		t.Errorf("repository-code %q", c.Repository)
	case len(c.Authors) == 0 || len(c.References) == 0:
		t.Fatalf("%d authors, %d references: want the project's and the paper", len(c.Authors), len(c.References))
	}
	for _, a := range c.Authors {
		if !a.ok() {
			t.Errorf("author %+v has neither a name nor family and given names", a)
		}
	}
	for _, r := range c.References {
		if r.Type == "" || r.Title == "" || r.Year == 0 || r.URL == "" || len(r.Authors) == 0 {
			t.Errorf("reference %q: type, title, year, url and authors are all needed", r.Title)
		}
		for _, a := range r.Authors {
			if !a.ok() {
				t.Errorf("reference %q: author %+v has neither a name nor family and given names", r.Title, a)
			}
		}
	}
}
