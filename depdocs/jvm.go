package depdocs

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

type pomDep struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Version    string `xml:"version"`
	Scope      string `xml:"scope"`
	Optional   string `xml:"optional"`
	Type       string `xml:"type"`
}

type pomProject struct {
	XMLName      xml.Name `xml:"project"`
	ModelVersion string   `xml:"modelVersion"`
	GroupID      string   `xml:"groupId"`
	ArtifactID   string   `xml:"artifactId"`
	Version      string   `xml:"version"`
	Parent       struct {
		GroupID      string `xml:"groupId"`
		ArtifactID   string `xml:"artifactId"`
		Version      string `xml:"version"`
		RelativePath string `xml:"relativePath"`
	} `xml:"parent"`
	Properties struct {
		Entries []struct {
			XMLName xml.Name
			Value   string `xml:",chardata"`
		} `xml:",any"`
	} `xml:"properties"`
	Dependencies         []pomDep `xml:"dependencies>dependency"`
	DependencyManagement []pomDep `xml:"dependencyManagement>dependencies>dependency"`
	Modules              []string `xml:"modules>module"`
	Build                struct {
		Plugins []pomDep `xml:"plugins>plugin"`
	} `xml:"build"`
}

// expandProps substitutes ${name} references from props, repeatedly (a
// property may refer to another), leaving unknown ones as written.
func expandProps(s string, props map[string]string) string {
	for range 8 {
		i := strings.Index(s, "${")
		if i < 0 {
			return s
		}
		changed := false
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, "${")
			if i < 0 {
				b.WriteString(rest)
				break
			}
			j := strings.IndexByte(rest[i:], '}')
			if j < 0 {
				b.WriteString(rest)
				break
			}
			name := rest[i+2 : i+j]
			b.WriteString(rest[:i])
			if v, ok := props[name]; ok {
				b.WriteString(v)
				changed = true
			} else {
				b.WriteString(rest[i : i+j+1])
			}
			rest = rest[i+j+1:]
		}
		s = b.String()
		if !changed {
			return s
		}
	}
	return s
}

func mavenScope(s, optional string) Scope {
	if strings.TrimSpace(optional) == "true" {
		return Optional
	}
	switch strings.TrimSpace(s) {
	case "test":
		return Test
	case "provided", "system":
		return Build
	}
	return Normal
}

