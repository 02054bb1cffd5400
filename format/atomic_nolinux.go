//go:build !linux

package format

import (
	"errors"
	"os"
)

// errNoAnonymous says that this system makes no file without a name.
var errNoAnonymous = errors.New("no anonymous files here")

// createAnonymous fails: here the temporary file of an AtomicFile is a
// named one (see RemoveStaleTemps for what a killed writer leaves).
func createAnonymous(string) (*os.File, error) { return nil, errNoAnonymous }

// linkAnonymous is never called here (createAnonymous fails).
func linkAnonymous(*os.File, string) error { return errNoAnonymous }
