package index

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/symbols"
)

// NamedMore is what the caller of [Index.FactsNamed] asks to read next:
// the facts of the files that define one of Names, of the files at
// Paths, and of the files that use or import one of Aliases.
type NamedMore struct {
	Names []string
	Paths []string
	// Aliases are other names for the name asked about, which some module
	// binds it to and exports (export { name as alias } from …): a use of
	// one may be a use of name through that module, so the files that use
	// or import it are read as those of name are, with their uses of it.
	Aliases []string
	// Stop ends the read: the caller has what it needs, or will not use
	// the facts.
	Stop bool
}

// maxNamedRounds bounds how many times FactsNamed asks for more.
const maxNamedRounds = 8

// FactsNamed is [Index.Facts] for a question about one name: Files lists
// every file the index has checked, in path order, with the same Version
// and Freshness as Facts, but only some carry their symbols, imports and
// refs: the files that define name, use it (a ref of that name, or of
// that Of), import it (by name or alias) or import everything of a module
// ("*"), then those more asks for. more gets the files so far and which
// of them carry their facts (loaded, by index in files): first with only
// the files that define name, then after each read; it is called until
// it asks for nothing new or to stop, at most maxNamedRounds times after
// the first. The refs a file carries are only its uses of name or of an
// alias asked for (or of a local name an import of one binds), the member
// each such use is selected from when it is written just before it (f in
// p.f.name), and its inheritance refs (bases, whatever they name), and in
// Python the assignments of the object's fields whose value shows a type
// (self.f = T(…), see [symbols.Ref.Type]); a file without its facts read
// has only Path, Language, Package and Stale.
func (ix *Index) FactsNamed(ctx context.Context, name string, more func(files []FileFacts, loaded []bool) NamedMore) (Facts, error) {
	var res Facts
	fr, err := ix.read(ctx, ix.opts.budget(), nil, false, func(s snapshot) error {
		return s.inFactsTx(ctx, func(tx *sql.Tx, version string) error {
			res = Facts{Version: version}
			nr := namedReader{ctx: ctx, tx: tx, name: name}
			defer nr.close()
			if err := nr.files(s.pending); err != nil {
				return err
			}
			// The definitions first: more may stop there.
			if _, err := nr.load(`SELECT file_id FROM symbols WHERE name = ?1`, name, false); err != nil {
				return err
			}
			if more != nil && more(nr.out, nr.loaded).Stop {
				res.Files = nr.out
				return nil
			}
			_, err := nr.load(`SELECT file_id FROM ref_names WHERE name = ?1
				UNION SELECT file_id FROM imports WHERE name = ?1 OR alias = ?1 OR name = '*'`, name, false)
			for round := 0; err == nil && round < maxNamedRounds && more != nil; round++ {
				m := more(nr.out, nr.loaded)
				if m.Stop {
					break
				}
				var n int
				if n, err = nr.more(m); n == 0 {
					break
				}
			}
			res.Files = nr.out
			return err
		})
	})
	res.Freshness = fr
	return res, err
}

// FactsOf is [Index.Facts] for the files at paths (root-relative,
// slash-separated) alone: Files holds those the index has checked, in path
// order, each with its symbols, imports and every ref, with the same
// Version and Freshness as Facts. A path the index does not hold is left
// out.
func (ix *Index) FactsOf(ctx context.Context, paths []string) (Facts, error) {
	var res Facts
	fr, err := ix.read(ctx, ix.opts.budget(), nil, false, func(s snapshot) error {
		return s.inFactsTx(ctx, func(tx *sql.Tx, version string) error {
			res = Facts{Version: version}
			nr := namedReader{ctx: ctx, tx: tx, whole: true}
			defer nr.close()
			if err := nr.files(s.pending); err != nil {
				return err
			}
			if _, err := nr.more(NamedMore{Paths: paths}); err != nil {
				return err
			}
			for i, f := range nr.out {
				if nr.loaded[i] {
					res.Files = append(res.Files, f)
				}
			}
			return nil
		})
	})
	res.Freshness = fr
	return res, err
}

// inFactsTx calls fn in the snapshot's read transaction (one begun for it
// when the snapshot has none) with the name of the state of the index it
// reads there (see Facts.Version).
func (s snapshot) inFactsTx(ctx context.Context, fn func(tx *sql.Tx, version string) error) error {
	tx := s.tx
	if tx == nil {
		t, err := s.st.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer t.Rollback()
		tx = t
	}
	v, err := factsVersion(ctx, tx, s)
	if err != nil {
		return err
	}
	return fn(tx, v)
}

