package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Object is one Kubernetes object of a manifest, with the fields the
// swarm's manifests use (others are ignored).
type Object struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   metadata   `yaml:"metadata"`
	Spec       objectSpec `yaml:"spec"`
	// Kustomization's fields.
	Resources       []string          `yaml:"resources"`
	SecretGenerator []secretGenerator `yaml:"secretGenerator"`
	// File is the manifest the object came from.
	File string `yaml:"-"`
}

// metadata is an object's metadata.
type metadata struct {
	Name        string            `yaml:"name"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

// objectSpec is the spec of a Deployment, StatefulSet, Service or
// PersistentVolumeClaim (each uses its own fields).
type objectSpec struct {
	Replicas    *int          `yaml:"replicas"`
	Selector    yaml.Node     `yaml:"selector"` // a LabelSelector (workloads) or a map (Services)
	Template    podTemplate   `yaml:"template"`
	ServiceName string        `yaml:"serviceName"`
	ClusterIP   string        `yaml:"clusterIP"`
	Ports       []servicePort `yaml:"ports"`
	// PublishNotReadyAddresses lets a headless Service resolve to pods
	// before they are ready.
	PublishNotReadyAddresses bool `yaml:"publishNotReadyAddresses"`
	Strategy                 struct {
		Type string `yaml:"type"`
	} `yaml:"strategy"`
	AccessModes []string `yaml:"accessModes"`
}

// workloadSelector returns the matchLabels of a workload's selector.
func (s objectSpec) workloadSelector() (map[string]string, error) {
	var sel struct {
		MatchLabels map[string]string `yaml:"matchLabels"`
	}
	if s.Selector.Kind == 0 {
		return nil, nil
	}
	if err := s.Selector.Decode(&sel); err != nil {
		return nil, fmt.Errorf("selector: %w", err)
	}
	return sel.MatchLabels, nil
}

// serviceSelector returns a Service's selector.
func (s objectSpec) serviceSelector() (map[string]string, error) {
	var sel map[string]string
	if s.Selector.Kind == 0 {
		return nil, nil
	}
	if err := s.Selector.Decode(&sel); err != nil {
		return nil, fmt.Errorf("selector: %w", err)
	}
	return sel, nil
}

// servicePort is a port of a Service.
type servicePort struct {
	Name       string `yaml:"name"`
	Port       int    `yaml:"port"`
	TargetPort string `yaml:"targetPort"` // a number or a container port's name
	Protocol   string `yaml:"protocol"`
}

// podTemplate is a workload's pod template.
type podTemplate struct {
	Metadata metadata `yaml:"metadata"`
	Spec     podSpec  `yaml:"spec"`
}

// podSpec is the part of a pod's spec the manifests use.
type podSpec struct {
	Containers []container `yaml:"containers"`
	Volumes    []volume    `yaml:"volumes"`
	Affinity   yaml.Node   `yaml:"affinity"`
	// Tolerations are kept as their keys.
	Tolerations []struct {
		Key string `yaml:"key"`
	} `yaml:"tolerations"`
	TerminationGracePeriodSeconds *int `yaml:"terminationGracePeriodSeconds"`
}

// container is a container of a pod.
type container struct {
	Name      string          `yaml:"name"`
	Image     string          `yaml:"image"`
	Command   []string        `yaml:"command"`
	Args      []string        `yaml:"args"`
	Env       []EnvVar        `yaml:"env"`
	Ports     []containerPort `yaml:"ports"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []volumeMount `yaml:"volumeMounts"`
}

// containerPort is a port of a container.
type containerPort struct {
	Name          string `yaml:"name"`
	ContainerPort int    `yaml:"containerPort"`
	Protocol      string `yaml:"protocol"`
}

// EnvVar is an environment variable of a container: a value, or a field
// of the pod (FieldPath, e.g. status.podIP).
type EnvVar struct {
	Name      string `yaml:"name"`
	Value     string `yaml:"value"`
	ValueFrom *struct {
		FieldRef *struct {
			FieldPath string `yaml:"fieldPath"`
		} `yaml:"fieldRef"`
		SecretKeyRef *struct {
			Name string `yaml:"name"`
			Key  string `yaml:"key"`
		} `yaml:"secretKeyRef"`
	} `yaml:"valueFrom"`
}

