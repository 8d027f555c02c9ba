package depdocs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/redact"
)

// DefaultContext7URL is the Context7 API's base address.
const DefaultContext7URL = "https://context7.com/api"

// Context7Options configures a [Context7] client. The zero value (plus a
// key) is ready to use; callees never modify it.
type Context7Options struct {
	// BaseURL is the API's base address; empty means DefaultContext7URL.
	BaseURL string
	// APIKey is sent as a bearer token. Read it from the configured
	// environment variable only; it never appears in any output or error.
	APIKey string
	// HTTPClient makes the requests; nil means http.DefaultTransport. The
	// client is copied and never follows an HTTP redirect, whatever its
	// CheckRedirect says, so the key never travels to another address.
	HTTPClient *http.Client
	// Timeout bounds one whole Docs call: every request, retry, wait and
	// library redirect; 0 means DefaultDocsTimeout.
	Timeout time.Duration
	// MaxBody caps a response body in bytes; 0 means 2 MiB.
	MaxBody int64
	// Attempts is the number of tries per request (429, 5xx and network
	// errors are retried); 0 means 3.
	Attempts int
	// MaxRetryAfter caps how long a Retry-After is honoured; a longer one
	// gives up with a rate-limited answer. 0 means 10 seconds.
	MaxRetryAfter time.Duration
	// MaxRedirects bounds library_redirected hops; 0 means 3.
	MaxRedirects int
	// Sleep waits between attempts; nil means a context-aware timer.
	// Tests replace it.
	Sleep func(context.Context, time.Duration) error
}

// Context7 is a [DocsProvider] speaking the Context7 HTTP API: it searches
// the library by name, pins the resolved version when the library
// publishes a matching label, and fetches documentation for the question.
// It sends the key only to its BaseURL, only over HTTPS or to a loopback
// address: with any other address every call answers unavailable, wrapping
// [ErrInsecureEndpoint], and sends nothing.
type Context7 struct {
	opts     Context7Options
	red      *redact.Redactor
	endpoint error // why BaseURL is refused, or nil
}

// NewContext7 returns a client; opts are copied.
func NewContext7(opts Context7Options) *Context7 {
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultContext7URL
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultDocsTimeout
	}
	if opts.MaxBody == 0 {
		opts.MaxBody = 2 << 20
	}
	if opts.Attempts == 0 {
		opts.Attempts = 3
	}
	if opts.MaxRetryAfter == 0 {
		opts.MaxRetryAfter = 10 * time.Second
	}
	if opts.MaxRedirects == 0 {
		opts.MaxRedirects = 3
	}
	if opts.Sleep == nil {
		opts.Sleep = sleepCtx
	}
	client := http.Client{}
	if opts.HTTPClient != nil {
		client = *opts.HTTPClient
	}
	// A 301 is the API's own redirect, read from the JSON body; HTTP-level
	// redirects are never followed (net/http would forward the key to
	// another port or a subdomain of the same host).
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	opts.HTTPClient = &client
	return &Context7{opts: opts, red: redact.New(opts.APIKey), endpoint: checkEndpoint(opts.BaseURL)}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// An APIError is a non-success answer of the API.
type APIError struct {
	Status int
	// Code is the API's error code, such as "library_not_found".
	Code    string
	Message string
	// RetryAfter is the server's Retry-After for a 429.
	RetryAfter time.Duration
	// RedirectURL is a 301's new library id.
	RedirectURL string
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("context7: HTTP %d", e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// ErrUnexpectedResponse is matched by responses that break the schema.
var ErrUnexpectedResponse = errors.New("context7: unexpected response")

// ErrTooLarge body is reported through ErrResponseTooLarge.
var ErrResponseTooLarge = errors.New("context7: response over the size cap")

// A searchResult is one library of /v2/libs/search.
type searchResult struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	State    string   `json:"state"`
	Versions []string `json:"versions"`
	Score    *float64 `json:"score"`
}

type searchResponse struct {
	Results *[]searchResult `json:"results"`
}

// decodeSearch validates and decodes a search response: a "results" array
// whose entries have an id of the form "/owner/repo".
func decodeSearch(body []byte) ([]searchResult, error) {
	var r searchResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: search: %v", ErrUnexpectedResponse, err)
	}
	if r.Results == nil {
		return nil, fmt.Errorf("%w: search: no results field", ErrUnexpectedResponse)
	}
	var out []searchResult
	for _, res := range *r.Results {
		if !validLibraryID(res.ID) {
			continue
		}
		out = append(out, res)
	}
	return out, nil
}

