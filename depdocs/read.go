package depdocs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/codecortex/codecortex/internal/contain"
)

// Format names a manifest or lockfile format.
type Format string

// The formats, one reader each.
const (
	FormatRequirements   Format = "requirements.txt"
	FormatPyproject      Format = "pyproject.toml"
	FormatPoetryLock     Format = "poetry.lock"
	FormatUVLock         Format = "uv.lock"
	FormatPipfile        Format = "Pipfile"
	FormatPipfileLock    Format = "Pipfile.lock"
	FormatPDMLock        Format = "pdm.lock"
	FormatPackageJSON    Format = "package.json"
	FormatPackageLock    Format = "package-lock.json"
	FormatYarnLock       Format = "yarn.lock"
	FormatPNPMLock       Format = "pnpm-lock.yaml"
	FormatBunLock        Format = "bun.lock"
	FormatCargoToml      Format = "Cargo.toml"
	FormatCargoLock      Format = "Cargo.lock"
	FormatGoMod          Format = "go.mod"
	FormatGoWork         Format = "go.work"
	FormatGoSum          Format = "go.sum"
	FormatPom            Format = "pom.xml"
	FormatGradle         Format = "build.gradle"
	FormatGradleLock     Format = "gradle.lockfile"
	FormatVersionCatalog Format = "libs.versions.toml"
	FormatCsproj         Format = "csproj"
	FormatPackagesProps  Format = "Directory.Packages.props"
	FormatNuGetLock      Format = "packages.lock.json"
	FormatPackagesConfig Format = "packages.config"
	FormatPaketLock      Format = "paket.lock"
)

// A reader parses one format. data is the whole file; file is its
// root-relative path, recorded on every dependency.
type reader struct {
	format    Format
	ecosystem Ecosystem
	match     func(base string) bool
	read      func(file string, data []byte) (*File, error)
}

func exact(name string) func(string) bool { return func(b string) bool { return b == name } }

// readers lists every reader; Detect picks the first that matches.
func readers() []reader {
	return []reader{
		{FormatRequirements, PyPI, isRequirements, readRequirements},
		{FormatPyproject, PyPI, exact("pyproject.toml"), readPyproject},
		{FormatPoetryLock, PyPI, exact("poetry.lock"), readPoetryLock},
		{FormatUVLock, PyPI, exact("uv.lock"), readUVLock},
		{FormatPipfile, PyPI, exact("Pipfile"), readPipfile},
		{FormatPipfileLock, PyPI, exact("Pipfile.lock"), readPipfileLock},
		{FormatPDMLock, PyPI, exact("pdm.lock"), readPDMLock},
		{FormatPackageJSON, NPM, exact("package.json"), readPackageJSON},
		{FormatPackageLock, NPM, isPackageLock, readPackageLock},
		{FormatYarnLock, NPM, exact("yarn.lock"), readYarnLock},
		{FormatPNPMLock, NPM, exact("pnpm-lock.yaml"), readPNPMLock},
		{FormatBunLock, NPM, exact("bun.lock"), readBunLock},
		{FormatCargoToml, Cargo, exact("Cargo.toml"), readCargoToml},
		{FormatCargoLock, Cargo, exact("Cargo.lock"), readCargoLock},
		{FormatGoMod, Go, exact("go.mod"), readGoMod},
		{FormatGoWork, Go, exact("go.work"), readGoWork},
		{FormatGoSum, Go, exact("go.sum"), readGoSum},
		{FormatPom, Maven, func(b string) bool { return b == "pom.xml" }, readPom},
		{FormatGradle, Maven, func(b string) bool { return b == "build.gradle" || b == "build.gradle.kts" }, readGradle},
		{FormatGradleLock, Maven, func(b string) bool { return strings.HasSuffix(b, "gradle.lockfile") }, readGradleLock},
		{FormatVersionCatalog, Maven, func(b string) bool { return strings.HasSuffix(b, ".versions.toml") }, readVersionCatalog},
		{FormatCsproj, NuGet, func(b string) bool {
			return strings.HasSuffix(b, ".csproj") || strings.HasSuffix(b, ".fsproj") || strings.HasSuffix(b, ".vbproj")
		}, readCsproj},
		{FormatPackagesProps, NuGet, exact("Directory.Packages.props"), readPackagesProps},
		{FormatNuGetLock, NuGet, exact("packages.lock.json"), readNuGetLock},
		{FormatPackagesConfig, NuGet, exact("packages.config"), readPackagesConfig},
		{FormatPaketLock, NuGet, exact("paket.lock"), readPaketLock},
	}
}

func isRequirements(b string) bool {
	return strings.HasSuffix(b, ".txt") && (strings.HasPrefix(b, "requirements") || strings.Contains(b, "requirements")) ||
		strings.HasPrefix(b, "requirements") && strings.HasSuffix(b, ".in")
}

func isPackageLock(b string) bool { return b == "package-lock.json" || b == "npm-shrinkwrap.json" }

