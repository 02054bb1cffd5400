package deploy

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The Kubernetes kinds the manifests may hold, with their apiVersions.
var apiVersions = map[string]string{
	"Deployment":            "apps/v1",
	"StatefulSet":           "apps/v1",
	"Service":               "v1",
	"PersistentVolumeClaim": "v1",
	"Secret":                "v1",
	"Kustomization":         "kustomize.config.k8s.io/v1beta1",
}

func manifests(t *testing.T) []Object {
	t.Helper()
	objs, err := Manifests()
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) == 0 {
		t.Fatal("no manifest in deploy/k8s")
	}
	return objs
}

func isWorkload(o Object) bool { return o.Kind == "Deployment" || o.Kind == "StatefulSet" }

// subset reports whether every label of sel is in labels.
func subset(sel, labels map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return len(sel) > 0
}

// TestManifestKinds: every object has a known kind with its apiVersion and
// a name; the kustomization lists every other manifest file.
func TestManifestKinds(t *testing.T) {
	objs := manifests(t)
	files := map[string]bool{}
	var kust *Object
	for i, o := range objs {
		want, ok := apiVersions[o.Kind]
		switch {
		case !ok:
			t.Errorf("%s: kind %q is not one the swarm uses", o.File, o.Kind)
		case o.APIVersion != want:
			t.Errorf("%s: %s has apiVersion %q, want %q", o.File, o.Kind, o.APIVersion, want)
		case o.Kind == "Kustomization":
			kust = &objs[i]
		case o.Metadata.Name == "":
			t.Errorf("%s: a %s without a name", o.File, o.Kind)
		default:
			files[strings.TrimPrefix(o.File, "k8s/")] = true
		}
	}
	if kust == nil {
		t.Fatal("no kustomization.yaml")
	}
	for f := range files {
		if !slices.Contains(kust.Resources, f) {
			t.Errorf("kustomization.yaml does not list %s", f)
		}
	}
	for _, r := range kust.Resources {
		if !files[r] {
			t.Errorf("kustomization.yaml lists %s, which holds no object", r)
		}
	}
	for _, name := range []string{"spots-master", "spots-worker"} {
		if o, ok := Find(objs, "Deployment", name); !ok && !func() bool { _, ok := Find(objs, "StatefulSet", name); return ok }() {
			t.Errorf("no Deployment or StatefulSet %s", name)
		} else if name == "spots-master" && (o.Spec.Replicas == nil || *o.Spec.Replicas != 1 || o.Spec.Strategy.Type != "Recreate") {
			t.Errorf("the master must be one pod, replaced by Recreate (never two at once)")
		}
	}
}

// TestManifestWiring: selectors match their pods' labels, Services select
// pods and target ports those pods' containers have, the gossip Service is
// headless, every container sets requests (and a memory limit), and every
// Secret and claim a pod mounts is made by the manifests.
func TestManifestWiring(t *testing.T) {
	objs := manifests(t)
	secrets, claims := map[string][]string{}, map[string]bool{}
	name, key, err := KeySecret()
	if err != nil {
		t.Fatal(err)
	}
	secrets[name] = []string{key}
	for _, o := range objs {
		switch o.Kind {
		case "Kustomization":
			for _, g := range o.SecretGenerator {
				secrets[g.Name] = g.keys()
			}
		case "PersistentVolumeClaim":
			claims[o.Metadata.Name] = true
		}
	}
	var pods []Object
	for _, o := range objs {
		if !isWorkload(o) {
			continue
		}
		pods = append(pods, o)
		sel, err := o.Spec.workloadSelector()
		if err != nil || !subset(sel, o.Spec.Template.Metadata.Labels) {
			t.Errorf("%s %s: selector %v does not match its pods' labels %v (%v)", o.Kind, o.Metadata.Name, sel, o.Spec.Template.Metadata.Labels, err)
		}
		checkPods(t, o, secrets, claims)
	}
	checkServices(t, objs, pods)
	checkWorkersJoin(t, objs)
}

