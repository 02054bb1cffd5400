package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spots-dev/spots/deploy"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/swarm"
)

// The deployment tests start a master and two workers on 127.0.0.1 with the
// command lines and environment that deploy/ gives them (systemd units,
// Kubernetes manifests), read from those files. Only what differs on a test
// machine is substituted: the addresses (free loopback ports), the
// directories (temporary ones), the key (a test key, in the file the
// deployment reads it from) and the position (0*8, small).

// deployKey is the swarm key of the deployment tests.
const deployKey = "deploy-test-key-0123456789"

// deployPosition replaces the deployment's position; it is a loss.
const deployPosition = "0*8"

// addressFlags are the flags whose values are network addresses.
var addressFlags = []string{"listen", "gossip", "status-listen", "metrics-listen", "join"}

// flagValue returns the value of --name in args (as "--name v" or
// "--name=v") and whether it is there.
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
		if a == "--"+name && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// setFlag replaces the value of --name in args; it fails the test when the
// flag is not there.
func setFlag(t *testing.T, args []string, name, value string) []string {
	t.Helper()
	out := append([]string(nil), args...)
	for i, a := range out {
		if strings.HasPrefix(a, "--"+name+"=") {
			out[i] = "--" + name + "=" + value
			return out
		}
		if a == "--"+name && i+1 < len(out) {
			out[i+1] = value
			return out
		}
	}
	t.Fatalf("no --%s in %q", name, args)
	return nil
}

// localAddresses gives every address flag of args a free loopback address
// (join: the master's gossip address) and returns the args and the
// addresses chosen.
func localAddresses(t *testing.T, args []string, masterGossip string) ([]string, map[string]string) {
	t.Helper()
	addrs := map[string]string{}
	for _, name := range addressFlags {
		if _, ok := flagValue(args, name); !ok {
			continue
		}
		addr := freeAddr(t)
		if name == "join" {
			addr = masterGossip
		}
		args = setFlag(t, args, name, addr)
		addrs[name] = addr
	}
	return args, addrs
}

// deployed is a master's or a worker's command line and environment as a
// deployment file gives them, made local.
type deployed struct {
	args  []string
	env   []string // NAME=value
	addrs map[string]string
}

// runDeployed starts the master, checks its status page, starts two
// workers, and waits for the solve to end with every process's success.
func runDeployed(t *testing.T, master func() deployed, worker func(i int, gossip string) deployed) {
	m := master()
	for _, name := range []string{"listen", "gossip"} {
		if m.addrs[name] == "" {
			t.Fatalf("the master has no --%s: %q", name, m.args)
		}
	}
	t.Logf("master: %q %q", m.env, m.args)
	mp := cmdtest.Start(t, m.env, m.args...)
	if addr := m.addrs["status-listen"]; addr != "" {
		checkStatusPage(t, "http://"+addr+"/status.json", &mp.Stderr)
	}
	if addr := m.addrs["metrics-listen"]; addr != "" {
		checkMetrics(t, "http://"+addr, &mp.Stderr)
	}
	var ws []*cmdtest.Process
	for i := range 2 {
		w := worker(i, m.addrs["gossip"])
		if w.addrs["join"] == "" {
			t.Fatalf("the worker has no --join: %q", w.args)
		}
		if i == 0 {
			t.Logf("worker: %q %q", w.env, w.args)
		}
		ws = append(ws, cmdtest.Start(t, w.env, w.args...))
	}
	if status := mp.Wait(t, 2*time.Minute); status != 0 {
		t.Fatalf("master exit %d\nstderr: %s", status, mp.Stderr.String())
	}
	if want := deployPosition + "  L  "; !strings.HasPrefix(mp.Stdout.String(), want) {
		t.Errorf("master printed %q, want %q…", mp.Stdout.String(), want)
	}
	for i, w := range ws {
		if status := w.Wait(t, time.Minute); status != 0 {
			t.Errorf("worker %d exit %d\nstderr: %s", i, status, w.Stderr.String())
		}
	}
}

