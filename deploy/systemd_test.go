package deploy

import (
	"slices"
	"strings"
	"testing"
)

func unit(t *testing.T, path string) Unit {
	t.Helper()
	data, err := File(path)
	if err != nil {
		t.Fatal(err)
	}
	u, err := ParseUnit(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestUnits: both units take the key from a credential and pass it with
// --key-file, restart on failure but not on a usage error, and are
// hardened.
func TestUnits(t *testing.T) {
	for _, path := range []string{"systemd/spots-master.service", "systemd/spots-worker@.service"} {
		t.Run(path, func(t *testing.T) {
			u := unit(t, path)
			exec := u.Value("Service", "ExecStart")
			cred, _, _ := strings.Cut(u.Value("Service", "LoadCredential"), ":")
			switch {
			case exec == "":
				t.Error("no ExecStart")
			case cred == "":
				t.Error("no LoadCredential")
			case !strings.Contains(exec, "--key-file %d/"+cred):
				t.Errorf("ExecStart does not read the credential %q (--key-file %%d/%s): %s", cred, cred, exec)
			case strings.Contains(exec, "SPOTS_SWARM_KEY") || strings.Contains(exec, "--key "):
				t.Error("the key is on the command line or in the environment")
			}
			for key, want := range map[string]string{
				"Restart": "on-failure", "RestartPreventExitStatus": "2", "SuccessExitStatus": "130",
				"DynamicUser": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "NoNewPrivileges": "yes",
				"PrivateTmp": "yes", "CapabilityBoundingSet": "",
			} {
				if got := u.Values("Service", key); len(got) == 0 || got[len(got)-1] != want {
					t.Errorf("%s=%v, want %q", key, got, want)
				}
			}
			if u.Value("Install", "WantedBy") == "" {
				t.Error("no WantedBy: enable would not start it at boot")
			}
			if !slices.Contains(u.Values("Unit", "After"), "network-online.target") {
				t.Error("not ordered after network-online.target")
			}
		})
	}
	if !strings.Contains(unit(t, "systemd/spots-worker@.service").Value("Service", "ExecStart"), "%i") {
		t.Error("the worker template does not use its instance name")
	}
}

func TestExpandExec(t *testing.T) {
	spec := map[byte]string{'d': "/run/credentials/x", 'i': "7411", 'S': "/var/lib"}
	env := map[string]string{"HOST": "10.0.0.1", "FLAGS": "--grouping 2  --capacity 10", "EMPTY": ""}
	tests := []struct {
		line    string
		want    []string
		wantErr bool
	}{
		{"/bin/x --a ${HOST}:7400 --k %d/key", []string{"/bin/x", "--a", "10.0.0.1:7400", "--k", "/run/credentials/x/key"}, false},
		{"x $FLAGS ${HOST}", []string{"x", "--grouping", "2", "--capacity", "10", "10.0.0.1"}, false},
		{"x $EMPTY $UNSET y", []string{"x", "y"}, false},
		{"x --g ${HOST}:%i --s %S/spots 100%%", []string{"x", "--g", "10.0.0.1:7411", "--s", "/var/lib/spots", "100%"}, false},
		{`x "a b" 'c d'`, []string{"x", "a b", "c d"}, false},
		{"x %q", nil, true},
		{`x "open`, nil, true},
	}
	for _, tt := range tests {
		got, err := ExpandExec(tt.line, spec, env)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("ExpandExec(%q) = %q, %v; want %q (error %v)", tt.line, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestParseUnitErrors(t *testing.T) {
	tests := []struct{ name, text, wantErr string }{
		{"outside a section", "A=b\n", "outside a section"},
		{"not key=value", "[Service]\nnonsense\n", "not Key=Value"},
	}
	for _, tt := range tests {
		if _, err := ParseUnit("u", []byte(tt.text)); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.wantErr)
		}
	}
	u, err := ParseUnit("u", []byte("[Service]\n# c\nExecStart=/bin/x \\\n  --a b\n"))
	if err != nil || u.Value("Service", "ExecStart") != "/bin/x  --a b" {
		t.Errorf("continued line: %q, %v", u.Value("Service", "ExecStart"), err)
	}
}

func TestEnvFile(t *testing.T) {
	data, err := File("systemd/spots.env")
	if err != nil {
		t.Fatal(err)
	}
	env, err := ParseEnvFile("spots.env", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"systemd/spots-master.service", "systemd/spots-worker@.service"} {
		exec := unit(t, u).Value("Service", "ExecStart")
		for _, w := range strings.Fields(exec) {
			for _, name := range envNames(w) {
				if _, ok := env[name]; !ok {
					t.Errorf("%s uses $%s, which spots.env does not set", u, name)
				}
			}
		}
	}
	if _, err := ParseEnvFile("bad", []byte("no equals\n")); err == nil {
		t.Error("a line without = was accepted")
	}
}

// envNames returns the names of the variables a word refers to.
func envNames(w string) []string {
	var out []string
	for {
		i := strings.IndexByte(w, '$')
		if i < 0 {
			return out
		}
		w = w[i+1:]
		w = strings.TrimPrefix(w, "{")
		j := strings.IndexFunc(w, func(r rune) bool { return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') })
		if j < 0 {
			j = len(w)
		}
		out = append(out, w[:j])
		w = w[j:]
	}
}
