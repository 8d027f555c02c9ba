package depdocs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// stripJSONC turns JSON with comments and trailing commas (bun.lock's
// dialect) into plain JSON. It scans tokens, so commas and slashes inside
// strings are left alone, and it keeps every line break, so a line of the
// result is the same line of data.
func stripJSONC(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data))
	pendingComma := -1 // index in out of a comma that may be trailing
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			j := i + 1
			for ; j < len(data); j++ {
				if data[j] == '\\' {
					j++
					continue
				}
				if data[j] == '"' {
					break
				}
			}
			if j >= len(data) {
				return nil, errors.New("unterminated string")
			}
			pendingComma = -1
			out = append(out, data[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			// Stop before the line break, which the next iteration keeps.
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := strings.Index(string(data[i+2:]), "*/")
			if end < 0 {
				return nil, errors.New("unterminated comment")
			}
			out = append(out, bytes.Repeat([]byte{'\n'}, strings.Count(string(data[i+2:i+2+end]), "\n"))...)
			i += end + 3
		case c == ',':
			pendingComma = len(out)
			out = append(out, c)
		case c == '}' || c == ']':
			if pendingComma >= 0 {
				out = append(out[:pendingComma], out[pendingComma+1:]...)
			}
			pendingComma = -1
			out = append(out, c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			out = append(out, c)
		default:
			pendingComma = -1
			out = append(out, c)
		}
	}
	return out, nil
}

type bunLock struct {
	LockfileVersion *int                         `json:"lockfileVersion"`
	Workspaces      map[string]packageJSON       `json:"workspaces"`
	Packages        map[string][]json.RawMessage `json:"packages"`
}

