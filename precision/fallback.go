package precision

import (
	"context"
	"errors"
	"fmt"

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

// Name returns "precision". The server's records keep their provenance
// (language-server, near_exact at most) and name the server in the "via"
// attribute; their provider is the fallback's, as a provider's records are.
func (f *Fallback) Name() string { return Name }

// Gather asks the index, then the server if the index gave no fresh
// answer. When both fail, the error names both reasons; when the index
// answered (stale, or with nothing) and the server failed, the report's
// reason says why the server did not help.
func (f *Fallback) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	resp, err := f.Index.Gather(ctx, q)
	if err == nil && resp.Report.State != evidence.StaleState && len(resp.Records) > 0 {
		return resp, nil
	}
	if f.Server == nil || (q.Path == "" && q.Symbol == "") || errors.Is(err, evidence.ErrDisabled) {
		return resp, err
	}
	lresp, lerr := f.Server.Gather(ctx, q)
	if lerr != nil {
		if err != nil {
			ue := &evidence.UnavailableError{Reason: "neither the index nor the language server answered",
				Err: fmt.Errorf("%w; language server fallback: %w", err, lerr)}
			var iue *evidence.UnavailableError
			if errors.As(err, &iue) {
				ue.Guidance = iue.Guidance
			}
			return resp, ue
		}
		resp.Report.Reason = joinReasons(resp.Report.Reason, "the language server fallback failed: "+lerr.Error())
		if resp.Report.State == "" {
			resp.Report.State = evidence.Available
		}
		return resp, nil
	}
	for i := range lresp.Records {
		r := &lresp.Records[i]
		if r.Metadata.Attributes == nil {
			r.Metadata.Attributes = map[string]string{}
		}
		r.Metadata.Attributes["via"] = r.Provider
		r.Provider = Name
	}
	out := evidence.Response{Records: append(resp.Records, lresp.Records...), Report: resp.Report}
	out.Report.Dropped = append(out.Report.Dropped, lresp.Report.Dropped...)
	if len(lresp.Records) == 0 && lresp.Report.Reason != "" {
		out.Report.Reason = joinReasons(out.Report.Reason, "language server: "+lresp.Report.Reason)
	}
	if err != nil {
		guidance := ""
		var ue *evidence.UnavailableError
		if errors.As(err, &ue) {
			guidance = ue.Guidance
		}
		out.Report = evidence.Report{State: evidence.Available, Guidance: guidance,
			Reason:  "index unavailable (" + err.Error() + "); answered by the language server (near_exact)",
			Dropped: lresp.Report.Dropped}
		if len(lresp.Records) == 0 && lresp.Report.Reason != "" {
			out.Report.Reason = "index unavailable (" + err.Error() + "); language server: " + lresp.Report.Reason
		}
	}
	if out.Report.State == "" {
		out.Report.State = evidence.Available
	}
	return out, nil
}

func joinReasons(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
