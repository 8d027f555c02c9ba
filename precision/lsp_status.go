package precision

import (
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// The states of a language server, as [ServerStatus] says them.
const (
	ServerNotFound   = "not found"   // its program is not on PATH
	ServerNotStarted = "not started" // found; no question has needed it yet
	ServerRunning    = "running"     // initialised and answering
	ServerFailed     = "failed"      // it did not start, exited, or was closed
)

// A ServerStatus is one language server as the provider sees it.
type ServerStatus struct {
	// Languages are the languages it serves ([LSPLanguage].Name).
	Languages []string `json:"languages"`
	// Command is its argv; Path the executable found on PATH, empty when
	// none is.
	Command []string `json:"command"`
	Path    string   `json:"path,omitempty"`
	// Version is what the running server said in its handshake, or, when
	// it has not run, what its files say (a Go program's build
	// information, an npm package's package.json), without running it;
	// empty when neither says.
	Version string `json:"version,omitempty"`
	State   string `json:"state"`
	// Reason says why it failed, or the last request it was given up on.
	Reason string `json:"reason,omitempty"`
}

// Servers reports every server the options give a language, in the order
// of [LSPLanguages]: whether its program is found, its version and its
// state. It starts nothing and runs no program.
func (p *LSPProvider) Servers() []ServerStatus {
	planned := p.opts.planned()
	keys := make([]string, 0, len(planned))
	for k := range planned {
		keys = append(keys, k)
	}
	order := func(k string) int {
		return slices.IndexFunc(lspLanguages, func(l LSPLanguage) bool { return l.Name == planned[k][0] })
	}
	slices.SortFunc(keys, func(a, b string) int { return order(a) - order(b) })
	out := make([]ServerStatus, 0, len(keys))
	for _, k := range keys {
		argv := strings.Split(k, "\x00")
		st := ServerStatus{Languages: planned[k], Command: argv, State: ServerNotStarted}
		if path, err := safeexec.LookPath(argv[0]); err == nil {
			st.Path = path
			st.Version = fileVersion(path)
		} else {
			st.State, st.Reason = ServerNotFound, err.Error()
		}
		p.mu.Lock()
		s := p.servers[k]
		p.mu.Unlock()
		if s != nil {
			s.status(&st)
		}
		out = append(out, st)
	}
	return out
}

// status fills st with the server's live state; a server answering a
// question is running, and is not waited for.
func (s *lspServer) status(st *ServerStatus) {
	if !s.mu.TryLock() {
		st.State, st.Reason = ServerRunning, "answering a question"
		return
	}
	defer s.mu.Unlock()
	switch {
	case !s.started:
		return
	case s.err != nil:
		st.State, st.Reason = ServerFailed, s.err.Error()
		if errors.Is(s.err, ErrServerNotFound) {
			st.State = ServerNotFound
		}
	default:
		st.State, st.Reason = ServerRunning, strings.Trim(s.notReady+"; "+s.lastTimeout, "; ")
	}
	if s.info != "" {
		st.Version = s.info
	}
}

// fileVersion reads a program's version from its files without running
// it: a Go binary's build information, or the package.json of the npm
// package whose script it is (a symlink into node_modules). "" when
// neither says.
func fileVersion(exe string) string {
	if bi, err := buildinfo.ReadFile(exe); err == nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return printable(filepath.Base(bi.Path)+" "+v, 120)
		}
		return ""
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(real)
	for range 4 {
		if !strings.Contains(filepath.ToSlash(dir), "/node_modules/") {
			return ""
		}
		if v := packageVersion(filepath.Join(dir, "package.json")); v != "" {
			return v
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

// packageVersion reads "name version" from a package.json, bounded.
func packageVersion(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return ""
	}
	var pkg struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Name == "" || pkg.Version == "" {
		return ""
	}
	return printable(pkg.Name+" "+pkg.Version, 120)
}
