// Package redact removes secrets from text before it reaches a diagnostic,
// an error, a log or a trace: the configured API key's value wherever it
// appears — as it is, JSON-escaped or URL-escaped — and anything shaped like
// a credential.
//
// # What counts as a credential
//
// Known token formats are masked whole: bearer tokens, Authorization header
// values, Context7 keys (ctx7sk…), OpenAI/Anthropic-style keys (sk-…), Stripe
// keys, GitHub tokens (ghp_…, github_pat_…), AWS access key ids (AKIA…),
// Google API keys, npm and Slack tokens, JSON Web Tokens and PEM private key
// blocks. A value given under a secret-sounding name is masked and the name
// kept, so "password=[REDACTED]" still says what was there: name=value,
// name: value, quoted values, --name value flags, JSON "name": "value" pairs,
// and the password in a URL's user:password@host.
//
// A secret-sounding name is one that ends in password, passwd, passphrase,
// secret, token, api_key/apikey, access_key, secret_key, private_key,
// client_secret, credential(s) or auth, in any case, after any prefix
// (DB_PASSWORD, aws_secret_access_key, SecretAccessKey). A value needs a
// "=" or ":" (or, for a flag, a space) to be masked: prose such as
// "passwords are hashed" or "the tokenizer splits" is left alone, and so is
// "password is hunter2" — redaction recognises shapes, it does not read
// sentences. Names that merely contain a word (max_tokens, token_count,
// api_key_env, password_file) are not secret-sounding.
//
// Masking errs towards over-masking in credential contexts: "Bearer
// authentication" masks the word after Bearer, and oauth: x masks x.
package redact

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Mask replaces every redacted secret.
const Mask = "[REDACTED]"

// MinSecretLen is the shortest configured secret [New] masks; shorter ones
// (after trimming white space) are ignored: masking "a" would destroy text
// without protecting anything.
const MinSecretLen = 4

// secretName matches the end of a name whose value is a secret; see the
// package doc. What comes before it is not matched, only kept.
const secretName = `(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret|credentials?|auth)`

// A shape is a credential form. The text it matches becomes its template
// expanded: ${keep} is text kept before the mask, ${tail} text kept after.
// The regexp runs only when the lower-cased text holds one of its needles,
// which every match must contain; most text holds none.
type shape struct {
	re      func() *regexp.Regexp // compiled on first use: most text needs few shapes
	needles []int                 // indices into needles.list
}

// nameNeedles are in every secret-sounding name.
var nameNeedles = []string{"pass", "secret", "token", "key", "credential", "auth"}

var shapes = func() []shape {
	specs := []struct {
		expr    string
		needles []string
	}{
		// Private key blocks, first: their bodies must not be half-matched
		// by the token forms below.
		{`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`, []string{"private key-----"}},
		// Authorization headers: the whole value after the scheme.
		{`(?i)(?P<keep>\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256)\s+)?)[^\s"',;][^\r\n"']*`, []string{"authorization"}},
		// Bearer tokens anywhere.
		{`(?i)(?P<keep>\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`, []string{"bearer"}},
		// Context7 keys.
		{`\bctx7sk[A-Za-z0-9_-]{6,}`, []string{"ctx7sk"}},
		// OpenAI/Anthropic-style secret keys; "sk-learn" is too short.
		{`\bsk-[A-Za-z0-9_-]{16,}`, []string{"sk-"}},
		// Stripe keys.
		{`\b[rs]k_(?:live|test)_[A-Za-z0-9]{10,}`, []string{"k_live_", "k_test_"}},
		// GitHub tokens.
		{`\bgh[pousr]_[A-Za-z0-9]{20,}`, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}},
		{`\bgithub_pat_[A-Za-z0-9_]{20,}`, []string{"github_pat_"}},
		// AWS access key ids.
		{`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b`, []string{"akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa"}},
		// Google API keys, npm tokens, Slack tokens.
		{`\bAIza[0-9A-Za-z_-]{35}`, []string{"aiza"}},
		{`\bnpm_[A-Za-z0-9]{36}`, []string{"npm_"}},
		{`\bxox[abprs]-[A-Za-z0-9-]{10,}`, []string{"xox"}},
		// JSON Web Tokens.
		{`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, []string{"eyj"}},
		// JSON "name": "value", escapes included.
		{`(?i)(?P<keep>` + secretName + `"\s*:\s*")(?:[^"\\]|\\.)*`, nameNeedles},
		// name="value", name='value', name=value, name: value.
		{`(?i)(?P<keep>` + secretName + `\s*[=:]\s*")(?:[^"\\\r\n]|\\.)*`, nameNeedles},
		{`(?i)(?P<keep>` + secretName + `\s*[=:]\s*')[^'\r\n]*`, nameNeedles},
		{`(?i)(?P<keep>` + secretName + `\s*[=:]\s*)[^\s"'&,;<>]+`, nameNeedles},
		// --name value.
		{`(?i)(?P<keep>(?:^|\s)--?[A-Za-z0-9_.-]*` + secretName + `\s+)[^\s"'-][^\s"']*`, nameNeedles},
		// Credentials in URLs: scheme://user:password@host.
		{`(?P<keep>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:)[^\s/?#]+(?P<tail>@)`, []string{"://"}},
	}
	out := make([]shape, len(specs))
	for i, sp := range specs {
		out[i] = shape{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(sp.expr) })}
		for _, n := range sp.needles {
			out[i].needles = append(out[i].needles, needles.add(n))
		}
	}
	return out
}()