func validLibraryID(id string) bool {
	if !strings.HasPrefix(id, "/") || len(id) > 300 || strings.ContainsAny(id, " \t\r\n?#") || strings.Contains(id, "..") {
		return false
	}
	parts := strings.Split(strings.TrimPrefix(id, "/"), "/")
	return len(parts) >= 2 && parts[0] != "" && parts[1] != ""
}

type contextResponse struct {
	CodeSnippets *[]struct {
		CodeTitle       string `json:"codeTitle"`
		CodeDescription string `json:"codeDescription"`
		CodeList        []struct {
			Language string `json:"language"`
			Code     string `json:"code"`
		} `json:"codeList"`
	} `json:"codeSnippets"`
	InfoSnippets *[]struct {
		Breadcrumb string `json:"breadcrumb"`
		Content    string `json:"content"`
	} `json:"infoSnippets"`
}

// decodeContext validates a /v2/context?type=json response and renders
// its snippets as text. A response with neither snippet list, or with no
// text at all, is unexpected.
func decodeContext(body []byte) (string, error) {
	var r contextResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return "", fmt.Errorf("%w: context: %v", ErrUnexpectedResponse, err)
	}
	if r.CodeSnippets == nil && r.InfoSnippets == nil {
		return "", fmt.Errorf("%w: context: neither codeSnippets nor infoSnippets", ErrUnexpectedResponse)
	}
	var b strings.Builder
	if r.InfoSnippets != nil {
		for _, s := range *r.InfoSnippets {
			if strings.TrimSpace(s.Content) == "" {
				continue
			}
			if s.Breadcrumb != "" {
				b.WriteString("## " + s.Breadcrumb + "\n\n")
			}
			b.WriteString(strings.TrimSpace(s.Content) + "\n\n")
		}
	}
	if r.CodeSnippets != nil {
		for _, s := range *r.CodeSnippets {
			var code strings.Builder
			for _, c := range s.CodeList {
				if strings.TrimSpace(c.Code) != "" {
					code.WriteString("```" + c.Language + "\n" + strings.TrimRight(c.Code, "\n") + "\n```\n")
				}
			}
			if code.Len() == 0 {
				continue
			}
			if s.CodeTitle != "" {
				b.WriteString("### " + s.CodeTitle + "\n")
			}
			if s.CodeDescription != "" {
				b.WriteString(s.CodeDescription + "\n")
			}
			b.WriteString(code.String() + "\n")
		}
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return "", fmt.Errorf("%w: context: no snippet has text", ErrUnexpectedResponse)
	}
	return text, nil
}

// errorBody is the API's error shape.
type errorBody struct {
	Error       string `json:"error"`
	Message     string `json:"message"`
	RedirectURL string `json:"redirectUrl"`
}

// get performs one API call with the retry budget and returns the body of
// a 200. Every other status becomes an *APIError.
func (c *Context7) get(ctx context.Context, path string, q url.Values) ([]byte, error) {
	u := c.opts.BaseURL + path + "?" + q.Encode()
	var last error
	for attempt := 1; attempt <= c.opts.Attempts; attempt++ {
		body, err := c.once(ctx, u)
		if err == nil {
			return body, nil
		}
		last = err
		var ae *APIError
		wait := time.Duration(attempt) * 200 * time.Millisecond
		switch {
		case ctx.Err() != nil:
			return nil, err
		case errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests:
			if ae.RetryAfter > c.opts.MaxRetryAfter {
				return nil, err // waiting that long is not a small budget
			}
			if ae.RetryAfter > 0 {
				wait = ae.RetryAfter
			}
		case errors.As(err, &ae) && ae.Status >= 500:
		case errors.As(err, &ae):
			return nil, err // 202, 301 and 4xx are answers, not failures
		case errors.Is(err, ErrResponseTooLarge), errors.Is(err, ErrUnexpectedResponse):
			return nil, err
		}
		if attempt < c.opts.Attempts {
			if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
				return nil, err // the call's deadline comes before the next try
			}
			if err := c.opts.Sleep(ctx, wait); err != nil {
				return nil, err
			}
		}
	}
	return nil, last
}

