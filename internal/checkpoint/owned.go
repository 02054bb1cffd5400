package checkpoint

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteOwned writes the file path of a directory the commands own (a
// checkpoint's, a swarm master's saved state) with the bytes write
// produces, through a temporary file beside it that is renamed over
// whatever is at path once complete. A link planted at path is replaced,
// never followed: the file it led to is left as it was. (The outputs a
// user names go through format.WriteFileAtomic instead, which follows a
// link to a regular file: there the link is the user's.) The temporary
// file is named as format's, so that format.RemoveStaleTemps removes one
// a killed writer left.
func WriteOwned(path string, write func(io.Writer) error) (err error) {
	dir, name := filepath.Dir(path), filepath.Base(path)
	f, err := os.CreateTemp(dir, "."+name+".spots-tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