// checkPods checks the pods of workload o: every container sets requests,
// a memory limit and an image and takes the key from a file, and every
// volume is mounted and made by the manifests (secrets, claims).
func checkPods(t *testing.T, o Object, secrets map[string][]string, claims map[string]bool) {
	t.Helper()
	mounted := map[string]bool{}
	for _, c := range o.Spec.Template.Spec.Containers {
		for _, r := range []string{"cpu", "memory"} {
			if c.Resources.Requests[r] == "" {
				t.Errorf("%s/%s: no %s request", o.Metadata.Name, c.Name, r)
			}
		}
		if c.Resources.Limits["memory"] == "" {
			t.Errorf("%s/%s: no memory limit", o.Metadata.Name, c.Name)
		}
		if c.Image == "" {
			t.Errorf("%s/%s: no image", o.Metadata.Name, c.Name)
		}
		for _, m := range c.VolumeMounts {
			mounted[m.Name] = true
		}
		if !slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, "--key-file=") }) {
			t.Errorf("%s/%s: the key does not come from a file (--key-file=)", o.Metadata.Name, c.Name)
		}
	}
	for _, v := range o.Spec.Template.Spec.Volumes {
		if !mounted[v.Name] {
			t.Errorf("%s: volume %s is not mounted", o.Metadata.Name, v.Name)
		}
		switch {
		case v.Secret != nil:
			if _, ok := secrets[v.Secret.SecretName]; !ok {
				t.Errorf("%s: volume %s: no Secret %q is made by k8s/kustomization.yaml or its kubectl create secret", o.Metadata.Name, v.Name, v.Secret.SecretName)
			}
			if m := v.Secret.DefaultMode; m == nil || *m&0o007 != 0 {
				t.Errorf("%s: the key's files are readable by others (defaultMode %v)", o.Metadata.Name, m)
			}
		case v.PersistentVolumeClaim != nil:
			if !claims[v.PersistentVolumeClaim.ClaimName] {
				t.Errorf("%s: volume %s: no claim %q", o.Metadata.Name, v.Name, v.PersistentVolumeClaim.ClaimName)
			}
		}
	}
}

// checkServices checks that each Service selects some of pods and targets
// ports their containers have, and that the gossip's is headless.
func checkServices(t *testing.T, objs, pods []Object) {
	t.Helper()
	headless := 0
	for _, svc := range objs {
		if svc.Kind != "Service" {
			continue
		}
		sel, err := svc.Spec.serviceSelector()
		if err != nil {
			t.Errorf("Service %s: %v", svc.Metadata.Name, err)
		}
		var targets []Object
		for _, p := range pods {
			if subset(sel, p.Spec.Template.Metadata.Labels) {
				targets = append(targets, p)
			}
		}
		if len(targets) == 0 {
			t.Errorf("Service %s: selector %v selects no pod", svc.Metadata.Name, sel)
		}
		for _, sp := range svc.Spec.Ports {
			for _, p := range targets {
				if !servesPort(p, sp) {
					t.Errorf("Service %s: port %s (%d → %s/%s) is not a port of %s's containers", svc.Metadata.Name, sp.Name, sp.Port, sp.TargetPort, sp.Protocol, p.Metadata.Name)
				}
			}
		}
		if svc.Spec.ClusterIP == "None" {
			headless++
			if !svc.Spec.PublishNotReadyAddresses {
				t.Errorf("headless Service %s: workers started first cannot resolve it until the master is ready (publishNotReadyAddresses)", svc.Metadata.Name)
			}
		}
	}
	if headless == 0 {
		t.Error("no headless Service (clusterIP: None) for the gossip")
	}
}

// checkWorkersJoin checks that the workers join the gossip through the
// headless Service.
func checkWorkersJoin(t *testing.T, objs []Object) {
	t.Helper()
	// The workers join the gossip through the headless Service.
	w, _ := Find(objs, "Deployment", "spots-worker")
	joins := false
	for _, c := range w.Spec.Template.Spec.Containers {
		for _, a := range c.Args {
			if host, ok := strings.CutPrefix(a, "--join="); ok {
				name, port, _ := strings.Cut(host, ":")
				svc, ok := Find(objs, "Service", name)
				joins = ok && svc.Spec.ClusterIP == "None" && slices.ContainsFunc(svc.Spec.Ports, func(p servicePort) bool { return strconv.Itoa(p.Port) == port })
			}
		}
	}
	if !joins {
		t.Error("the workers do not --join= a port of a headless Service")
	}
}