func (c *Context7) once(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "codecortex")
	if c.opts.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.opts.APIKey)
	}
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxBody+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > c.opts.MaxBody {
		return nil, fmt.Errorf("%w (%d bytes)", ErrResponseTooLarge, c.opts.MaxBody)
	}
	if resp.StatusCode == http.StatusOK {
		return body, nil
	}
	ae := &APIError{Status: resp.StatusCode}
	var eb errorBody
	if json.Unmarshal(body, &eb) == nil {
		ae.Code, ae.RedirectURL = eb.Error, eb.RedirectURL
		ae.Message = truncate(eb.Message, 300)
	}
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		if s, err := strconv.Atoi(strings.TrimSpace(ra)); err == nil && s >= 0 {
			ae.RetryAfter = time.Duration(s) * time.Second
		} else if t, err := http.ParseTime(ra); err == nil {
			ae.RetryAfter = max(time.Until(t), 0)
		}
	}
	return nil, ae
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Docs implements [DocsProvider]. The whole call, retries included, ends
// by the Timeout deadline.
func (c *Context7) Docs(ctx context.Context, req DocsRequest) (Resolution, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	res, err := c.docs(ctx, req)
	// Nothing the key could leak through: the answer, the reason and the
	// error are redacted on the way out.
	res = redactResolution(c.red, res)
	if err != nil {
		err = c.red.Error(err)
	}
	return res, err
}

// redactResolution masks secrets in every text of r.
func redactResolution(red *redact.Redactor, r Resolution) Resolution {
	r.Library, r.Version, r.Reason = red.String(r.Library), red.String(r.Version), red.String(r.Reason)
	r.LibraryID, r.Label, r.Content = red.String(r.LibraryID), red.String(r.Label), red.String(r.Content)
	return r
}

func (c *Context7) docs(ctx context.Context, req DocsRequest) (Resolution, error) {
	if req.Source.Local() {
		return unavailable(req, DocsUnavailable, fmt.Sprintf("%s is a %s dependency; local, git, path and replaced dependencies are never sent to a documentation provider", req.Name, req.Source)), nil
	}
	if c.endpoint != nil {
		return unavailable(req, DocsUnavailable, c.endpoint.Error()), c.endpoint
	}
	if c.opts.APIKey == "" {
		return unavailable(req, DocsNoCredentials, "no API key"), nil
	}
	// The question leaves the machine: anything shaped like a credential
	// in it is masked first.
	question := c.red.String(req.Question)
	if strings.TrimSpace(question) == "" {
		question = req.Name
	}
	body, err := c.get(ctx, "/v2/libs/search", url.Values{"libraryName": {req.Name}, "query": {question}})
	if err != nil {
		return c.failure(req, "search", err), err
	}
	results, err := decodeSearch(body)
	if err != nil {
		return c.failure(req, "search", err), err
	}
	if len(results) == 0 {
		return unavailable(req, DocsUnavailable, "the provider has no library named "+req.Name), nil
	}
	lib := pickLibrary(results, req.Name)
	if lib.State != "" && lib.State != "finalized" {
		if lib.State == "initial" {
			return unavailable(req, DocsPending, "the provider is still preparing "+lib.ID), nil
		}
		return unavailable(req, DocsUnavailable, "the provider's entry "+lib.ID+" is in state "+lib.State), nil
	}
	m := MatchLabel(req.Ecosystem, req.Version, lib.Versions)
	id := lib.ID
	if m.Exact {
		id = lib.ID + "/" + m.Label
	}
	for hop := 0; ; hop++ {
		body, err = c.get(ctx, "/v2/context", url.Values{"libraryId": {id}, "query": {question}, "type": {"json"}})
		var ae *APIError
		if errors.As(err, &ae) && ae.Status == http.StatusMovedPermanently && ae.Code == "library_redirected" {
			next := ae.RedirectURL
			if hop+1 > c.opts.MaxRedirects || !validLibraryID(next) || next == id {
				why := "redirected too often"
				if !validLibraryID(next) {
					why = "redirected to an invalid library id"
				} else if next == id {
					why = "redirected to itself"
				}
				return unavailable(req, DocsUnavailable, "the provider "+why), err
			}
			id = next
			continue
		}
		if err != nil {
			return c.failure(req, "documentation", err), err
		}
		break
	}
	text, err := decodeContext(body)
	if err != nil {
		return c.failure(req, "documentation", err), err
	}
	r := Resolution{Library: req.Name, Version: req.Version, LibraryID: id, Content: text, FetchedAt: time.Now().UTC()}
	if m.Exact {
		r.State, r.Exact, r.Label = DocsExact, true, m.Label
	} else {
		r.State = DocsFallback
		switch {
		case req.Version == "":
			r.Reason = "no resolved version to pin; the provider's default branch answered"
		default:
			r.Reason = fmt.Sprintf("the provider publishes no label for %s %s (it has %d labels); its default branch answered, which is not a release", req.Name, req.Version, len(lib.Versions))
		}
	}
	return r, nil
}

