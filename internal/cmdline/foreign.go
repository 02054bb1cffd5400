package cmdline

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"
)

// Foreign is an option of another program (SPOTS, the reference solver)
// that a command accepts on its command line, hidden from --help, so that
// a script written for that program fails with a message that says what
// to use instead rather than with "unknown flag".
type Foreign struct {
	Name string // the option's name, e.g. "no_sharing"
	// Bool is set for an option that takes no value (--no_sharing);
	// otherwise it takes one (--state_level 1).
	Bool bool
	// Accept lists the values that mean what the command does anyway
	// (--state_level 0): given, they are accepted and change nothing.
	Accept []string
	// Instead says what to use instead, or why nothing is needed.
	Instead string
}

// Foreigns holds the foreign options added to a flag set.
type Foreigns struct {
	list   []Foreign
	values map[string]*string
}

// AddForeign adds the options to flags, hidden.
func AddForeign(flags *pflag.FlagSet, options ...Foreign) *Foreigns {
	fs := &Foreigns{list: options, values: map[string]*string{}}
	for _, o := range options {
		v := new(string)
		fs.values[o.Name] = v
		flags.StringVar(v, o.Name, "", "an option of SPOTS: "+o.Instead)
		f := flags.Lookup(o.Name)
		f.Hidden = true
		if o.Bool {
			f.NoOptDefVal = "true"
		}
	}
	return fs
}

// Check returns an error for the first foreign option given on the
// command line (flags parsed) with a value the command does not accept,
// saying what to use instead, or nil.
func (fs *Foreigns) Check(flags *pflag.FlagSet) error {
	if fs == nil {
		return nil
	}
	for _, o := range fs.list {
		if !flags.Changed(o.Name) {
			continue
		}
		v := *fs.values[o.Name]
		if slices.Contains(o.Accept, v) {
			continue
		}
		given := "--" + o.Name
		if !o.Bool {
			given += " " + v
		}
		return fmt.Errorf("%s is an option of SPOTS that spots does not take: %s", given, o.Instead)
	}
	return nil
}