// volumeMount mounts a volume of the pod in a container.
type volumeMount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly"`
}

// volume is a volume of a pod: a Secret's keys as files, or a claim.
type volume struct {
	Name   string `yaml:"name"`
	Secret *struct {
		SecretName  string `yaml:"secretName"`
		DefaultMode *int   `yaml:"defaultMode"`
	} `yaml:"secret"`
	PersistentVolumeClaim *struct {
		ClaimName string `yaml:"claimName"`
	} `yaml:"persistentVolumeClaim"`
	EmptyDir *struct{} `yaml:"emptyDir"`
}

// secretGenerator is a Secret a Kustomization makes from files.
type secretGenerator struct {
	Name  string   `yaml:"name"`
	Files []string `yaml:"files"` // KEY=PATH or PATH (the key is the file's name)
}

// keys returns the keys of the generated Secret.
func (g secretGenerator) keys() []string {
	var keys []string
	for _, f := range g.Files {
		key, _, ok := strings.Cut(f, "=")
		if !ok {
			key = f[strings.LastIndexByte(f, '/')+1:]
		}
		keys = append(keys, key)
	}
	return keys
}

// KeySecret returns the Secret that holds the swarm's key, as the command
// that k8s/kustomization.yaml gives for it makes it (kubectl create secret
// generic NAME --from-file=KEY=FILE): its name and its one key. The key is
// not in the kustomization, so that kubectl kustomize renders the
// manifests without it.
func KeySecret() (name, key string, err error) {
	data, err := files.ReadFile("k8s/kustomization.yaml")
	if err != nil {
		return "", "", err
	}
	name, key, ok := secretCommand(string(data))
	if !ok {
		return "", "", errors.New("k8s/kustomization.yaml: no kubectl create secret generic NAME --from-file=KEY=FILE")
	}
	return name, key, nil
}

// secretCommand finds in text the first command "kubectl create secret
// generic NAME --from-file=KEY=FILE" (or --from-file=FILE, whose key is
// the file's name) and returns NAME and KEY.
func secretCommand(text string) (name, key string, ok bool) {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		i := slices.Index(f, "kubectl")
		if i < 0 || len(f) < i+5 || f[i+1] != "create" || f[i+2] != "secret" || f[i+3] != "generic" {
			continue
		}
		name = f[i+4]
		for _, a := range f[i+5:] {
			if v, found := strings.CutPrefix(a, "--from-file="); found {
				return name, secretGenerator{Files: []string{v}}.keys()[0], true
			}
		}
	}
	return "", "", false
}

// parseManifest reads the objects of a YAML manifest (documents separated
// by ---; empty ones are skipped). file names it in errors.
func parseManifest(file string, data []byte) ([]Object, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []Object
	for i := 1; ; i++ {
		var node yaml.Node
		err := dec.Decode(&node)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", file, i, err)
		}
		if len(node.Content) == 0 {
			continue
		}
		var o Object
		if err := node.Decode(&o); err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", file, i, err)
		}
		o.File = file
		out = append(out, o)
	}
}

// Manifests reads every k8s/*.yaml file of the embedded files.
func Manifests() ([]Object, error) {
	entries, err := files.ReadDir("k8s")
	if err != nil {
		return nil, err
	}
	var out []Object
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		path := "k8s/" + e.Name()
		data, err := files.ReadFile(path)
		if err != nil {
			return nil, err
		}
		objs, err := parseManifest(path, data)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

// Find returns the object of the given kind and name.
func Find(objs []Object, kind, name string) (Object, bool) {
	for _, o := range objs {
		if o.Kind == kind && o.Metadata.Name == name {
			return o, true
		}
	}
	return Object{}, false
}

var kubeVar = regexp.MustCompile(`\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// ExpandArgs expands $(NAME) in a container's args from env as Kubernetes
// does: $$ is $, and a reference to a variable env does not have is kept
// as written.
func ExpandArgs(args []string, env map[string]string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = kubeVar.ReplaceAllStringFunc(a, func(m string) string {
			if m == "$$" {
				return "$"
			}
			if v, ok := env[m[2:len(m)-1]]; ok {
				return v
			}
			return m
		})
	}
	return out
}