// readBunLock reads bun.lock (the text lockfile of bun 1.2+): JSONC whose
// "packages" map install paths such as "a/b" to ["name@version",
// registry, {dependencies}, integrity].
func readBunLock(file string, data []byte) (*File, error) {
	clean, err := stripJSONC(data)
	if err != nil {
		return nil, err
	}
	var l bunLock
	if err := json.Unmarshal(clean, &l); err != nil {
		return nil, err
	}
	lines := jsonKeyLines(clean, func(p []string) bool {
		return p[0] == "packages" && len(p) == 2 || p[0] == "workspaces" && len(p) == 4
	})
	if l.LockfileVersion == nil {
		return nil, errors.New("no lockfileVersion")
	}
	f := &File{FormatVersion: fmt.Sprint(*l.LockfileVersion)}
	entries := map[string]bunEntry{}
	for _, key := range sortedKeys(l.Packages) {
		e, err := readBunEntry(l.Packages[key])
		if err != nil {
			return nil, fmt.Errorf("packages %q: %w", key, err)
		}
		entries[key] = e
	}
	direct := map[string]Dependency{}
	for _, ws := range sortedKeys(l.Workspaces) {
		addBunWorkspace(f, direct, file, ws, l.Workspaces[ws], entries, lines)
	}
	via := bunVia(entries)
	for _, key := range sortedKeys(entries) {
		if _, ok := direct[key]; ok {
			continue
		}
		e := entries[key]
		d := Dependency{Name: e.name, Resolved: e.version, Source: e.src, SourceDetail: e.detail,
			Relation: Transitive, Via: via[key], Line: lines[pathKey("packages", key)]}
		if a := bunInstallName(key); a != e.name && e.src == "" {
			d.Alias = a // installed under another name: an alias
		}
		if e.src == Workspace {
			d.Relation = Root
		}
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

// A bunEntry is what bun.lock records of one installed package.
type bunEntry struct {
	name, version string
	src           Source
	detail        string
	deps          map[string]string
}

// readBunEntry reads one entry of "packages": its name, version or
// source, and dependencies (optional ones included).
func readBunEntry(arr []json.RawMessage) (bunEntry, error) {
	if len(arr) == 0 {
		return bunEntry{}, errors.New("empty entry")
	}
	var ident string
	if err := json.Unmarshal(arr[0], &ident); err != nil {
		return bunEntry{}, err
	}
	name, ref := berryDescriptor(ident)
	e := bunEntry{name: name, version: ref}
	switch proto, rest, _ := strings.Cut(ref, ":"); proto {
	case "workspace":
		e.src, e.detail, e.version = Workspace, rest, ""
	case "file", "link":
		e.src, e.detail, e.version = Path, ref, ""
	case "github", "git+https", "git+ssh", "git":
		e.src, e.detail, e.version = Git, ref, ""
	case "npm":
		if n, v := berryDescriptor(rest); v != "" {
			e.name, e.version = n, v
		}
	}
	for _, raw := range arr[1:] {
		var meta struct {
			Dependencies         map[string]string `json:"dependencies"`
			OptionalDependencies map[string]string `json:"optionalDependencies"`
		}
		if json.Unmarshal(raw, &meta) == nil && (meta.Dependencies != nil || meta.OptionalDependencies != nil) {
			e.deps = meta.Dependencies
			for k, v := range meta.OptionalDependencies {
				if e.deps == nil {
					e.deps = map[string]string{}
				}
				e.deps[k] = v
			}
		}
	}
	return e, nil
}

// bunVia returns, for each packages key, the packages that depend on it
// (name@version).
func bunVia(entries map[string]bunEntry) map[string][]string {
	via := map[string][]string{}
	for _, key := range sortedKeys(entries) {
		e := entries[key]
		for _, dn := range sortedKeys(e.deps) {
			if t := bunResolve(entries, key, dn); t != "" {
				via[t] = appendUnique(via[t], e.name+"@"+e.version)
			}
		}
	}
	return via
}

// bunResolve returns the packages key a dependency name of the package at
// key from resolves to, or "": bun resolves a dependency of the package at
// "a/b" to "a/b/dep", then "a/dep", then "dep".
func bunResolve(entries map[string]bunEntry, from, name string) string {
	for cur := from; ; {
		cand := name
		if cur != "" {
			cand = cur + "/" + name
		}
		if _, ok := entries[cand]; ok {
			return cand
		}
		if cur == "" {
			return ""
		}
		// Walking up by one path element may stop inside a scoped
		// name ("a/@s"); that candidate simply does not exist.
		if i := strings.LastIndexByte(cur, '/'); i >= 0 {
			cur = cur[:i]
		} else {
			cur = ""
		}
	}
}

// addBunWorkspace adds to f the direct dependencies the workspace at ws
// ("" the root) declares, in the order of its sections and names, and
// records each in direct under the packages key it resolves to; a
// workspace other than the root is added to f's includes.
func addBunWorkspace(f *File, direct map[string]Dependency, file, ws string, w packageJSON, entries map[string]bunEntry, lines map[string]int) {
	imp := ws
	if imp == "" {
		imp = "."
	} else {
		f.Includes = append(f.Includes, join(dirOf(file), ws))
	}
	for _, sec := range npmSections {
		m := w.section(sec.key)
		for _, name := range sortedKeys(m) {
			key := name
			if ws != "" {
				if _, ok := entries[w.Name+"/"+name]; ok {
					key = w.Name + "/" + name
				}
			}
			e, ok := entries[key]
			d := npmDecl(name, m[name])
			d.Relation, d.Scope, d.Importer = Direct, sec.scope, imp
			d.Line = lines[pathKey("workspaces", ws, sec.key, name)]
			if ok {
				d.Resolved, d.Source, d.SourceDetail = e.version, e.src, e.detail
				if e.name != name {
					d.Name, d.Alias = e.name, name
				}
			}
			direct[key] = d
			f.Deps = append(f.Deps, d)
		}
	}
}

// bunInstallName is the package name a packages key installs: its last
// path element, or the last two for a scoped name ("a/@s/b" → "@s/b").
func bunInstallName(key string) string {
	parts := strings.Split(key, "/")
	if n := len(parts); n >= 2 && strings.HasPrefix(parts[n-2], "@") {
		return parts[n-2] + "/" + parts[n-1]
	}
	return parts[len(parts)-1]
}
