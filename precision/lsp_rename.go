package precision

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
)

// A TextEdit replaces a range of a file with NewText. The range is
// one-based, half-open and counted in code points, as a [Location]'s; an
// empty range inserts.
type TextEdit struct {
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
	NewText     string `json:"new_text"`
}

// FileEdits are the edits of one file: Path is relative to the project
// root, slash-separated; Edits are ordered by position and never overlap.
type FileEdits struct {
	Path  string     `json:"path"`
	Edits []TextEdit `json:"edits"`
}

// ErrRenameRefused: the language server would not rename at the position
// (nothing renamable there, or a name it rejects); the error carries its
// message.
var ErrRenameRefused = errors.New("precision: the language server refused the rename")

// Bounds on a rename: the new name, and the server's answer.
const (
	MaxRenameName  = 1024
	maxRenameFiles = 10000
	maxRenameEdits = 200000
	maxEditText    = 64 << 10
)

// Rename asks the server of path's language what renaming the symbol at
// the one-based code-point position (line, col) to newName changes
// (textDocument/rename), and returns the edits by file, ordered by path,
// at near_exact: the server's word, which the caller applies and checks.
// Nothing is written. It fails with [ErrRenameRefused] when the server
// refuses, with an [evidence.UnavailableError] when the server is missing,
// exits or does not answer in time (as Gather), and with an error naming
// the edit when the answer asks for something a rename here does not do:
// an edit outside the project root, overlapping edits, a range past a
// file's end, or creating, renaming or deleting a file.
func (p *LSPProvider) Rename(ctx context.Context, path string, line, col int, newName string) ([]FileEdits, error) {
	if newName == "" || len(newName) > MaxRenameName || strings.ContainsAny(newName, "\r\n\x00") || !utf8.ValidString(newName) {
		return nil, fmt.Errorf("precision: %q is not a name to rename to (non-empty, one line, at most %d bytes of UTF-8)", newName, MaxRenameName)
	}
	p.mu.Lock()
	root, err := p.openRoot()
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if _, why := checkPosition(root, path, line, col); why != "" {
		return nil, errors.New("precision: " + why)
	}
	s, err := p.server(LSPLanguageOf(path))
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.start(ctx); err != nil {
		return nil, err
	}
	files := map[string][]string{}
	params, err := s.position(path, line, col, files)
	if err != nil {
		return nil, err
	}
	params["newName"] = newName
	raw, err := s.request(ctx, "textDocument/rename", params, 0)
	var re *rpcError
	switch {
	case errors.As(err, &re):
		return nil, fmt.Errorf("%w at %s:%d:%d: %s", ErrRenameRefused, path, line, col, printable(re.Message, 300))
	case err != nil:
		return nil, &evidence.UnavailableError{Reason: "language server " + s.name() + " failed on textDocument/rename", Err: err}
	}
	edits, err := decodeWorkspaceEdit(raw)
	if err != nil {
		return nil, fmt.Errorf("precision: language server %s answered textDocument/rename with an edit not taken: %w", s.name(), err)
	}
	if len(edits) == 0 {
		return nil, fmt.Errorf("%w at %s:%d:%d: the server has nothing to rename there", ErrRenameRefused, path, line, col)
	}
	return s.fileEdits(edits, files)
}

// lspRange is a zero-based range in UTF-16 code units.
type lspRange struct {
	Start struct{ Line, Character int } `json:"start"`
	End   struct{ Line, Character int } `json:"end"`
}

type lspTextEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

// uriEdits are the edits the server gives one document.
type uriEdits struct {
	uri   string
	edits []lspTextEdit
}

// decodeWorkspaceEdit reads a WorkspaceEdit: its documentChanges (text
// document edits only) or, without them, its changes. It refuses file
// operations, and answers past the bounds on files, edits and text.
func decodeWorkspaceEdit(raw json.RawMessage) ([]uriEdits, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil, nil
	}
	var we struct {
		Changes         map[string][]lspTextEdit `json:"changes"`
		DocumentChanges []json.RawMessage        `json:"documentChanges"`
	}
	if err := json.Unmarshal(raw, &we); err != nil {
		return nil, err
	}
	var out []uriEdits
	if we.DocumentChanges != nil {
		for i, dc := range we.DocumentChanges {
			var d struct {
				Kind         string `json:"kind"`
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
				Edits []lspTextEdit `json:"edits"`
			}
			if err := json.Unmarshal(dc, &d); err != nil {
				return nil, fmt.Errorf("documentChanges[%d]: %w", i, err)
			}
			if d.Kind != "" {
				return nil, fmt.Errorf("documentChanges[%d] asks to %s a file, which a rename here does not do", i, printable(d.Kind, 20))
			}
			out = append(out, uriEdits{d.TextDocument.URI, d.Edits})
		}
	} else {
		for uri, edits := range we.Changes {
			out = append(out, uriEdits{uri, edits})
		}
	}
	n := 0
	for _, u := range out {
		n += len(u.edits)
		for _, e := range u.edits {
			if len(e.NewText) > maxEditText {
				return nil, fmt.Errorf("an edit of %s inserts %d bytes, over the %d a rename may", printable(u.uri, 200), len(e.NewText), maxEditText)
			}
		}
	}
	if len(out) > maxRenameFiles || n > maxRenameEdits {
		return nil, fmt.Errorf("%d edits in %d files, over the bound of %d edits in %d files", n, len(out), maxRenameEdits, maxRenameFiles)
	}
	return out, nil
}