// Detect returns the format of a file from its name, and false for a file
// no reader handles. Text files in a directory named "requirements"
// (requirements/dev.txt, requirements/main.in) are requirements files.
func Detect(name string) (Format, bool) {
	r, ok := readerFor(name)
	return r.format, ok
}

func readerFor(name string) (reader, bool) {
	name = strings.ReplaceAll(name, `\`, "/")
	base := path.Base(name)
	if path.Base(path.Dir(name)) == "requirements" && (strings.HasSuffix(base, ".txt") || strings.HasSuffix(base, ".in")) {
		base = "requirements-" + base
	}
	for _, r := range readers() {
		if r.match(base) {
			return r, true
		}
	}
	return reader{}, false
}

// DefaultMaxFileSize caps the size of a file the readers accept.
const DefaultMaxFileSize = 16 << 20

// ReadOptions tunes [ReadFile]. The zero value is ready to use.
type ReadOptions struct {
	// MaxFileSize caps a file's size in bytes; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// Format, if set, chooses the reader instead of the file's name (an
	// included requirements file can be named anything).
	Format Format
}

func (o ReadOptions) maxSize() int64 {
	if o.MaxFileSize > 0 {
		return o.MaxFileSize
	}
	return DefaultMaxFileSize
}

// ErrUnknownFormat is returned for a file no reader handles.
var ErrUnknownFormat = errors.New("not a known manifest or lockfile")

// ErrTooLarge is returned for a file over the size cap.
var ErrTooLarge = errors.New("file over the size cap")

// A ParseError is a file a reader could not make sense of.
type ParseError struct {
	File   string
	Format Format
	Err    error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("depdocs: %s (%s): %v", e.File, e.Format, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// openDir opens a project root directory; "" is the working directory.
func openDir(dir string) (*contain.Root, error) {
	if dir == "" {
		dir = "."
	}
	return contain.Open(dir)
}

// ReadFile reads one manifest or lockfile of the project in dir (""
// means the working directory), choosing the reader by the file's name.
// file is relative to dir, or absolute; it must stay inside dir, symbolic
// links included. Dependencies record file as a slash-separated path
// relative to dir.
func ReadFile(dir, file string, opts ReadOptions) (*File, error) {
	root, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return readFile(root, file, opts)
}

func readFile(root *contain.Root, file string, opts ReadOptions) (*File, error) {
	rel, err := root.Rel(file)
	if err != nil {
		return nil, err
	}
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: errors.New("not a regular file")}
	}
	if fi.Size() > opts.maxSize() {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: fmt.Errorf("%w: %d bytes over %d", ErrTooLarge, fi.Size(), opts.maxSize())}
	}
	data, err := root.ReadFile(rel)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > opts.maxSize() {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: ErrTooLarge}
	}
	if opts.Format != "" {
		return ParseAs(opts.Format, rel, data)
	}
	return Parse(rel, data)
}

// ParseAs is [Parse] with the format given rather than detected.
func ParseAs(format Format, file string, data []byte) (*File, error) {
	for _, r := range readers() {
		if r.format == format {
			return parseWith(r, file, data)
		}
	}
	return nil, &ParseError{File: file, Format: format, Err: ErrUnknownFormat}
}

// Parse reads the content of one manifest or lockfile named file (a
// root-relative slash path, used to choose the reader and recorded on every
// dependency).
func Parse(file string, data []byte) (*File, error) {
	r, ok := readerFor(file)
	if !ok {
		return nil, &ParseError{File: file, Err: ErrUnknownFormat}
	}
	return parseWith(r, file, data)
}

func parseWith(r reader, file string, data []byte) (*File, error) {
	f, err := r.read(file, data)
	if err != nil {
		return nil, &ParseError{File: file, Format: r.format, Err: err}
	}
	f.Path, f.Format, f.Ecosystem = file, r.format, r.ecosystem
	if f.Mode == "" {
		f.Mode = ModeFile
	}
	for i := range f.Deps {
		d := &f.Deps[i]
		d.Name, d.Declared, d.Resolved = strings.TrimSpace(d.Name), strings.TrimSpace(d.Declared), strings.TrimSpace(d.Resolved)
		if d.Name == "" || strings.ContainsAny(d.Resolved, " \t\r\n") {
			return nil, &ParseError{File: file, Format: r.format, Err: fmt.Errorf("entry %d: empty name or a version with white space (%q)", i+1, d.Resolved)}
		}
		d.File = file
		if d.Ecosystem == "" {
			d.Ecosystem = r.ecosystem
		}
		if d.Source == "" {
			d.Source = Registry
		}
		if d.Relation == "" {
			d.Relation = Unknown
		}
	}
	return f, nil
}

// dir returns the directory of a root-relative file, "" for the root.
func dirOf(file string) string {
	d := path.Dir(file)
	if d == "." {
		return ""
	}
	return d
}

// join joins a directory and a relative path, slash-separated.
func join(d, p string) string {
	if d == "" {
		return path.Clean(p)
	}
	return path.Join(d, p)
}

// firstNonZero returns the first of ns that is not 0.
func firstNonZero(ns ...int) int {
	for _, n := range ns {
		if n != 0 {
			return n
		}
	}
	return 0
}