// checkStatusPage waits (a bounded time) for the master's loopback status
// JSON and checks that it names the position; stderr is the master's.
func checkStatusPage(t *testing.T, url string, stderr *cmdtest.Buffer) {
	t.Helper()
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := client.Get(url)
		if err == nil {
			var r swarm.StatusReport
			err = json.NewDecoder(resp.Body).Decode(&r)
			resp.Body.Close()
			if err == nil && resp.StatusCode == http.StatusOK && r.Position == deployPosition {
				return
			}
			t.Fatalf("GET %s: %s, %v, position %q", url, resp.Status, err, r.Position)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no status page at %s after a minute: %v\nmaster stderr: %s", url, err, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkMetrics waits (a bounded time) for the master's --metrics-listen at
// base and checks that it serves /metrics without a token, and nothing
// else; stderr is the master's.
func checkMetrics(t *testing.T, base string, stderr *cmdtest.Buffer) {
	t.Helper()
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := client.Get(base + "/metrics")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "spots_swarm_workers ") {
				t.Fatalf("GET %s/metrics without a token: %s\n%.300s", base, resp.Status, body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no metrics at %s after a minute: %v\nmaster stderr: %s", base, err, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, path := range []string{"/", "/status", "/status.json"} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s%s on --metrics-listen: %s, want 404 (metrics only)", base, path, resp.Status)
		}
	}
}

// TestDeploySystemd runs spots-master.service and two instances of
// spots-worker@.service: ExecStart expanded as systemd would with the
// variables of spots.env (its host addresses and position made local), the
// specifiers %d (the credentials directory, holding the credential named by
// LoadCredential=), %S (the state root) and %i (the instance: a free port).
func TestDeploySystemd(t *testing.T) {
	t.Parallel()
	envData, err := deploy.File("systemd/spots.env")
	if err != nil {
		t.Fatal(err)
	}
	fileEnv, err := deploy.ParseEnvFile("spots.env", envData)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]string{"SPOTS_HOST": "127.0.0.1", "SPOTS_MASTER_HOST": "127.0.0.1", "SPOTS_POSITION": deployPosition} {
		if _, ok := fileEnv[name]; !ok {
			t.Fatalf("spots.env does not set %s", name)
		}
		fileEnv[name] = v
	}
	state := t.TempDir()
	start := func(path, instance string) deployed {
		data, err := deploy.File(path)
		if err != nil {
			t.Fatal(err)
		}
		u, err := deploy.ParseUnit(path, data)
		if err != nil {
			t.Fatal(err)
		}
		env := map[string]string{}
		for k, v := range fileEnv {
			env[k] = v
		}
		for _, e := range u.Values("Service", "Environment") {
			for _, kv := range strings.Fields(e) {
				k, v, _ := strings.Cut(strings.Trim(kv, `"`), "=")
				env[k] = v
			}
		}
		creds := t.TempDir()
		for _, lc := range u.Values("Service", "LoadCredential") {
			name, _, _ := strings.Cut(lc, ":")
			if err := os.WriteFile(filepath.Join(creds, name), []byte(deployKey+"\n"), 0o400); err != nil {
				t.Fatal(err)
			}
		}
		env["CREDENTIALS_DIRECTORY"] = creds
		argv, err := deploy.ExpandExec(u.Value("Service", "ExecStart"), map[byte]string{'d': creds, 'S': state, 'i': instance}, env)
		if err != nil {
			t.Fatal(err)
		}
		if len(argv) < 2 || filepath.Base(argv[0]) != "spots-solve" {
			t.Fatalf("%s: ExecStart %q does not run spots-solve", path, argv)
		}
		var list []string
		for k, v := range env {
			list = append(list, k+"="+v)
		}
		return deployed{args: argv[1:], env: list}
	}
	runDeployed(t, func() deployed {
		d := start("systemd/spots-master.service", "")
		d.args, d.addrs = localAddresses(t, d.args, "")
		return d
	}, func(i int, gossip string) deployed {
		_, port, _ := net.SplitHostPort(freeAddr(t))
		d := start("systemd/spots-worker@.service", port)
		d.args, d.addrs = localAddresses(t, d.args, gossip)
		return d
	})
	if files, _ := filepath.Glob(filepath.Join(state, "spots", "certificates", "*.arrow")); len(files) != 1 {
		t.Errorf("%d certificates in the master's state directory, want 1", len(files))
	}
}

// TestDeployKubernetes runs the containers of the Deployments spots-master
// and spots-worker: their args expanded from their env as Kubernetes does
// (status.podIP is 127.0.0.1, SPOTS_POSITION the test's position), each
// volume mount a temporary directory (the key's Secret's holding the key
// that deploy.KeySecret names, with the test key).
func TestDeployKubernetes(t *testing.T) {
	t.Parallel()
	objs, err := deploy.Manifests()
	if err != nil {
		t.Fatal(err)
	}
	secretName, secretKey, err := deploy.KeySecret()
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[string][]string{secretName: {secretKey}}
	runDeployed(t, func() deployed {
		d := k8sContainer(t, objs, secrets, "spots-master")
		d.args, d.addrs = localAddresses(t, d.args, "")
		return d
	}, func(i int, gossip string) deployed {
		d := k8sContainer(t, objs, secrets, "spots-worker")
		d.args, d.addrs = localAddresses(t, d.args, gossip)
		return d
	})
}

