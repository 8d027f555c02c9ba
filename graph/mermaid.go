package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/internal/mermaid"
)

// DefaultMermaidNodes is how many nodes [Impact.Mermaid] draws when asked
// for none.
const DefaultMermaidNodes = 40

// Mermaid draws the impact as a mermaid flowchart of at most maxNodes
// nodes (0: DefaultMermaidNodes): the changed definitions (class
// changed), then the nearest callers, each with the edge it was reached
// by labelled with its kind and trust tier, tests among them (class
// test), then the test files named after changed files (dotted edges),
// and a last node saying what was left out. Every name is escaped: no
// name can end its label or add a statement.
func (im *Impact) Mermaid(maxNodes int) []byte {
	if maxNodes <= 0 {
		maxNodes = DefaultMermaidNodes
	}
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	b.WriteString("  classDef changed stroke-width:3px\n")
	b.WriteString("  classDef test stroke-dasharray:4 4\n")
	id := map[string]string{} // a node's key to its id
	var named []TestHit       // test files named after a changed file
	for _, t := range im.Tests {
		if t.Symbol == "" {
			named = append(named, t)
		}
	}
	allNamed := len(named)
	// The changed first, the named tests a quarter of the room at most,
	// the callers nearest first in the rest.
	room := maxNodes
	affected := im.Affected[:min(len(im.Affected), max(room-room/4, 1))]
	room -= len(affected)
	named = named[:min(len(named), room/4)]
	room -= len(named)
	callers := im.Callers[:min(len(im.Callers), room)]
	node := func(key, label, class string) {
		id[key] = "n" + strconv.Itoa(len(id))
		fmt.Fprintf(&b, "  %s[\"%s\"]", id[key], label)
		if class != "" {
			b.WriteString(":::" + class)
		}
		b.WriteByte('\n')
	}
	for _, h := range affected {
		node(h.Symbol, hitLabel(h), "changed")
	}
	for _, h := range callers {
		if _, ok := id[h.Symbol]; ok {
			continue
		}
		class := ""
		if h.Test {
			class = "test"
		}
		node(h.Symbol, hitLabel(h), class)
	}
	for _, t := range named {
		node("test file\x00"+t.Path, "test file "+mermaid.Label(t.Path), "test")
	}
	for _, h := range callers {
		if h.Via == nil {
			continue
		}
		if to, ok := id[h.Via.To]; ok {
			fmt.Fprintf(&b, "  %s -->|\"%s\"| %s\n", id[h.Symbol], mermaid.Label(string(h.Via.Kind)+", "+h.Via.Tier.String()), to)
		}
	}
	for _, t := range named {
		for _, h := range affected {
			if h.Path == strings.TrimPrefix(t.Why, "named after ") {
				fmt.Fprintf(&b, "  %s -.->|\"%s\"| %s\n", id["test file\x00"+t.Path], mermaid.Label("named after, "+t.Tier.String()), id[h.Symbol])
			}
		}
	}
	if left := im.leftOut(len(affected), len(callers), allNamed-len(named)); left != "" {
		fmt.Fprintf(&b, "  more[\"%s\"]\n", mermaid.Label("not drawn: "+left+" - the text and JSON forms list them"))
	}
	return []byte(b.String())
}

// leftOut says what a chart leaves out that draws the first affected
// hits and callers and leaves out named test files named after changed
// files; "" for nothing.
func (im *Impact) leftOut(affected, callers, named int) string {
	var left []string
	if n := len(im.Affected) - affected; n > 0 {
		left = append(left, fmt.Sprintf("%d changed", n))
	}
	if n := len(im.Callers) - callers; n > 0 {
		tests := 0
		for _, h := range im.Callers[callers:] {
			if h.Test {
				tests++
			}
		}
		left = append(left, fmt.Sprintf("%d callers, %d of them tests", n, tests))
	}
	if named > 0 {
		left = append(left, fmt.Sprintf("%d test files named after changed files", named))
	}
	if im.Truncated {
		left = append(left, fmt.Sprintf("the walk stopped at %d nodes", im.MaxNodes))
	}
	return strings.Join(left, ", ")
}

// hitLabel is a hit's label: what it is, then where.
func hitLabel(h Hit) string {
	if h.Kind == NodeKindFile || h.Line == 0 {
		return mermaid.Label("file") + mermaid.Break + mermaid.Label(h.Path)
	}
	name := h.Name
	if h.Container != "" {
		name = strings.TrimLeft(h.Container, "*&") + "." + h.Name
	}
	return mermaid.Label(h.Kind+" "+name) + mermaid.Break + mermaid.Label(h.Path+":"+strconv.Itoa(h.Line))
}