// servesPort reports whether a container of the workload has the port a
// Service port targets (by name or number, same protocol).
func servesPort(o Object, sp servicePort) bool {
	proto := sp.Protocol
	if proto == "" {
		proto = "TCP"
	}
	target := sp.TargetPort
	if target == "" {
		target = strconv.Itoa(sp.Port)
	}
	for _, c := range o.Spec.Template.Spec.Containers {
		for _, cp := range c.Ports {
			p := cp.Protocol
			if p == "" {
				p = "TCP"
			}
			if p == proto && (cp.Name == target || strconv.Itoa(cp.ContainerPort) == target) && (cp.ContainerPort == sp.Port || cp.Name == target) {
				return true
			}
		}
	}
	return false
}

// TestManifestPreemptibleNodes: the master avoids spot nodes and is not
// evicted by the autoscaler; the workers tolerate spot nodes.
func TestManifestPreemptibleNodes(t *testing.T) {
	objs := manifests(t)
	m, _ := Find(objs, "Deployment", "spots-master")
	if m.Spec.Template.Spec.Affinity.Kind == 0 || !strings.Contains(nodeText(m), "NotIn") {
		t.Error("the master's pods may land on spot nodes (no NotIn node affinity)")
	}
	if m.Spec.Template.Metadata.Annotations["cluster-autoscaler.kubernetes.io/safe-to-evict"] != "false" {
		t.Error("the autoscaler may evict the master")
	}
	w, _ := Find(objs, "Deployment", "spots-worker")
	if len(w.Spec.Template.Spec.Tolerations) == 0 {
		t.Error("the workers tolerate no spot taint")
	}
}

// nodeText is the pod affinity of a workload, as YAML.
func nodeText(o Object) string {
	out, err := yaml.Marshal(&o.Spec.Template.Spec.Affinity)
	if err != nil {
		return ""
	}
	return string(out)
}

// TestDockerfile: a build stage on a golang image without cgo, and a
// runtime stage from another image whose entrypoint is spots-solve.
func TestDockerfile(t *testing.T) {
	data, err := File("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var froms []string
	cgoOff, entry := false, ""
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch strings.ToUpper(f[0]) {
		case "FROM":
			froms = append(froms, f[1])
		case "ENV", "ARG", "RUN":
			if strings.Contains(line, "CGO_ENABLED=0") {
				cgoOff = true
			}
		case "ENTRYPOINT":
			entry = strings.Join(f[1:], " ")
		}
	}
	if len(froms) < 2 || !strings.HasPrefix(froms[0], "golang:") || strings.HasPrefix(froms[len(froms)-1], "golang:") {
		t.Errorf("stages %v: want a golang build stage and a small runtime stage", froms)
	}
	if !cgoOff {
		t.Error("the build does not turn cgo off")
	}
	if !strings.Contains(entry, "spots-solve") {
		t.Errorf("entrypoint %q is not spots-solve", entry)
	}
}

// TestKustomizationNeedsNoKey: every file the kustomization reads is
// committed (kubectl kustomize renders the manifests on a fresh clone, with
// no key: the old secretGenerator failed there with "evalsymlink failure"),
// and the key's Secret is made by the command the kustomization and
// README.md give, the same in both; the pods mount that Secret where their
// --key-file reads it.
func TestKustomizationNeedsNoKey(t *testing.T) {
	objs := manifests(t)
	kust, ok := Find(objs, "Kustomization", "")
	if !ok {
		t.Fatal("no Kustomization")
	}
	var files []string
	files = append(files, kust.Resources...)
	for _, g := range kust.SecretGenerator {
		for _, f := range g.Files {
			_, path, found := strings.Cut(f, "=")
			if !found {
				path = f
			}
			files = append(files, path)
		}
	}
	for _, f := range files {
		if _, err := File("k8s/" + f); err != nil {
			t.Errorf("kustomization.yaml reads %s, which is not committed: kubectl kustomize fails without it", f)
		}
	}
	name, key, err := KeySecret()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := File("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n, k, ok := secretCommand(string(readme)); !ok || n != name || k != key {
		t.Errorf("README.md makes the Secret %q with key %q (found: %v), kustomization.yaml %q with %q", n, k, ok, name, key)
	}
	for _, o := range objs {
		if !isWorkload(o) {
			continue
		}
		mounts := map[string]string{} // volume → mount path
		for _, c := range o.Spec.Template.Spec.Containers {
			for _, m := range c.VolumeMounts {
				mounts[m.Name] = m.MountPath
			}
		}
		var want string
		for _, v := range o.Spec.Template.Spec.Volumes {
			if v.Secret != nil && v.Secret.SecretName == name {
				want = "--key-file=" + mounts[v.Name] + "/" + key
			}
		}
		if want == "" {
			t.Errorf("%s does not mount the Secret %s", o.Metadata.Name, name)
			continue
		}
		for _, c := range o.Spec.Template.Spec.Containers {
			if !slices.Contains(c.Args, want) {
				t.Errorf("%s/%s: no %s", o.Metadata.Name, c.Name, want)
			}
		}
	}
}

