package depsource

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"unicode"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/internal/contain"
)

// venvDirs are the project's directories a virtual environment is looked
// for in, besides $VIRTUAL_ENV when it is inside the project.
var venvDirs = []string{".venv", "venv", "env", ".env"}

// maxSitePackagesEntries bounds the entries of a site-packages directory
// read.
const maxSitePackagesEntries = 20000

// pep503 is a distribution's normalised name: lower case, runs of "-", "_"
// and "." one "-".
func pep503(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r == '-' || r == '_' || r == '.' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}

// sitePackages returns the project's site-packages directories, relative to
// the project, that resolve inside it.
func sitePackages(root *contain.Root) []string {
	dirs := append([]string{}, venvDirs...)
	if v := os.Getenv("VIRTUAL_ENV"); v != "" {
		if rel, err := root.Rel(v); err == nil && rel != "." {
			dirs = append([]string{rel}, dirs...)
		}
	}
	var out []string
	for _, v := range dirs {
		if root.Check(v) != nil {
			continue
		}
		if fi, err := root.Stat(path.Join(v, "Lib", "site-packages")); err == nil && fi.IsDir() {
			out = append(out, path.Join(v, "Lib", "site-packages"))
		}
		ents, err := fs.ReadDir(root.FS(), path.Join(v, "lib"))
		if err != nil {
			continue
		}
		for _, e := range ents {
			sp := path.Join(v, "lib", e.Name(), "site-packages")
			if strings.HasPrefix(e.Name(), "python") && root.Check(sp) == nil {
				if fi, err := root.Stat(sp); err == nil && fi.IsDir() {
					out = append(out, sp)
				}
			}
		}
	}
	return out
}

// A distInfo is one installed distribution of a site-packages directory.
type distInfo struct {
	dir     string   // the .dist-info directory, project-relative
	name    string   // as METADATA gives it
	version string   // as METADATA gives it
	modules []string // the top-level import names
}

// findDist returns the installed distribution named name (PEP 503) in the
// project's site-packages, or an error saying why there is none.
func findDist(root *contain.Root, name string) (*distInfo, string, error) {
	sps := sitePackages(root)
	if len(sps) == 0 {
		return nil, "", errors.New("no virtual environment in the project (.venv, venv, env, or $VIRTUAL_ENV inside it)")
	}
	want := pep503(name)
	for _, sp := range sps {
		ents, err := fs.ReadDir(root.FS(), sp)
		if err != nil {
			continue
		}
		if len(ents) > maxSitePackagesEntries {
			ents = ents[:maxSitePackagesEntries]
		}
		for _, e := range ents {
			stem, ok := strings.CutSuffix(e.Name(), ".dist-info")
			if !ok || !e.IsDir() {
				continue
			}
			dn, _, _ := strings.Cut(stem, "-")
			if pep503(dn) != want {
				continue
			}
			dir := path.Join(sp, e.Name())
			data, err := readBounded(root, path.Join(dir, "METADATA"), maxManifest)
			if err != nil {
				return nil, sp, fmt.Errorf("%s/METADATA: %w", dir, err)
			}
			n, v, err := metadataVersion(data)
			if err != nil {
				return nil, sp, fmt.Errorf("%s/METADATA: %w", dir, err)
			}
			di := &distInfo{dir: dir, name: n, version: v}
			if top, err := readBounded(root, path.Join(dir, "top_level.txt"), 1<<16); err == nil {
				for _, l := range strings.Split(string(top), "\n") {
					if l = strings.TrimSpace(l); l != "" && isPyIdent(l) {
						di.modules = append(di.modules, l)
					}
				}
			}
			if len(di.modules) == 0 {
				di.modules = []string{strings.ReplaceAll(want, "-", "_")}
			}
			return di, sp, nil
		}
	}
	return nil, "", fmt.Errorf("not installed in %s", strings.Join(sps, ", "))
}

// metadataVersion reads the Name and Version headers of a distribution's
// METADATA (the email-header format of the core metadata specification);
// the headers end at the first blank line.
func metadataVersion(data []byte) (name, version string, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<16)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			break
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "name":
			if name == "" {
				name = strings.TrimSpace(v)
			}
		case "version":
			if version == "" {
				version = strings.TrimSpace(v)
			}
		}
	}
	if version == "" {
		return "", "", errors.New("no Version header")
	}
	if len(version) > 256 || strings.IndexFunc(version, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0 {
		return "", "", fmt.Errorf("%q is not a version", version)
	}
	return name, version, nil
}

func isPyIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// pythonCopy finds distribution d in the project's virtual environment,
// checks its METADATA version against the lockfile's, and returns the
// copy of the module qual names: a package directory, or a single-file
// module (Package names the file, Dir its site-packages).
func (p *Provider) pythonCopy(d depdocs.Dependency, qual string) (Copy, *Problem) {
	prob := &Problem{Ecosystem: depdocs.PyPI, Name: d.Name, Version: d.Resolved}
	if d.Source.Local() {
		prob.Reason = "a " + string(d.Source) + " dependency, not a published package"
		return Copy{}, prob
	}
	root, err := contain.Open(p.dir())
	if err != nil {
		prob.Reason = "cannot open the project: " + err.Error()
		return Copy{}, prob
	}
	defer root.Close()
	di, sp, err := findDist(root, d.Name)
	if err != nil {
		prob.Reason = err.Error()
		prob.Guidance = "install the locked versions into the project's virtual environment (uv sync, poetry install, pip install -r)"
		return Copy{}, prob
	}
	mod := strings.SplitN(qual, ".", 2)[0]
	if !containsString(di.modules, mod) {
		return Copy{}, nil // the distribution does not provide that module
	}
	c := Copy{Ecosystem: depdocs.PyPI, Name: d.Name, Version: di.version, Root: RootProject, dist: di.name}
	if d.Resolved != "" {
		if !depdocs.SameRelease(depdocs.PyPI, di.version, d.Resolved) {
			prob.Reason = fmt.Sprintf("%s is version %s, %s resolves %s", di.dir, di.version, d.File, d.Resolved)
			prob.Guidance = "install the locked versions into the project's virtual environment (uv sync, poetry install, pip install -r)"
			return Copy{}, prob
		}
		c.Version, c.Checked = d.Resolved, d.File
	}
	c.Dir = path.Join(sp, mod)
	if fi, err := root.Stat(c.Dir); err != nil || !fi.IsDir() {
		if fi, err := root.Stat(c.Dir + ".py"); err == nil && fi.Mode().IsRegular() {
			c.Dir, c.Package = sp, mod+".py"
		} else {
			prob.Reason = fmt.Sprintf("%s names the module %s, which %s does not hold", di.dir, mod, sp)
			return Copy{}, prob
		}
	}
	abs, err := root.Abs(c.Dir)
	if err != nil {
		prob.Reason = c.Dir + " leaves the project: " + err.Error()
		return Copy{}, prob
	}
	c.abs = abs
	return c, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
