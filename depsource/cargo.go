package depsource

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/internal/contain"
)

// RootCargoHome is the Cargo home directory ($CARGO_HOME, else ~/.cargo)
// a record's path is relative to.
const RootCargoHome = "CARGO_HOME"

// cargoHome returns Cargo's home directory.
func (p *Provider) cargoHome() (string, error) {
	if p.opts.CargoHome != "" {
		return filepath.Abs(p.opts.CargoHome)
	}
	if v := os.Getenv("CARGO_HOME"); v != "" && filepath.IsAbs(v) {
		return v, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no Cargo home: CARGO_HOME and the home directory are unset")
	}
	return filepath.Join(home, ".cargo"), nil
}

// cargoCopy finds crate d's source in Cargo's registry at the version
// Cargo.lock resolves (registry/src/INDEX/NAME-VERSION, the directory
// Cargo unpacks a checksum-verified .crate into), and checks its
// Cargo.toml's version.
func (p *Provider) cargoCopy(d depdocs.Dependency) (Copy, *Problem) {
	prob := &Problem{Ecosystem: depdocs.Cargo, Name: d.Name, Version: d.Resolved}
	switch {
	case d.Source.Local():
		prob.Reason = "a " + string(d.Source) + " dependency, not a published crate"
		return Copy{}, prob
	case d.Resolved == "" || strings.ContainsAny(d.Resolved, "/\\") || strings.ContainsAny(d.Name, "/\\"):
		prob.Reason = "no version is resolved for it (Cargo.lock)"
		return Copy{}, prob
	}
	home, err := p.cargoHome()
	if err != nil {
		prob.Reason = err.Error()
		return Copy{}, prob
	}
	root, err := contain.Open(home)
	if err != nil {
		prob.Reason = "no Cargo home at " + home
		prob.Guidance = "cargo fetch"
		return Copy{}, prob
	}
	defer root.Close()
	indexes, _ := fs.ReadDir(root.FS(), "registry/src")
	for _, ix := range indexes {
		dir := path.Join("registry/src", ix.Name(), d.Name+"-"+d.Resolved)
		fi, err := root.Stat(dir)
		if !ix.IsDir() || err != nil || !fi.IsDir() {
			continue
		}
		data, err := readBounded(root, path.Join(dir, "Cargo.toml"), maxManifest)
		if err != nil {
			prob.Reason = "cannot read " + dir + "/Cargo.toml: " + err.Error()
			return Copy{}, prob
		}
		if v := cargoPackageVersion(data); v != "" && v != d.Resolved {
			prob.Reason = fmt.Sprintf("%s/Cargo.toml says version %s, Cargo.lock resolves %s", dir, v, d.Resolved)
			return Copy{}, prob
		}
		abs, err := root.Abs(dir)
		if err != nil {
			prob.Reason = dir + ": " + err.Error()
			return Copy{}, prob
		}
		return Copy{Ecosystem: depdocs.Cargo, Name: d.Name, Version: d.Resolved, Root: RootCargoHome, Dir: dir,
			Checked: d.File, abs: abs}, nil
	}
	prob.Reason = "not in Cargo's registry sources (" + filepath.Join(home, "registry", "src") + ")"
	prob.Guidance = "cargo fetch"
	return Copy{}, prob
}

// cargoPackageVersion reads the version of a Cargo.toml's [package]
// table, written as a string on its own line; "" when it is not (a
// workspace-inherited version, or none).
func cargoPackageVersion(data []byte) string {
	inPackage := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			inPackage = line == "[package]"
			continue
		}
		if !inPackage {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != "version" {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && !strings.ContainsAny(v[1:len(v)-1], "\"\\ ") {
			return v[1 : len(v)-1]
		}
		return ""
	}
	return ""
}