// readPom reads pom.xml: dependencies with ${property} references
// expanded from <properties> and the project's own coordinates, managed
// versions from <dependencyManagement> filling dependencies that omit
// one, and the parent recorded as a dependency. A version still holding
// ${…} (defined in a parent) is kept as written here; [Join] resolves it
// through the parent poms in the project.
func readPom(file string, data []byte) (*File, error) {
	var p pomProject
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	dec.Strict = true
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	props := map[string]string{}
	f := &File{FormatVersion: p.ModelVersion, Properties: props}
	for _, e := range p.Properties.Entries {
		props[e.XMLName.Local] = strings.TrimSpace(e.Value)
	}
	version := firstNonEmpty(p.Version, p.Parent.Version)
	group := firstNonEmpty(p.GroupID, p.Parent.GroupID)
	for k, v := range map[string]string{"project.version": version, "project.groupId": group,
		"project.artifactId": p.ArtifactID, "project.parent.version": p.Parent.Version, "version": version} {
		if _, ok := props[k]; !ok {
			props[k] = v
		}
	}
	ex := func(s string) string { return expandProps(strings.TrimSpace(s), props) }
	const (
		pathParent  = "project/parent"
		pathDeps    = "project/dependencies/dependency"
		pathManaged = "project/dependencyManagement/dependencies/dependency"
	)
	elems := xmlElements(data, pathParent, pathDeps, pathManaged)
	// line is the line of the i-th element at path: its artifactId's.
	line := func(path string, i int) int {
		if i >= len(elems[path]) {
			return 0
		}
		e := elems[path][i]
		return firstNonZero(e.child["artifactId"], e.line)
	}
	managed := map[string]string{}
	for _, d := range p.DependencyManagement {
		managed[ex(d.GroupID)+":"+ex(d.ArtifactID)] = ex(d.Version)
	}
	if p.Parent.ArtifactID != "" {
		f.Deps = append(f.Deps, Dependency{Name: ex(p.Parent.GroupID) + ":" + ex(p.Parent.ArtifactID),
			Declared: ex(p.Parent.Version), Relation: Direct, Groups: []string{"parent"}, Importer: ".", Line: line(pathParent, 0)})
	}
	for i, d := range p.Dependencies {
		name := ex(d.GroupID) + ":" + ex(d.ArtifactID)
		dep := Dependency{Name: name, Declared: ex(d.Version), Relation: Direct, Scope: mavenScope(d.Scope, d.Optional), Importer: ".",
			Line: line(pathDeps, i)}
		if dep.Declared == "" {
			dep.Declared = managed[name]
			if dep.Declared != "" {
				dep.SourceDetail = "version from dependencyManagement"
			}
		}
		if dep.Declared == "" {
			dep.SourceDetail = "version managed by a parent or BOM"
			dep.Source = Registry
		}
		if strings.HasPrefix(dep.Declared, "[") || strings.HasPrefix(dep.Declared, "(") {
			// A range; not a resolution.
		} else if dep.Declared != "" && !strings.Contains(dep.Declared, "${") {
			dep.Resolved = dep.Declared // Maven uses a soft requirement as written
		}
		f.Deps = append(f.Deps, dep)
	}
	for i, d := range p.DependencyManagement {
		f.Deps = append(f.Deps, Dependency{Name: ex(d.GroupID) + ":" + ex(d.ArtifactID), Declared: ex(d.Version),
			Relation: Unknown, Groups: []string{"dependencyManagement"}, Scope: mavenScope(d.Scope, d.Optional), Importer: ".",
			Line: line(pathManaged, i)})
	}
	for _, m := range p.Modules {
		f.Includes = append(f.Includes, join(dirOf(file), m+"/pom.xml"))
	}
	for i := range f.Deps {
		if f.Deps[i].Declared == "" && f.Deps[i].Resolved == "" {
			f.Deps[i].Declared = "" // unversioned: managed elsewhere
		}
	}
	return f, nil
}

// readGradleLock reads Gradle's dependency lock file: one
// "group:artifact:version=conf1,conf2" line per module; "empty=" lists
// configurations with no dependencies.
func readGradleLock(file string, data []byte) (*File, error) {
	f := &File{FormatVersion: "1"}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "empty=") {
			continue
		}
		coord, confs, ok := strings.Cut(line, "=")
		parts := strings.Split(coord, ":")
		if !ok || len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" || strings.ContainsAny(coord, " \t") {
			return nil, fmt.Errorf("line %d: want group:artifact:version=configurations", n+1)
		}
		d := Dependency{Name: parts[0] + ":" + parts[1], Resolved: parts[2], Relation: Unknown, Line: n + 1}
		for _, c := range strings.Split(confs, ",") {
			if c = strings.TrimSpace(c); c != "" {
				d.Groups = append(d.Groups, c)
			}
		}
		d.Scope = gradleConfScope(d.Groups)
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

// gradleConfScope is test when every configuration is a test one.
func gradleConfScope(confs []string) Scope {
	if len(confs) == 0 {
		return Normal
	}
	for _, c := range confs {
		if !strings.Contains(strings.ToLower(c), "test") {
			return Normal
		}
	}
	return Test
}

type versionCatalog struct {
	Versions  map[string]any `toml:"versions"`
	Libraries map[string]any `toml:"libraries"`
	Plugins   map[string]any `toml:"plugins"`
}

