package depdocs

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readYarnLock reads yarn.lock: classic (v1, yarn's own syntax, detected by
// its "# yarn lockfile v1" header) or berry (YAML with __metadata.version).
func readYarnLock(file string, data []byte) (*File, error) {
	if bytes.Contains(data, []byte("__metadata:")) {
		return readYarnBerry(data)
	}
	return readYarnClassic(data)
}

// yarnKeyName splits one key specifier "name@range" (the name may start
// with @) into name and range.
func yarnKeyName(spec string) (name, rng string) {
	spec = strings.TrimSpace(spec)
	spec = strings.Trim(spec, `"`)
	i := strings.LastIndex(spec, "@")
	if i <= 0 {
		return spec, ""
	}
	return spec[:i], spec[i+1:]
}

// yarnSpec splits a lockfile key specifier into the name the code imports
// when it is an alias, the package and the range: "name@range" (berry:
// "name@npm:range"), or an alias "alias@npm:name@range".
func yarnSpec(spec string) (alias, name, rng string) {
	n, r := yarnKeyName(spec)
	if a, real, ok := strings.Cut(n, "@npm:"); ok && a != "" && real != "" {
		return a, real, r
	}
	return "", n, r
}

// yarnRows splits the row of one lockfile entry by the name the keys
// import it under: an entry that resolves "string-width@^4.2.0" and the
// alias "string-width-cjs@npm:string-width@^4.2.0" is installed under both
// names, one row each, each with its own keys as Specs.
func yarnRows(d Dependency, keys []string) []Dependency {
	var order []string
	byAlias := map[string][]string{}
	for _, k := range keys {
		a, _, _ := yarnSpec(k)
		if _, ok := byAlias[a]; !ok {
			order = append(order, a)
		}
		byAlias[a] = append(byAlias[a], k)
	}
	if len(order) == 0 {
		return []Dependency{d}
	}
	var out []Dependency
	for _, a := range order {
		r := d
		r.Alias, r.Specs = a, byAlias[a]
		out = append(out, r)
	}
	return out
}

// yarnClassicEntry is one block of a v1 lockfile.
type yarnClassicEntry struct {
	keys   []string
	fields map[string]string
	deps   map[string]string
	line   int
}

// parseYarnClassic parses yarn v1's indentation syntax: a top-level block
// per resolution whose header lists the specifiers it satisfies, indented
// "field value" lines and "dependencies:" sections.
func parseYarnClassic(data []byte) ([]yarnClassicEntry, string, error) {
	var out []yarnClassicEntry
	var cur *yarnClassicEntry
	var section string
	version := ""
	lines := strings.Split(string(data), "\n")
	for i, raw := range lines {
		line := strings.TrimRight(raw, "\r \t")
		if strings.HasPrefix(line, "#") {
			if v, ok := strings.CutPrefix(line, "# yarn lockfile v"); ok {
				version = strings.TrimSpace(v)
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		text := strings.TrimSpace(line)
		switch {
		case indent == 0:
			if !strings.HasSuffix(text, ":") {
				return nil, "", fmt.Errorf("line %d: expected a block header ending in ':'", i+1)
			}
			out = append(out, yarnClassicEntry{fields: map[string]string{}, deps: map[string]string{}, line: i + 1})
			cur = &out[len(out)-1]
			for _, k := range strings.Split(strings.TrimSuffix(text, ":"), ",") {
				if k = strings.Trim(strings.TrimSpace(k), `"`); k != "" {
					cur.keys = append(cur.keys, k)
				}
			}
			section = ""
		case cur == nil:
			return nil, "", fmt.Errorf("line %d: indented line before any block", i+1)
		case indent <= 2 && strings.HasSuffix(text, ":"):
			section = strings.TrimSuffix(text, ":")
		case indent <= 2:
			section = ""
			k, v, err := yarnPair(text)
			if err != nil {
				return nil, "", fmt.Errorf("line %d: %w", i+1, err)
			}
			cur.fields[k] = v
		default:
			k, v, err := yarnPair(text)
			if err != nil {
				return nil, "", fmt.Errorf("line %d: %w", i+1, err)
			}
			if section == "dependencies" || section == "optionalDependencies" {
				cur.deps[k] = v
			}
		}
	}
	return out, version, nil
}

// yarnPair splits `key "value"` or `"key" value`.
func yarnPair(text string) (string, string, error) {
	var key string
	rest := text
	if strings.HasPrefix(text, `"`) {
		q, err := strconv.QuotedPrefix(text)
		if err != nil {
			return "", "", errors.New("unterminated quoted key")
		}
		key, _ = strconv.Unquote(q)
		rest = text[len(q):]
	} else {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			return text, "", nil
		}
		key, rest = text[:i], text[i:]
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, `"`) {
		v, err := strconv.Unquote(rest)
		if err != nil {
			return "", "", errors.New("bad quoted value")
		}
		return key, v, nil
	}
	return key, rest, nil
}

func readYarnClassic(data []byte) (*File, error) {
	entries, version, err := parseYarnClassic(data)
	if err != nil {
		return nil, err
	}
	if version == "" {
		return nil, errors.New("no '# yarn lockfile v1' header and no __metadata: not a yarn lockfile")
	}
	f := &File{FormatVersion: version}
	// Index spec → name@version so dependents can be named.
	bySpec := map[string]string{}
	for _, e := range entries {
		for _, k := range e.keys {
			_, n, _ := yarnSpec(k)
			bySpec[k] = n + "@" + e.fields["version"]
		}
	}
	via := map[string][]string{}
	for _, e := range entries {
		if len(e.keys) == 0 {
			continue
		}
		_, n, _ := yarnSpec(e.keys[0])
		self := n + "@" + e.fields["version"]
		for _, dn := range sortedKeys(e.deps) {
			if t, ok := bySpec[dn+"@"+e.deps[dn]]; ok {
				via[t] = appendUnique(via[t], self)
			}
		}
	}
	for _, e := range entries {
		if len(e.keys) == 0 {
			continue
		}
		_, name, _ := yarnSpec(e.keys[0])
		d := Dependency{Name: name, Resolved: e.fields["version"], Relation: Transitive, Line: e.line}
		d.Source, d.SourceDetail = yarnResolvedSource(e.fields["resolved"])
		d.Via = via[name+"@"+d.Resolved]
		f.Deps = append(f.Deps, yarnRows(d, e.keys)...)
	}
	return f, nil
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

func yarnResolvedSource(resolved string) (Source, string) {
	switch {
	case resolved == "":
		return Registry, ""
	case strings.HasPrefix(resolved, "git"), strings.Contains(resolved, ".git#"), strings.HasPrefix(resolved, "https://codeload.github.com/"):
		return Git, resolved
	case strings.HasPrefix(resolved, "file:"):
		return Path, resolved
	}
	return Registry, ""
}

type berryEntry struct {
	Version      string            `yaml:"version"`
	Resolution   string            `yaml:"resolution"`
	Dependencies map[string]string `yaml:"dependencies"`
	LinkType     string            `yaml:"linkType"`
}

// readYarnBerry reads yarn 2+ lockfiles: YAML keyed by comma-separated
// descriptors such as "name@npm:^1.0.0", each with the resolution it chose.
func readYarnBerry(data []byte) (*File, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	var doc map[string]yaml.Node
	if len(root.Content) > 0 {
		if err := root.Decode(&doc); err != nil {
			return nil, err
		}
	}
	lines := yamlKeyLines(&root, func(p []string) bool { return len(p) == 1 })
	var meta struct {
		Version yaml.Node `yaml:"version"`
	}
	if m, ok := doc["__metadata"]; ok {
		if err := m.Decode(&meta); err != nil {
			return nil, fmt.Errorf("__metadata: %w", err)
		}
	}
	if meta.Version.Value == "" {
		return nil, errors.New("no __metadata.version")
	}
	f := &File{FormatVersion: "berry " + meta.Version.Value}
	entries, bySpec, err := berryEntries(doc)
	if err != nil {
		return nil, err
	}
	direct, via := berryGraph(entries, bySpec)
	for _, key := range sortedKeys(entries) {
		d := berryDependency(entries[key], via[key], lines[pathKey(key)])
		var specs []string
		for _, s := range strings.Split(key, ",") {
			specs = append(specs, strings.TrimSpace(s))
		}
		for _, r := range yarnRows(d, specs) {
			if imp, ok := direct[[2]string{key, r.Alias}]; ok && r.Relation != Root {
				r.Relation, r.Importer = Direct, imp
			}
			f.Deps = append(f.Deps, r)
		}
	}
	return f, nil
}

// berryEntries decodes the lockfile's entries by key, and maps each
// descriptor of a key to it.
func berryEntries(doc map[string]yaml.Node) (entries map[string]berryEntry, bySpec map[string]string, err error) {
	entries, bySpec = map[string]berryEntry{}, map[string]string{}
	for _, key := range sortedKeys(doc) {
		if key == "__metadata" {
			continue
		}
		n := doc[key]
		var e berryEntry
		if err := n.Decode(&e); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", key, err)
		}
		entries[key] = e
		for _, s := range strings.Split(key, ",") {
			bySpec[strings.TrimSpace(s)] = key
		}
	}
	return entries, bySpec, nil
}

// berryGraph reads the entries' dependencies: the workspaces' are direct
// (the importer of each entry key and alias), and all give the graph
// (the dependents of each entry key, name@version).
func berryGraph(entries map[string]berryEntry, bySpec map[string]string) (direct map[[2]string]string, via map[string][]string) {
	direct, via = map[[2]string]string{}, map[string][]string{}
	for _, key := range sortedKeys(entries) {
		e := entries[key]
		name, ref := berryDescriptor(e.Resolution)
		self := name + "@" + e.Version
		for _, dn := range sortedKeys(e.Dependencies) {
			t, ok := bySpec[dn+"@"+e.Dependencies[dn]]
			if !ok {
				continue
			}
			if imp, isWS := strings.CutPrefix(ref, "workspace:"); isWS {
				a, _, _ := yarnSpec(dn + "@" + e.Dependencies[dn])
				if _, seen := direct[[2]string{t, a}]; !seen {
					direct[[2]string{t, a}] = imp
				}
			}
			via[t] = appendUnique(via[t], self)
		}
	}
	return direct, via
}

// berryDependency returns the dependency an entry resolves, transitive
// unless a workspace, with its source read from the resolution's
// protocol.
func berryDependency(e berryEntry, via []string, line int) Dependency {
	name, ref := berryDescriptor(e.Resolution)
	d := Dependency{Name: name, Resolved: e.Version, Relation: Transitive, Via: via, Line: line}
	switch proto, _, _ := strings.Cut(ref, ":"); proto {
	case "npm":
	case "workspace":
		d.Source, d.SourceDetail, d.Relation, d.Resolved = Workspace, ref, Root, e.Version
	case "patch":
		d.SourceDetail = ref
	case "git", "git+https", "git+ssh", "https", "http":
		d.Source, d.SourceDetail = Git, ref
		if strings.HasPrefix(ref, "http") && !strings.Contains(ref, ".git") {
			d.Source = URL
		}
	case "file", "link", "portal":
		d.Source, d.SourceDetail = Path, ref
	}
	return d
}

// berryDescriptor splits "name@npm:1.0.0" (name may start with @) into the
// name and the reference "npm:1.0.0".
func berryDescriptor(s string) (string, string) {
	i := strings.Index(s[min(1, len(s)):], "@")
	if i < 0 {
		return s, ""
	}
	i++
	return s[:i], s[i+1:]
}
