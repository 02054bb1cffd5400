package cmdline

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spots-dev/spots/verify"
)

// VerdictsEnv, set to "off", keeps every command from using or keeping
// the checker's remembered verdicts, as spots-verify --no-cache does.
const VerdictsEnv = "SPOTS_VERDICTS"

// Verdicts opens the verdicts this build of the checker remembers, in the
// user's cache directory (spots/verdicts). Without a cache directory, with
// SPOTS_VERDICTS=off, or on an error (said on w, prefixed with prog), it
// returns nil and every check is done in full.
func Verdicts(prog string, w io.Writer) *verify.Verdicts {
	if os.Getenv(VerdictsEnv) == "off" {
		return nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	build, err := verify.BuildID()
	if err == nil {
		var v *verify.Verdicts
		if v, err = verify.OpenVerdicts(filepath.Join(cache, "spots", "verdicts"), build); err == nil {
			return v
		}
	}
	fmt.Fprintf(w, "%s: verdicts are not remembered (%v); every check is done in full\n", prog, err)
	return nil
}