// readVersionCatalog reads gradle/libs.versions.toml: each library's
// coordinates and its version, following version.ref into [versions].
func readVersionCatalog(file string, data []byte) (*File, error) {
	var c versionCatalog
	if _, err := toml.Decode(string(data), &c); err != nil {
		return nil, err
	}
	lines := tomlKeyLines(data)
	f := &File{}
	var ver func(v any) string
	ver = func(v any) string {
		switch t := v.(type) {
		case string:
			return t
		case map[string]any:
			if r, ok := t["ref"].(string); ok {
				return ver(c.Versions[r])
			}
			for _, k := range []string{"strictly", "require", "prefer"} {
				if s, ok := t[k].(string); ok {
					return s
				}
			}
		}
		return ""
	}
	for _, alias := range sortedKeys(c.Libraries) {
		// The coordinates' line: the entry's own, or, for a
		// [libraries.alias] table, its module or name key's.
		d := Dependency{Relation: Direct, Groups: []string{"libs." + alias}, Importer: ".",
			Line: firstNonZero(lines[pathKey("libraries", alias, "module")], lines[pathKey("libraries", alias, "name")],
				lines[pathKey("libraries", alias)])}
		switch t := c.Libraries[alias].(type) {
		case string:
			parts := strings.Split(t, ":")
			if len(parts) < 2 {
				return nil, fmt.Errorf("libraries.%s: %q is not group:artifact[:version]", alias, t)
			}
			d.Name = parts[0] + ":" + parts[1]
			if len(parts) > 2 {
				d.Declared = parts[2]
			}
		case map[string]any:
			if m, ok := t["module"].(string); ok {
				d.Name = m
			} else {
				g, _ := t["group"].(string)
				n, _ := t["name"].(string)
				d.Name = g + ":" + n
			}
			d.Declared = ver(t["version"])
		default:
			return nil, fmt.Errorf("libraries.%s: unexpected value", alias)
		}
		if d.Declared == "" {
			d.SourceDetail = "version from a platform or BOM"
		}
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

// readGradle reads the dependency declarations of build.gradle and
// build.gradle.kts. Gradle scripts are programs; this reader tokenizes each
// statement of a dependencies { } block and accepts only the literal
// forms `conf "g:a:v"`, `conf("g:a:v")`, `conf group: 'g', name: 'a',
// version: 'v'` and catalog references `conf(libs.a.b)`; anything computed
// is reported in Notes, not guessed.
func readGradle(file string, data []byte) (*File, error) {
	f := &File{FormatVersion: "groovy"}
	if strings.HasSuffix(file, ".kts") {
		f.FormatVersion = "kotlin"
	}
	toks, err := gradleTokens(string(data))
	if err != nil {
		return nil, err
	}
	// Find "dependencies" "{" and walk the block, tracking depth.
	for i := 0; i < len(toks); i++ {
		if toks[i].text != "dependencies" || i+1 >= len(toks) || toks[i+1].text != "{" {
			continue
		}
		depth := 0
		j := i + 1
		var stmt []gtoken
		flush := func() {
			if len(stmt) > 0 {
				if d, ok, note := gradleStatement(stmt); ok {
					f.Deps = append(f.Deps, d)
				} else if note != "" {
					f.Notes = append(f.Notes, note)
				}
			}
			stmt = stmt[:0]
		}
		for ; j < len(toks); j++ {
			t := toks[j]
			switch t.text {
			case "{":
				depth++
				if depth > 1 {
					stmt = append(stmt, t)
				}
				continue
			case "}":
				depth--
				if depth == 0 {
					flush()
					break
				}
				stmt = append(stmt, t)
				continue
			}
			if depth == 0 {
				break
			}
			// A statement ends at a line break, unless its line ends with a
			// comma (group: 'g',\n name: 'a').
			if t.newline && depth == 1 && (len(stmt) == 0 || stmt[len(stmt)-1].text != ",") {
				flush()
			}
			stmt = append(stmt, t)
		}
		i = j
	}
	return f, nil
}

type gtoken struct {
	text    string
	str     bool // a string literal, unquoted
	newline bool // first token on its line
	line    int  // one-based line where the token starts
}

// gradleTokens splits a Groovy or Kotlin script into identifiers, string
// literals, and punctuation, dropping comments.
func gradleTokens(s string) ([]gtoken, error) {
	var toks []gtoken
	nl := true
	line := 1
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			nl = true
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == ';':
			if c == ';' {
				nl = true
			}
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, errors.New("unterminated comment")
			}
			line += strings.Count(s[i+2:i+2+end], "\n")
			i += end + 4
		case c == '"' || c == '\'':
			q := c
			triple := strings.HasPrefix(s[i:], string([]byte{q, q, q}))
			j := i + 1
			if triple {
				end := strings.Index(s[i+3:], string([]byte{q, q, q}))
				if end < 0 {
					return nil, errors.New("unterminated string")
				}
				toks = append(toks, gtoken{s[i+3 : i+3+end], true, nl, line})
				line += strings.Count(s[i+3:i+3+end], "\n")
				i += end + 6
				nl = false
				continue
			}
			for j < len(s) && s[j] != q && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) || s[j] != q {
				return nil, errors.New("unterminated string")
			}
			toks = append(toks, gtoken{s[i+1 : j], true, nl, line})
			line += strings.Count(s[i+1:j], "\n") // an escaped line break
			i = j + 1
			nl = false
		case isIdentByte(c):
			j := i
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
				j++
			}
			toks = append(toks, gtoken{s[i:j], false, nl, line})
			i = j
			nl = false
		default:
			toks = append(toks, gtoken{string(c), false, nl, line})
			i++
			nl = false
		}
	}
	return toks, nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func gradleConfigScope(conf string) Scope {
	l := strings.ToLower(conf)
	switch {
	case strings.Contains(l, "test"):
		return Test
	case strings.Contains(l, "annotationprocessor"), strings.Contains(l, "kapt"), strings.Contains(l, "ksp"),
		strings.Contains(l, "compileonly"):
		return Build
	}
	return Normal
}