func TestSecretCommand(t *testing.T) {
	for _, tc := range []struct {
		text, name, key string
		ok              bool
	}{
		{"#   kubectl create secret generic spots-swarm-key --from-file=swarm-key=swarm.key\n", "spots-swarm-key", "swarm-key", true},
		{"$ kubectl create secret generic k --from-file=dir/swarm.key", "k", "swarm.key", true},
		{"kubectl create secret tls k --cert=c", "", "", false},
		{"kubectl create secret generic k --from-literal=a=b", "", "", false},
		{"nothing", "", "", false},
	} {
		name, key, ok := secretCommand(tc.text)
		if name != tc.name || key != tc.key || ok != tc.ok {
			t.Errorf("SecretCommand(%q) = %q, %q, %v; want %q, %q, %v", tc.text, name, key, ok, tc.name, tc.key, tc.ok)
		}
	}
}

// TestManifestMetrics: the Service that carries prometheus.io annotations
// points at a port where the master serves /metrics without the status
// token (--metrics-listen on the pod's address), not at the job port, whose
// /metrics answers 401 without it, nor at the loopback status page, which
// nothing outside the pod reaches.
func TestManifestMetrics(t *testing.T) {
	objs := manifests(t)
	scraped := 0
	for _, svc := range objs {
		a := svc.Metadata.Annotations
		if svc.Kind != "Service" || a["prometheus.io/scrape"] != "true" {
			continue
		}
		scraped++
		if a["prometheus.io/path"] != "/metrics" {
			t.Errorf("Service %s: prometheus.io/path %q, want /metrics", svc.Metadata.Name, a["prometheus.io/path"])
		}
		var sp *servicePort
		for i, p := range svc.Spec.Ports {
			if strconv.Itoa(p.Port) == a["prometheus.io/port"] {
				sp = &svc.Spec.Ports[i]
			}
		}
		if sp == nil {
			t.Errorf("Service %s: prometheus.io/port %q is none of its ports", svc.Metadata.Name, a["prometheus.io/port"])
			continue
		}
		sel, _ := svc.Spec.serviceSelector()
		for _, o := range objs {
			if !isWorkload(o) || !subset(sel, o.Spec.Template.Metadata.Labels) {
				continue
			}
			for _, c := range o.Spec.Template.Spec.Containers {
				for _, cp := range c.Ports {
					if cp.Name != sp.TargetPort && strconv.Itoa(cp.ContainerPort) != sp.TargetPort {
						continue
					}
					port := ":" + strconv.Itoa(cp.ContainerPort)
					if !slices.ContainsFunc(c.Args, func(arg string) bool {
						v, ok := strings.CutPrefix(arg, "--metrics-listen=")
						return ok && strings.HasSuffix(v, port) && !strings.HasPrefix(v, "127.")
					}) {
						t.Errorf("Service %s scrapes %s/%s port %s (%d), where no --metrics-listen on the pod's address serves /metrics without a token: %q",
							svc.Metadata.Name, o.Metadata.Name, c.Name, cp.Name, cp.ContainerPort, c.Args)
					}
				}
			}
		}
	}
	if scraped == 0 {
		t.Error("no Service carries prometheus.io/scrape: \"true\"")
	}
}