// pickLibrary prefers a result whose title or repository name is the
// library's name, else the provider's first (best-scored) result.
func pickLibrary(results []searchResult, name string) searchResult {
	short := strings.ToLower(name[strings.LastIndexAny(name, "/:")+1:])
	for _, r := range results {
		repo := strings.ToLower(r.ID[strings.LastIndex(r.ID, "/")+1:])
		if strings.EqualFold(r.Title, name) || repo == short || strings.TrimSuffix(repo, ".js") == short {
			return r
		}
	}
	return results[0]
}

// failure turns an error into the resolution a caller sees.
func (c *Context7) failure(req DocsRequest, step string, err error) Resolution {
	var ae *APIError
	var ne net.Error
	switch {
	case errors.As(err, &ae):
		switch {
		case ae.Status == http.StatusAccepted:
			// The body explains that the library is being prepared; it is
			// never documentation.
			return unavailable(req, DocsPending, "the provider accepted the library but has not finished preparing it")
		case ae.Status == http.StatusTooManyRequests:
			return unavailable(req, DocsUnavailable, "rate-limited by the provider"+retryNote(ae.RetryAfter))
		case ae.Status == http.StatusUnauthorized:
			return unavailable(req, DocsUnavailable, "the provider rejected the API key ("+firstNonEmpty(ae.Code, "401")+")")
		case ae.Status == http.StatusPaymentRequired || ae.Status == http.StatusForbidden:
			return unavailable(req, DocsUnavailable, fmt.Sprintf("the provider refused the request (HTTP %d %s)", ae.Status, ae.Code))
		case ae.Status == http.StatusNotFound:
			return unavailable(req, DocsUnavailable, "not found at the provider ("+firstNonEmpty(ae.Code, "404")+")")
		case ae.Status >= 500:
			return unavailable(req, DocsUnavailable, fmt.Sprintf("the provider failed (HTTP %d) after %d attempts", ae.Status, c.opts.Attempts))
		}
		return unavailable(req, DocsUnavailable, fmt.Sprintf("the provider answered %s with HTTP %d %s", step, ae.Status, ae.Code))
	case errors.Is(err, ErrResponseTooLarge):
		return unavailable(req, DocsUnavailable, "the provider's "+step+" response was over the size cap")
	case errors.Is(err, ErrUnexpectedResponse):
		return unavailable(req, DocsUnavailable, "the provider's "+step+" response did not have the expected shape")
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return unavailable(req, DocsUnavailable, fmt.Sprintf("offline: the provider did not answer within %s", c.opts.Timeout))
	case errors.Is(err, context.Canceled):
		return unavailable(req, DocsUnavailable, "cancelled")
	}
	return unavailable(req, DocsUnavailable, "offline: "+step+" request failed: "+err.Error())
}

func retryNote(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf(" (retry after %s)", d)
}
