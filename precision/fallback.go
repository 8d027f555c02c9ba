package precision

import (
	"context"
	"errors"

	"github.com/codecortex/codecortex/evidence"
)

// A Fallback answers from the index when it has a fresh answer and asks the
// language server when it has none: no index, an unusable one, a stale one,
// or no symbol at the position. A stale index's records are kept beside the
// server's (marked stale, so they rank below them).
type Fallback struct {
	Index  *Provider
	Server *LSPProvider
}

// Name returns "precision".
func (f *Fallback) Name() string { return Name }

// Gather asks the index, then the server if the index gave no fresh
// answer.
func (f *Fallback) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	resp, err := f.Index.Gather(ctx, q)
	if err == nil && resp.Report.State != evidence.StaleState && len(resp.Records) > 0 {
		return resp, nil
	}
	if f.Server == nil || q.Path == "" || errors.Is(err, evidence.ErrDisabled) {
		return resp, err
	}
	lresp, lerr := f.Server.Gather(ctx, q)
	if lerr != nil {
		if err != nil {
			return resp, err
		}
		resp.Report.Dropped = append(resp.Report.Dropped, "language server fallback failed: "+lerr.Error())
		return resp, nil
	}
	out := evidence.Response{Records: append(resp.Records, lresp.Records...), Report: resp.Report}
	out.Report.Dropped = append(out.Report.Dropped, lresp.Report.Dropped...)
	var ue *evidence.UnavailableError
	switch {
	case errors.As(err, &ue):
		out.Report = evidence.Report{State: evidence.Available, Guidance: ue.Guidance,
			Reason:  "index unavailable (" + ue.Error() + "); answered by the language server (near_exact)",
			Dropped: lresp.Report.Dropped}
	case err != nil:
		out.Report = evidence.Report{State: evidence.Available,
			Reason:  "index unavailable (" + err.Error() + "); answered by the language server (near_exact)",
			Dropped: lresp.Report.Dropped}
	}
	return out, nil
}
