package index

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/codecortex/codecortex/symbols"
)

// The facts table holds each file's symbols as one value (encodeSymbols),
// beside their rows in symbols: the project graph reads every file's
// symbols at once, which a value a file, decoded on every CPU, serves at
// a fraction of the cost of a row a symbol read column by column.

// factsOrder sorts symbols as the graph reads them: by start, outer
// before inner (the longer first), then by where the name starts; in
// the order given where those are the same.
func factsOrder(syms []symbols.Symbol) []symbols.Symbol {
	out := slices.Clone(syms)
	slices.SortStableFunc(out, func(a, b symbols.Symbol) int {
		return cmp.Or(cmp.Compare(a.Range.StartByte, b.Range.StartByte), cmp.Compare(b.Range.EndByte, a.Range.EndByte),
			cmp.Compare(a.NameRange.StartByte, b.NameRange.StartByte))
	})
	return out
}

// encodeSymbols writes a file's symbols in factsOrder: for each, its
// name, kind, container, package (pkg when it has none, as its row says)
// and signature, each a length and the bytes, then whether it is
// exported, the six numbers of its name's range and of its range, and its
// doc line, as signed varints.
func encodeSymbols(syms []symbols.Symbol, pkg string) []byte {
	syms = factsOrder(syms)
	size := 0
	for i := range syms {
		s := &syms[i]
		size += len(s.Name) + len(s.Kind) + len(s.Container) + len(s.Package) + len(s.Signature) + 24
	}
	buf := make([]byte, 0, size)
	str := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	for i := range syms {
		s := &syms[i]
		p := s.Package
		if p == "" {
			p = pkg
		}
		for _, v := range [...]string{s.Name, string(s.Kind), s.Container, p, s.Signature} {
			str(v)
		}
		exported := int64(0)
		if s.Exported {
			exported = 1
		}
		n, r := &s.NameRange, &s.Range
		for _, v := range [...]int{n.StartLine, n.StartColumn, n.EndLine, n.EndColumn, n.StartByte, n.EndByte,
			r.StartLine, r.StartColumn, r.EndLine, r.EndColumn, r.StartByte, r.EndByte, s.DocLine} {
			buf = binary.AppendVarint(buf, int64(v))
		}
		buf = binary.AppendVarint(buf, exported)
	}
	return buf
}

// decodeSymbols reads what encodeSymbols wrote, up to the first symbol
// too short to hold its fields; strings through in.
func decodeSymbols(b []byte, in interner) []symbols.Symbol {
	out := make([]symbols.Symbol, 0, len(b)/64) // a symbol takes 60 to 80 bytes in practice
	str := func() (string, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return "", false
		}
		s := in.str(b[k : k+int(n)])
		b = b[k+int(n):]
		return s, true
	}
	num := func() (int, bool) {
		v, k := binary.Varint(b)
		if k <= 0 || v < -1<<31 || v > 1<<31 {
			return 0, false
		}
		b = b[k:]
		return int(v), true
	}
	for len(b) > 0 {
		var s symbols.Symbol
		var kind string
		var ok bool
		for _, p := range [...]*string{&s.Name, &kind, &s.Container, &s.Package, &s.Signature} {
			if *p, ok = str(); !ok {
				return out
			}
		}
		s.Kind = symbols.Kind(kind)
		n, r := &s.NameRange, &s.Range
		var exported int
		for _, p := range [...]*int{&n.StartLine, &n.StartColumn, &n.EndLine, &n.EndColumn, &n.StartByte, &n.EndByte,
			&r.StartLine, &r.StartColumn, &r.EndLine, &r.EndColumn, &r.StartByte, &r.EndByte, &s.DocLine, &exported} {
			if *p, ok = num(); !ok {
				return out
			}
		}
		s.Exported = exported != 0
		out = append(out, s)
	}
	return out
}