// factsVersion names the state of the index s reads in tx (see
// Facts.Version).
func factsVersion(ctx context.Context, tx *sql.Tx, s snapshot) (string, error) {
	var gen int64
	if err := tx.QueryRowContext(ctx, sqlGeneration).Scan(&gen); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	v := s.st.key + ":" + strconv.FormatInt(gen, 10)
	if len(s.pending) > 0 {
		// Pending files answer stale: a later refresh may change them
		// without the caller's version saying so otherwise.
		v += ":p" + strconv.Itoa(len(s.pending))
	}
	return v, nil
}

// A namedReader reads the facts of some files for FactsNamed.
type namedReader struct {
	ctx     context.Context
	tx      *sql.Tx
	out     []FileFacts
	loaded  []bool
	nloaded int // files loaded
	ids     []int64
	byID    map[int64]int
	byPath  map[string]int
	name    string   // asked about
	aliases []string // other names of it asked for (NamedMore.Aliases)
	whole   bool     // every ref of a file read, not only its uses of name
	// The statements read runs, prepared once.
	syms, imps, refs *sql.Stmt
}

// files lists every verified file, without its facts, in path order:
// read in the table's order (one pass, no lookup a row) and sorted here.
func (nr *namedReader) files(pending map[string]bool) error {
	type row struct {
		id                        int64
		path, lang, pkgName, hash string
	}
	var rows []row
	err := eachRow(nr.ctx, nr.tx, `SELECT id, path, language, package, hash FROM files WHERE `+factsFiles, func(rs *sql.Rows) error {
		var r row
		if err := rs.Scan(&r.id, &r.path, &r.lang, &r.pkgName, &r.hash); err != nil {
			return err
		}
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.path, b.path) })
	nr.byID, nr.byPath = make(map[int64]int, len(rows)), make(map[string]int, len(rows))
	nr.out, nr.ids = make([]FileFacts, 0, len(rows)), make([]int64, 0, len(rows))
	for _, r := range rows {
		nr.byID[r.id] = len(nr.out)
		nr.byPath[r.path] = len(nr.out)
		nr.out = append(nr.out, FileFacts{Path: r.path, Language: r.lang, Package: r.pkgName, Hash: r.hash, Stale: pending[r.path]})
		nr.ids = append(nr.ids, r.id)
	}
	nr.loaded = make([]bool, len(nr.out))
	return nil
}

// more reads what m asks for and returns how many files it read (a file
// read again for an alias's uses counts).
func (nr *namedReader) more(m NamedMore) (int, error) {
	n := 0
	for _, p := range m.Paths {
		if i, ok := nr.byPath[p]; ok && !nr.loaded[i] {
			if err := nr.read(i); err != nil {
				return n, err
			}
			n++
		}
	}
	for _, name := range m.Names {
		before := nr.count()
		if _, err := nr.load(`SELECT file_id FROM symbols WHERE name = ?1`, name, false); err != nil {
			return n, err
		}
		n += nr.count() - before
	}
	for _, a := range m.Aliases {
		if a == nr.name || slices.Contains(nr.aliases, a) || len(nr.aliases) >= maxNamedAliases {
			continue
		}
		nr.aliases = append(nr.aliases, a)
		before := nr.count()
		// A file read before kept only its uses of the names asked until
		// now: it is read again, with its uses of this one.
		again, err := nr.load(`SELECT file_id FROM ref_names WHERE name = ?1
			UNION SELECT file_id FROM imports WHERE name = ?1 OR alias = ?1`, a, true)
		if err != nil {
			return n, err
		}
		n += nr.count() - before + again
	}
	return n, nil
}

// maxNamedAliases bounds the aliases FactsNamed reads the uses of.
const maxNamedAliases = 16

func (nr *namedReader) count() int { return nr.nloaded }