// fileEdits converts the server's edits to code points, merged by file
// and ordered, checking that each is inside the root and inside its file
// and that none overlap. s.mu is held.
func (s *lspServer) fileEdits(in []uriEdits, files map[string][]string) ([]FileEdits, error) {
	byPath := map[string][]TextEdit{}
	for _, u := range in {
		rel, err := s.editPath(u.uri)
		if err != nil {
			return nil, err
		}
		lines, ok := files[rel]
		if !ok {
			data, err := s.root.ReadFile(rel)
			if err != nil {
				return nil, fmt.Errorf("precision: the rename edits %s, which cannot be read: %w", rel, err)
			}
			lines = splitLines(string(data))
			files[rel] = lines
		}
		for _, e := range u.edits {
			te, err := toTextEdit(e, lines)
			if err != nil {
				return nil, fmt.Errorf("precision: the rename's edit of %s: %w", rel, err)
			}
			byPath[rel] = append(byPath[rel], te)
		}
	}
	out := make([]FileEdits, 0, len(byPath))
	for rel, edits := range byPath {
		slices.SortFunc(edits, func(a, b TextEdit) int {
			return cmp.Or(cmp.Compare(a.StartLine, b.StartLine), cmp.Compare(a.StartColumn, b.StartColumn),
				cmp.Compare(a.EndLine, b.EndLine), cmp.Compare(a.EndColumn, b.EndColumn))
		})
		edits = slices.Compact(edits) // a server may list one edit twice (a file in two projects)
		for i := 1; i < len(edits); i++ {
			a, b := edits[i-1], edits[i]
			if a.EndLine > b.StartLine || a.EndLine == b.StartLine && a.EndColumn > b.StartColumn {
				return nil, fmt.Errorf("precision: the rename's edits of %s overlap at %d:%d", rel, b.StartLine, b.StartColumn)
			}
		}
		out = append(out, FileEdits{Path: rel, Edits: edits})
	}
	slices.SortFunc(out, func(a, b FileEdits) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// editPath returns the project-relative path of an edited document, or
// why it is not one a rename may edit.
func (s *lspServer) editPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("precision: the rename edits %s, which is not a file", printable(uri, 200))
	}
	rel, err := s.root.Rel(u.Path)
	if err != nil {
		return "", fmt.Errorf("precision: the rename edits %s, outside the project root", printable(u.Path, 200))
	}
	return rel, nil
}

// toTextEdit converts one edit, checking that its range is in lines.
func toTextEdit(e lspTextEdit, lines []string) (TextEdit, error) {
	r := e.Range
	point := func(line, char int) (int, error) {
		if line < 0 || line >= len(lines) || char < 0 {
			return 0, fmt.Errorf("position %d:%d is outside the file", line+1, char+1)
		}
		if FromCodePoints(lines[line], utf8.RuneCountInString(lines[line]), UTF16) < char {
			return 0, fmt.Errorf("position %d:%d is past the end of its line", line+1, char+1)
		}
		return ToCodePoints(lines[line], char, UTF16) + 1, nil
	}
	sc, err := point(r.Start.Line, r.Start.Character)
	if err != nil {
		return TextEdit{}, err
	}
	ec, err := point(r.End.Line, r.End.Character)
	if err != nil {
		return TextEdit{}, err
	}
	te := TextEdit{StartLine: r.Start.Line + 1, StartColumn: sc, EndLine: r.End.Line + 1, EndColumn: ec, NewText: e.NewText}
	if te.EndLine < te.StartLine || te.EndLine == te.StartLine && te.EndColumn < te.StartColumn {
		return TextEdit{}, fmt.Errorf("range %d:%d-%d:%d ends before it starts", te.StartLine, te.StartColumn, te.EndLine, te.EndColumn)
	}
	return te, nil
}
