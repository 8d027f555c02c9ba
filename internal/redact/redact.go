// Package redact removes secrets from text before it reaches a diagnostic,
// an error, a log or a trace: the configured API key's value wherever it
// appears, and anything shaped like a credential.
package redact

import (
	"regexp"
	"strings"
)

// Mask replaces every redacted secret.
const Mask = "[REDACTED]"

// credentialShapes match common credential forms. Where a pattern has a
// group named "keep", only the text after it is masked, so "password=" stays
// readable and the value goes.
var credentialShapes = []*regexp.Regexp{
	// Authorization headers and bearer tokens.
	regexp.MustCompile(`(?i)(?P<keep>\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`),
	regexp.MustCompile(`(?i)(?P<keep>\bbasic\s+)[A-Za-z0-9+/=]{8,}`),
	// Context7 keys.
	regexp.MustCompile(`\bctx7sk[A-Za-z0-9_-]{6,}`),
	// OpenAI/Anthropic-style secret keys.
	regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{8,}`),
	// GitHub tokens.
	regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{20,}`),
	regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`),
	// AWS access key ids and secret keys given by name.
	regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b`),
	regexp.MustCompile(`(?i)(?P<keep>aws_secret_access_key\s*[=:]\s*["']?)[A-Za-z0-9/+=]{30,}`),
	// Slack tokens.
	regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`),
	// Private key blocks.
	regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`),
	// name=value and "name": "value" for secret-sounding names.
	regexp.MustCompile(`(?i)(?P<keep>\b(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|client[_-]?secret|auth)\s*[=:]\s*["']?)[^\s"'&,;]{1,}`),
	regexp.MustCompile(`(?i)(?P<keep>"(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|client[_-]?secret)"\s*:\s*")[^"]+`),
	// Credentials in URLs: scheme://user:password@host.
	regexp.MustCompile(`(?P<keep>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]+:)[^@\s/]+(?:@)`),
}

// A Redactor masks known secret values and credential-shaped text. The zero
// value masks credential shapes only.
type Redactor struct {
	secrets []string
}

// New returns a Redactor that also masks each of the given secret values
// (empty and very short values are ignored: masking "a" would destroy text
// without protecting anything).
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		if len(strings.TrimSpace(s)) >= 4 {
			r.secrets = append(r.secrets, s)
		}
	}
	return r
}

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	if r != nil {
		for _, secret := range r.secrets {
			s = strings.ReplaceAll(s, secret, Mask)
		}
	}
	for _, re := range credentialShapes {
		keep := re.SubexpIndex("keep")
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			if keep < 0 {
				return Mask
			}
			sub := re.FindStringSubmatch(m)
			suffix := ""
			if strings.HasSuffix(m, "@") && strings.Contains(m, "://") {
				suffix = "@"
			}
			return sub[keep] + Mask + suffix
		})
	}
	return s
}

// Error returns err with its message redacted, or nil for nil. The returned
// error still unwraps to err, so errors.Is and errors.As keep working.
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
