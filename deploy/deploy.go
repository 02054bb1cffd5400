// Package deploy holds the files that deploy a spots swarm (systemd units,
// a Dockerfile, Kubernetes manifests, a Slurm batch script; see README.md)
// and reads them, so that tests start master and workers with exactly the
// flags and environment the files give, and check the manifests' shape
// offline.
package deploy

import "embed"

// files are the deployment files, by their paths under deploy/:
// systemd/*.service, systemd/spots.env, k8s/*.yaml, slurm/*.sbatch,
// Dockerfile, and README.md, which documents them.
//
//go:embed systemd/*.service systemd/spots.env k8s/*.yaml slurm/*.sbatch Dockerfile README.md
var files embed.FS

// File returns the content of the deployment file at path (e.g.
// "systemd/spots-master.service").
func File(path string) ([]byte, error) {
	return files.ReadFile(path)
}
