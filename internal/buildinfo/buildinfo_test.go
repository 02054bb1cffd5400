package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"nothing known", "", nil, "(devel)"},
		{"devel", "(devel)", nil, "(devel)"},
		{"tagged", "v1.2.3", nil, "v1.2.3"},
		{"revision", "(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}, "(devel) 0123456789ab"},
		{"pseudo-version", "v0.0.0-20261122180353-99ba079ea8c7+dirty", []debug.BuildSetting{{Key: "vcs.revision", Value: "99ba079ea8c719484c7c"}, {Key: "vcs.modified", Value: "true"}}, "v0.0.0-20261122180353-99ba079ea8c7+dirty"},
		{"modified", "v1.0.0", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}, "v1.0.0 abc+modified"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tc.version}, Settings: tc.settings}
		if got := format(bi); got != tc.want {
			t.Errorf("%s: format = %q, want %q", tc.name, got, tc.want)
		}
	}
}