// gradleStatement reads one statement of a dependencies block.
func gradleStatement(st []gtoken) (Dependency, bool, string) {
	if len(st) < 2 || st[0].str {
		return Dependency{}, false, ""
	}
	conf := st[0].text
	rest := st[1:]
	if rest[0].text == "(" {
		rest = rest[1:]
	}
	d := Dependency{Relation: Direct, Groups: []string{conf}, Scope: gradleConfigScope(conf), Importer: "."}
	switch {
	case len(rest) > 0 && rest[0].str && strings.Count(rest[0].text, ":") >= 1:
		parts := strings.Split(rest[0].text, ":")
		d.Name, d.Line = parts[0]+":"+parts[1], rest[0].line
		if len(parts) > 2 {
			d.Declared = parts[2]
		}
	case len(rest) > 0 && !rest[0].str && (rest[0].text == "platform" || rest[0].text == "enforcedPlatform") && len(rest) > 2 && rest[2].str:
		parts := strings.Split(rest[2].text, ":")
		if len(parts) < 2 {
			return d, false, ""
		}
		d.Name, d.Groups, d.Line = parts[0]+":"+parts[1], []string{conf, "platform"}, rest[2].line
		if len(parts) > 2 {
			d.Declared = parts[2]
		}
	case len(rest) > 0 && !rest[0].str && strings.HasPrefix(rest[0].text, "libs."):
		d.Name = rest[0].text // resolved against the catalog by the project scan
		d.SourceDetail = "catalog " + rest[0].text
		d.Line = rest[0].line
	case len(rest) > 0 && rest[0].text == "group":
		kv := map[string]string{}
		at := map[string]int{}
		for k := 0; k+2 < len(rest); k++ {
			if !rest[k].str && (rest[k+1].text == ":" || rest[k+1].text == "=") && rest[k+2].str {
				kv[rest[k].text], at[rest[k].text] = rest[k+2].text, rest[k+2].line
			}
		}
		if kv["group"] == "" || kv["name"] == "" {
			return d, false, ""
		}
		d.Name, d.Declared, d.Line = kv["group"]+":"+kv["name"], kv["version"], at["name"]
	case len(rest) > 0 && (rest[0].text == "project" || rest[0].text == "files" || rest[0].text == "fileTree"):
		return d, false, "" // the project's own code, not a dependency
	default:
		var words []string
		for _, tk := range st[:min(len(st), 6)] {
			words = append(words, tk.text)
		}
		return d, false, "not read (not a literal declaration): " + strings.Join(words, " ")
	}
	if strings.Contains(d.Declared, "$") {
		d.SourceDetail = "version is an interpolated expression"
	}
	return d, true, ""
}