// k8sContainer returns the command line and environment of the one
// container of the Deployment name, as Kubernetes would run it here; the
// Secrets it mounts hold the test key under each of their keys (secrets:
// by Secret name).
func k8sContainer(t *testing.T, objs []deploy.Object, secrets map[string][]string, name string) deployed {
	t.Helper()
	o, ok := deploy.Find(objs, "Deployment", name)
	if !ok {
		t.Fatalf("no Deployment %s", name)
	}
	spec := o.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("%s: %d containers, want 1", name, len(spec.Containers))
	}
	c := spec.Containers[0]
	if len(c.Command) > 0 {
		t.Fatalf("%s: command %q replaces the image's entrypoint (spots-solve)", name, c.Command)
	}
	env := k8sEnv(t, name, c.Env)
	args := deploy.ExpandArgs(c.Args, env)
	for _, m := range c.VolumeMounts {
		dir := t.TempDir()
		for _, v := range spec.Volumes {
			if v.Name == m.Name && v.Secret != nil {
				writeSecret(t, dir, name, v.Secret.SecretName, secrets)
			}
		}
		for i := range args {
			args[i] = strings.ReplaceAll(args[i], m.MountPath, dir)
		}
	}
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	return deployed{args: args, env: list}
}

// k8sEnv returns the environment of the container of the Deployment name:
// status.podIP is 127.0.0.1, and the master's SPOTS_POSITION the test's.
func k8sEnv(t *testing.T, name string, vars []deploy.EnvVar) map[string]string {
	t.Helper()
	env := map[string]string{}
	for _, e := range vars {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "status.podIP":
			env[e.Name] = "127.0.0.1"
		default:
			t.Fatalf("%s: env %s: a source the test does not know", name, e.Name)
		}
	}
	if name == "spots-master" {
		if _, ok := env["SPOTS_POSITION"]; !ok {
			t.Fatalf("%s: the position is not in SPOTS_POSITION", name)
		}
		env["SPOTS_POSITION"] = deployPosition
	}
	return env
}

// writeSecret writes the test key into dir under each key of the Secret
// secret (of secrets) that the Deployment name mounts there.
func writeSecret(t *testing.T, dir, name, secret string, secrets map[string][]string) {
	t.Helper()
	keys, ok := secrets[secret]
	if !ok {
		t.Fatalf("%s: no Secret %s", name, secret)
	}
	for _, k := range keys {
		if err := os.WriteFile(filepath.Join(dir, k), []byte(deployKey), 0o440); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKeyFile: --key-file reads the first line of a file and wins over
// the environment; a missing or empty file is an error. (usage.txtar shows
// that --key and --key-file exclude each other.)
func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	good, empty := filepath.Join(dir, "key"), filepath.Join(dir, "empty")
	os.WriteFile(good, []byte("  a long shared secret \nsecond line\n"), 0o600)
	os.WriteFile(empty, []byte("\n"), 0o600)
	tests := []struct {
		name    string
		sf      swarmFlags
		env     string
		want    string
		wantErr string
	}{
		{"file", swarmFlags{keyFile: good}, "", "a long shared secret", ""},
		{"file beats the environment", swarmFlags{keyFile: good}, "from the environment", "a long shared secret", ""},
		{"flag", swarmFlags{key: "the flag's key"}, "", "the flag's key", ""},
		{"environment", swarmFlags{}, "from the environment", "from the environment", ""},
		{"missing file", swarmFlags{keyFile: filepath.Join(dir, "none")}, "", "", "--key-file"},
		{"empty file", swarmFlags{keyFile: empty}, "", "", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SPOTS_SWARM_KEY", tt.env)
			got, err := tt.sf.keyText()
			if got != tt.want || (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("keyText() = %q, %v; want %q, error with %q", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestStatusListenMustBeLoopback: the unauthenticated status listener is
// refused on any other address.
func TestStatusListenMustBeLoopback(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:7402", true}, {"localhost:7402", true}, {"[::1]:7402", true}, {"", true},
		{"0.0.0.0:7402", false}, {":7402", false}, {"10.0.0.1:7402", false}, {"example.com:7402", false}, {"127.0.0.1", false},
	}
	for _, tt := range tests {
		if err := checkStatusListen(tt.addr); (err == nil) != tt.ok {
			t.Errorf("checkStatusListen(%q) = %v, want ok %v", tt.addr, err, tt.ok)
		}
	}
}