// load reads the facts of the files query (one argument, arg) selects;
// with again, also those of the files it selects that were read before,
// and it returns how many of those it read again.
func (nr *namedReader) load(query string, arg string, again bool) (int, error) {
	rs, err := nr.tx.QueryContext(nr.ctx, query, arg)
	if err != nil {
		return 0, err
	}
	var todo []int
	reread := 0
	for rs.Next() {
		var id int64
		if err := rs.Scan(&id); err != nil {
			rs.Close()
			return 0, err
		}
		i, ok := nr.byID[id]
		if ok && nr.loaded[i] && again {
			f := &nr.out[i]
			f.Symbols, f.Imports, f.Refs = nil, nil, nil
			nr.loaded[i] = false
			nr.nloaded--
			reread++
		}
		if ok && !nr.loaded[i] {
			todo = append(todo, i)
		}
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return 0, err
	}
	for _, i := range todo {
		if err := nr.read(i); err != nil {
			return 0, err
		}
	}
	return reread, nil
}

// prepare prepares the statements read runs, once.
func (nr *namedReader) prepare() error {
	if nr.syms != nil {
		return nil
	}
	var err error
	prep := func(q string) *sql.Stmt {
		var st *sql.Stmt
		if err == nil {
			st, err = nr.tx.PrepareContext(nr.ctx, q)
		}
		return st
	}
	nr.syms = prep(`SELECT name, kind, container, package, signature, exported,
		name_line, name_col, name_eline, name_ecol, name_byte, name_ebyte,
		start_line, start_col, end_line, end_col, start_byte, end_byte, doc_line
		FROM symbols WHERE file_id = ? ORDER BY start_byte, end_byte DESC, name_byte`)
	nr.imps = prep(`SELECT path, name, alias, start_line, start_col, end_line, end_col FROM imports WHERE file_id = ? ORDER BY id`)
	nr.refs = prep(`SELECT data FROM refs WHERE file_id = ?`)
	if err != nil {
		nr.close()
		nr.syms = nil
	}
	return err
}

// close closes the prepared statements.
func (nr *namedReader) close() {
	for _, st := range []*sql.Stmt{nr.syms, nr.imps, nr.refs} {
		if st != nil {
			st.Close()
		}
	}
}

// read reads the symbols, imports and refs of the file at index i.
func (nr *namedReader) read(i int) error {
	if nr.loaded[i] {
		return nil
	}
	nr.loaded[i] = true
	nr.nloaded++
	if err := nr.prepare(); err != nil {
		return err
	}
	ctx, id, f := nr.ctx, nr.ids[i], &nr.out[i]
	rs, err := nr.syms.QueryContext(ctx, id)
	if err != nil {
		return err
	}
	for rs.Next() {
		var s symbols.Symbol
		var kind string
		n, r := &s.NameRange, &s.Range
		if err := rs.Scan(&s.Name, &kind, &s.Container, &s.Package, &s.Signature, &s.Exported,
			&n.StartLine, &n.StartColumn, &n.EndLine, &n.EndColumn, &n.StartByte, &n.EndByte,
			&r.StartLine, &r.StartColumn, &r.EndLine, &r.EndColumn, &r.StartByte, &r.EndByte, &s.DocLine); err != nil {
			rs.Close()
			return err
		}
		s.Kind = symbols.Kind(kind)
		f.Symbols = append(f.Symbols, s)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return err
	}
	rs, err = nr.imps.QueryContext(ctx, id)
	if err != nil {
		return err
	}
	for rs.Next() {
		var im symbols.Import
		r := &im.Range
		if err := rs.Scan(&im.Path, &im.Name, &im.Alias, &r.StartLine, &r.StartColumn, &r.EndLine, &r.EndColumn); err != nil {
			rs.Close()
			return err
		}
		f.Imports = append(f.Imports, im)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return err
	}
	var data []byte
	err = nr.refs.QueryRowContext(ctx, id).Scan(&data)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if nr.whole {
		f.Refs = decodeRefsWhere(nil, data, nil, nil)
		return nil
	}
	local := append([]string{nr.name}, nr.aliases...)
	for _, im := range f.Imports {
		if im.Alias != "" && (im.Name == nr.name || slices.Contains(nr.aliases, im.Name)) {
			local = append(local, im.Alias)
		}
	}
	python := f.Language == "python"
	f.Refs = decodeRefsWhere(nil, data, func(r *symbols.Ref, n []byte) bool {
		return r.Kind == symbols.Inherit || slices.Contains(local, string(n)) ||
			python && r.Qualifier == "self" && r.Type != "" && !r.Selected
	}, nil)
	return nil
}

// refNames returns the names refs use, each once, in order of first use:
// a ref's name, and the Of of an inheritance ref.
func refNames(refs []symbols.Ref) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, r := range refs {
		add(r.Name)
		add(r.Of)
	}
	return out
}
