package codecortex

import (
	"context"
	"errors"
	"fmt"

	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/history"
)

// ChangeTargets turns what changed since rev (work tree and untracked
// files included) into the targets of an impact analysis: each changed
// file by the lines that differ, and whole when it has no lines to show
// (untracked, binary, a rename alone) or when the diff is past the output
// limit. A deleted file is not a target (the graph no longer holds it):
// the notes say so, and how the change was read.
func ChangeTargets(ctx context.Context, repo *history.Repo, rev string) ([]graph.Target, []string, error) {
	cs, err := repo.Changes(ctx, rev)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	lines, err := repo.ChangedLines(ctx, rev)
	switch {
	case errors.Is(err, history.ErrTruncated):
		notes = append(notes, "the diff since "+rev+" is past the output limit: each changed file is taken whole")
		lines = nil
	case err != nil:
		return nil, nil, err
	}
	var targets []graph.Target
	byLines, whole := 0, 0
	for _, ch := range cs.Changes {
		if ch.Status == history.Deleted {
			notes = append(notes, ch.Path+": deleted since "+rev+"; its callers are no longer in the graph")
			continue
		}
		rs, ok := lines[ch.Path]
		if !ok {
			targets = append(targets, graph.Target{Path: ch.Path})
			whole++
			continue
		}
		for _, r := range rs {
			targets = append(targets, graph.Target{Path: ch.Path, StartLine: r.Start, EndLine: r.End})
		}
		byLines++
	}
	notes = append(notes, fmt.Sprintf("%d files changed since %s: %d by the lines that differ, %d whole (untracked, binary or renamed)",
		len(cs.Changes), rev, byLines, whole))
	return targets, notes, nil
}