// needles finds every needle in a text in one pass: a table of the
// needles' first two bytes says where to look closer.
var needles = &needleSet{byPair: map[[2]byte][]int{}}

type needleSet struct {
	list   []string
	pair   [256][256]bool
	byPair map[[2]byte][]int
}

func (ns *needleSet) add(n string) int {
	for i, m := range ns.list {
		if m == n {
			return i
		}
	}
	ns.list = append(ns.list, n)
	k := [2]byte{n[0], n[1]}
	ns.pair[k[0]][k[1]] = true
	ns.byPair[k] = append(ns.byPair[k], len(ns.list)-1)
	return len(ns.list) - 1
}

// find reports which needles occur in s.
func (ns *needleSet) find(s string) []bool {
	seen := make([]bool, len(ns.list))
	for i := 0; i+1 < len(s); i++ {
		if !ns.pair[s[i]][s[i+1]] {
			continue
		}
		for _, j := range ns.byPair[[2]byte{s[i], s[i+1]}] {
			if strings.HasPrefix(s[i:], ns.list[j]) {
				seen[j] = true
			}
		}
	}
	return seen
}

const template = "${keep}" + Mask + "${tail}"

// A Redactor masks known secret values and credential-shaped text. The zero
// value, and a nil *Redactor, mask credential shapes only. A Redactor is
// safe for concurrent use.
type Redactor struct {
	secrets []string // each value and its escaped forms, longest first
}

// New returns a Redactor that also masks each of the given secret values,
// trimmed of surrounding white space, together with their JSON-escaped and
// URL-escaped forms. Values shorter than [MinSecretLen] are ignored.
func New(secrets ...string) *Redactor {
	seen := map[string]bool{}
	r := &Redactor{}
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < MinSecretLen {
			continue
		}
		for _, v := range forms(s) {
			if len(v) >= MinSecretLen && !seen[v] {
				seen[v] = true
				r.secrets = append(r.secrets, v)
			}
		}
	}
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	return r
}

// forms returns s as it may appear in output: itself, inside a JSON string
// (with and without HTML escaping) and in a URL.
func forms(s string) []string {
	out := []string{s, url.QueryEscape(s), url.PathEscape(s)}
	if b, err := json.Marshal(s); err == nil {
		out = append(out, string(b[1:len(b)-1]))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) == nil {
		b := bytes.TrimSpace(buf.Bytes())
		out = append(out, string(b[1:len(b)-1]))
	}
	return out
}

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	if r != nil && len(r.secrets) > 0 {
		s = maskSpans(s, r.secrets)
	}
	// Masking only removes text, so needles absent from the input stay
	// absent.
	// Masking only removes text, so needles absent from the input stay
	// absent.
	seen := needles.find(strings.ToLower(s))
	for _, sh := range shapes {
		for _, n := range sh.needles {
			if seen[n] {
				s = sh.re().ReplaceAllString(s, template)
				break
			}
		}
	}
	return s
}

// maskSpans replaces every byte covered by an occurrence of any secret,
// overlapping occurrences included, so no part of one survives next to
// another's mask.
func maskSpans(s string, secrets []string) string {
	type span struct{ from, to int }
	var spans []span
	for _, sec := range secrets {
		for off := 0; ; {
			i := strings.Index(s[off:], sec)
			if i < 0 {
				break
			}
			spans = append(spans, span{off + i, off + i + len(sec)})
			off += i + 1
		}
	}
	if len(spans) == 0 {
		return s
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		from, to := spans[i].from, spans[i].to
		for i++; i < len(spans) && spans[i].from <= to; i++ {
			to = max(to, spans[i].to)
		}
		b.WriteString(s[last:from])
		b.WriteString(Mask)
		last = to
	}
	b.WriteString(s[last:])
	return b.String()
}

// Error returns err with its message redacted, or nil for nil. The returned
// error still unwraps to err, so errors.Is and errors.As keep working; what
// errors.As extracts is the original, unredacted value.
func (r *Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := r.String(err.Error())
	if msg == err.Error() {
		return err
	}
	return &redacted{msg: msg, err: err}
}

type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }
