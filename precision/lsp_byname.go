package precision

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/evidence"
)

// projectMarkers are the files at a project's root that say it holds code
// of a language, so that a question by name goes to its server.
var projectMarkers = map[string][]string{
	"go":         {"go.mod", "go.work"},
	"python":     {"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "pyrightconfig.json"},
	"typescript": {"tsconfig.json", "package.json"},
	"javascript": {"jsconfig.json", "package.json"},
	"rust":       {"Cargo.toml"},
	"c":          {"compile_commands.json", "compile_flags.txt", "CMakeLists.txt"},
	"cpp":        {"compile_commands.json", "compile_flags.txt", "CMakeLists.txt"},
}

// nameServers returns the servers a question by name goes to: those
// already started, and those of the languages whose project files are at
// the root; Go's when there is none of either, as before other languages
// were served.
func (p *LSPProvider) nameServers() ([]*lspServer, error) {
	p.mu.Lock()
	root, err := p.openRoot()
	var started []*lspServer
	for _, s := range p.servers {
		started = append(started, s)
	}
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	out := started
	add := func(lang string) {
		s, err := p.server(lang)
		if err == nil && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, l := range lspLanguages {
		for _, m := range projectMarkers[l.Name] {
			if _, err := root.Stat(m); err == nil {
				add(l.Name)
				break
			}
		}
	}
	if len(out) == 0 {
		add("go")
	}
	slices.SortFunc(out, func(a, b *lspServer) int { return strings.Compare(serverKey(a.argv), serverKey(b.argv)) })
	return out, nil
}

// A nameCandidate is a workspace symbol a name may mean.
type nameCandidate struct {
	server     *lspServer
	path       string
	line, col  int
	name, cont string
}

// byName answers q about every workspace symbol named q.Symbol, from every
// server that may know it. A server that fails is named in the report when
// another answered, and its error is returned when none did.
func (p *LSPProvider) byName(ctx context.Context, q *evidence.Query) (evidence.Response, error) {
	servers, err := p.nameServers()
	if err != nil {
		return evidence.Response{}, err
	}
	var cands []nameCandidate
	var failures []error
	for _, s := range servers {
		c, err := s.candidates(ctx, q.Symbol)
		if err != nil {
			failures = append(failures, err)
			continue
		}
		cands = append(cands, c...)
	}
	if len(cands) == 0 {
		if len(failures) > 0 {
			return evidence.Response{}, errors.Join(failures...)
		}
		return evidence.Response{Report: evidence.Report{State: evidence.Available,
			Reason: fmt.Sprintf("the language server knows no symbol named %q in the project", q.Symbol)}}, nil
	}
	var recs []evidence.Record
	var dropped, unanswered []string
	n := strconv.Itoa(len(cands))
	for _, c := range cands {
		rs, d, why, err := c.server.askLocked(ctx, *q, c.path, c.line, c.col)
		if err != nil {
			return evidence.Response{}, err
		}
		dropped = append(dropped, d...)
		if why != "" && !slices.Contains(unanswered, why) {
			unanswered = append(unanswered, why)
		}
		qualified := c.name
		if c.cont != "" {
			qualified = c.cont + "." + c.name
		}
		for _, r := range rs {
			if r.Metadata.Attributes == nil {
				r.Metadata.Attributes = map[string]string{}
			}
			r.Metadata.Attributes["package"] = c.cont
			r.Metadata.Attributes["qualified_name"] = qualified
			r.Metadata.Attributes["candidates"] = n
			recs = append(recs, r)
		}
	}
	rep := evidence.Report{Dropped: dropped}
	var reasons []string
	if len(cands) > 1 {
		names := make([]string, len(cands))
		for i, c := range cands {
			names[i] = c.cont + "." + c.name
		}
		reasons = append(reasons, fmt.Sprintf("%q may mean %d symbols, all answered: %s", q.Symbol, len(cands), strings.Join(names, ", ")))
	}
	for _, f := range failures {
		reasons = append(reasons, f.Error())
	}
	reasons = append(reasons, unanswered...)
	if len(reasons) > 0 {
		rep.State, rep.Reason = evidence.Available, strings.Join(reasons, "; ")
	}
	return evidence.Response{Records: recs, Report: rep}, nil
}

// askLocked starts the server if need be and asks it about a position;
// it also says which kinds the server cannot answer ([lspServer.unanswered]).
func (s *lspServer) askLocked(ctx context.Context, q evidence.Query, path string, line, col int) ([]evidence.Record, []string, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.start(ctx); err != nil {
		return nil, nil, "", err
	}
	recs, dropped, err := s.ask(ctx, q, path, line, col, map[string][]string{})
	return recs, dropped, s.unanswered(q), err
}

// candidates asks the server for the workspace symbols named name that are
// declared in the project.
func (s *lspServer) candidates(ctx context.Context, name string) ([]nameCandidate, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.start(ctx); err != nil {
		return nil, err
	}
	raw, err := s.request(ctx, "workspace/symbol", map[string]string{"query": name}, 0)
	var re *rpcError
	if errors.As(err, &re) {
		raw, err = nil, nil
	}
	if err != nil {
		return nil, &evidence.UnavailableError{Reason: "language server " + s.name() + " failed on workspace/symbol", Err: err}
	}
	var syms []struct {
		Name          string      `json:"name"`
		ContainerName string      `json:"containerName"`
		Location      lspLocation `json:"location"`
	}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &syms); err != nil {
			return nil, &evidence.UnavailableError{Reason: "language server " + s.name() + " answered workspace/symbol with something else than symbols", Err: err}
		}
	}
	files := map[string][]string{}
	var out []nameCandidate
	for _, sym := range syms {
		if sym.Name != name && !strings.HasSuffix(sym.Name, "."+name) {
			continue
		}
		r, ok, _ := s.record(evidence.Definition, sym.Location, files)
		if !ok {
			continue // declared outside the project
		}
		out = append(out, nameCandidate{s, r.Path, r.StartLine, r.StartColumn, sym.Name, sym.ContainerName})
	}
	return out, nil
}
