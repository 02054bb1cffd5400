//go:build spotsdebug

package solve

const debugChecks = true

func assert(ok bool, what string) {
	if !ok {
		panic("solve: assertion failed: " + what)
	}
}
