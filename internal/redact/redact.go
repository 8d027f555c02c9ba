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
	"math/bits"
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
	needles uint64                // bit j for needles.list[j]
	form    uint8                 // for a shape masking the value after a secret-sounding name, its form; see nameForms
}

// nameNeedles are in every secret-sounding name.
var nameNeedles = []string{"pass", "secret", "token", "key", "credential", "auth"}

var shapes = func() []shape {
	specs := []struct {
		expr    string
		needles []string
		form    uint8
	}{
		// Private key blocks, first: their bodies must not be half-matched
		// by the token forms below.
		{`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`, []string{"private key-----"}, 0},
		// Authorization headers: the whole value after the scheme.
		{`(?i)(?P<keep>\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256)\s+)?)[^\s"',;][^\r\n"']*`, []string{"authorization"}, 0},
		// Bearer tokens anywhere.
		{`(?i)(?P<keep>\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`, []string{"bearer"}, 0},
		// Context7 keys.
		{`\bctx7sk[A-Za-z0-9_-]{6,}`, []string{"ctx7sk"}, 0},
		// OpenAI/Anthropic-style secret keys; "sk-learn" is too short.
		{`\bsk-[A-Za-z0-9_-]{16,}`, []string{"sk-"}, 0},
		// Stripe keys.
		{`\b[rs]k_(?:live|test)_[A-Za-z0-9]{10,}`, []string{"k_live_", "k_test_"}, 0},
		// GitHub tokens.
		{`\bgh[pousr]_[A-Za-z0-9]{20,}`, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, 0},
		{`\bgithub_pat_[A-Za-z0-9_]{20,}`, []string{"github_pat_"}, 0},
		// AWS access key ids.
		{`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b`, []string{"akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa"}, 0},
		// Google API keys, npm tokens, Slack tokens.
		{`\bAIza[0-9A-Za-z_-]{35}`, []string{"aiza"}, 0},
		{`\bnpm_[A-Za-z0-9]{36}`, []string{"npm_"}, 0},
		{`\bxox[abprs]-[A-Za-z0-9-]{10,}`, []string{"xox"}, 0},
		// JSON Web Tokens.
		{`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, []string{"eyj"}, 0},
		// JSON "name": "value", escapes included.
		{`(?i)(?P<keep>` + secretName + `"\s*:\s*")(?:[^"\\]|\\.)*`, nameNeedles, formJSON},
		// name="value", name='value', name=value, name: value.
		{`(?i)(?P<keep>` + secretName + `\s*[=:]\s*")(?:[^"\\\r\n]|\\.)*`, nameNeedles, formDouble},
		{`(?i)(?P<keep>` + secretName + `\s*[=:]\s*')[^'\r\n]*`, nameNeedles, formSingle},
		{`(?i)(?P<keep>` + secretName + `\s*[=:]\s*)[^\s"'&,;<>]+`, nameNeedles, formBare},
		// --name value.
		{`(?i)(?P<keep>(?:^|\s)--?[A-Za-z0-9_.-]*` + secretName + `\s+)[^\s"'-][^\s"']*`, nameNeedles, formFlag},
		// Credentials in URLs: scheme://user:password@host.
		{`(?P<keep>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:)[^\s/?#]+(?P<tail>@)`, []string{"://"}, 0},
	}
	out := make([]shape, len(specs))
	for i, sp := range specs {
		out[i] = shape{
			re:   sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(sp.expr) }),
			form: sp.form,
		}
		for _, n := range sp.needles {
			out[i].needles |= 1 << needles.add(n)
		}
	}
	if len(needles.list) > 64 {
		panic("redact: more needles than a needle mask holds")
	}
	return out
}()

// needles finds every needle in a text in one pass: a table of the
// needles' first two bytes says where to look closer.
var needles = &needleSet{}

type needleSet struct {
	list []string
	// pair[a][b] is 0 if no needle begins with the bytes a b, else one
	// more than the index in byPair of the needles that do.
	pair   [256][256]uint8
	byPair [][]int
}

func (ns *needleSet) add(n string) int {
	for i, m := range ns.list {
		if m == n {
			return i
		}
	}
	ns.list = append(ns.list, n)
	at := &ns.pair[n[0]][n[1]]
	if *at == 0 {
		ns.byPair = append(ns.byPair, nil)
		*at = uint8(len(ns.byPair))
	}
	ns.byPair[*at-1] = append(ns.byPair[*at-1], len(ns.list)-1)
	return len(ns.list) - 1
}

// find reports which needles occur in s, bit j for needles.list[j], and
// whether s holds a byte outside ASCII. With fold, s is read as if ASCII
// letters were lower case; the needles are.
func (ns *needleSet) find(s string, fold bool) (seen uint64, nonASCII bool) {
	tab := &sameByte
	if fold {
		tab = &lowerByte
	}
	if len(s) == 0 {
		return 0, false
	}
	var or byte
	a := tab[s[0]]
	or |= s[0]
	for i := 1; i < len(s); i++ {
		c := s[i]
		or |= c
		b := tab[c]
		if k := ns.pair[a][b]; k != 0 {
			for _, j := range ns.byPair[k-1] {
				if hasPrefixFold(s[i-1:], ns.list[j]) {
					seen |= 1 << j
				}
			}
		}
		a = b
	}
	return seen, or >= 0x80
}

// sameByte maps every byte to itself, lowerByte ASCII letters to lower
// case and every other byte to itself.
var sameByte, lowerByte = func() (same, lower [256]byte) {
	for i := range 256 {
		same[i] = byte(i)
		lower[i] = lowerASCII(byte(i))
	}
	return same, lower
}()

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s begins with lower, an ASCII lower-case
// string, ignoring the case of ASCII letters in s.
func hasPrefixFold(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for i := 0; i < len(lower); i++ {
		if lowerASCII(s[i]) != lower[i] {
			return false
		}
	}
	return true
}

// nameEnds are the words a secret-sounding name ends with: every
// alternative of secretName ends in one of them.
var nameEnds = []string{"password", "passwd", "passphrase", "secret", "token", "key", "credential", "credentials", "auth"}

// The forms of the named shapes: where a secret-sounding name stands
// and what follows it.
const (
	formJSON   = 1 << iota // "name": "value"
	formDouble             // name="value", name: "value"
	formSingle             // name='value'
	formBare               // name=value, name: value
	formFlag               // --name value
)

// formCount is how many forms there are.
const formCount = 5

// nameForms returns the forms (the bits above) whose place s holds: a
// secret-sounding name (a word of nameEnds; a "key" with the word
// secretName puts before it) followed by what the form's shape needs before
// its value, and the value's first byte where the shape needs one. A
// named shape whose form is not among them matches nothing in s, which
// TestFastPathSame checks against the regexps. from[k] is where in s a
// match of form 1<<k may first begin: no alternative of secretName begins
// more than maxNameLead bytes before the word it ends with, and a flag's
// match begins at the white space before its dash. s must not hold a rune
// that folds to ASCII (see foldsToASCII), since (?i) lets such a rune
// stand for an ASCII letter of a name; any other byte outside ASCII is
// neither a name's letter nor white space or punctuation to the shapes.
func nameForms(s string) (forms uint8, from [formCount]int) {
	f := formSet{s: s}
	for i := 0; i < len(s); i++ {
		for _, w := range endsBy[lowerASCII(s[i])] {
			if hasPrefixFold(s[i:], w) && (w != "key" || keyNamed(s[:i])) {
				f.place(i, i+len(w))
			}
		}
	}
	return f.forms, f.from
}

// endsBy lists the words of nameEnds by their first byte, in both cases.
var endsBy = func() (by [256][]string) {
	for _, w := range nameEnds {
		by[w[0]] = append(by[w[0]], w)
		by[w[0]-'a'+'A'] = append(by[w[0]-'a'+'A'], w)
	}
	return by
}()

// A formSet gathers the forms whose place a text holds (see nameForms).
type formSet struct {
	s     string
	forms uint8
	from  [formCount]int
}

// place records the forms of a secret-sounding name whose word of
// nameEnds stands at s[i:j].
func (f *formSet) place(i, j int) {
	s := f.s
	spaces := func(k int) int {
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		return k
	}
	at := func(k int, c byte) bool { return k < len(s) && s[k] == c }
	lead := max(0, i-maxNameLead)
	if at(j, '"') {
		if k := spaces(j + 1); at(k, ':') && at(spaces(k+1), '"') {
			f.found(formJSON, lead)
		}
	}
	if k := spaces(j); at(k, '=') || at(k, ':') {
		switch v := spaces(k + 1); {
		case v == len(s):
		case s[v] == '"':
			f.found(formDouble, lead)
		case s[v] == '\'':
			f.found(formSingle, lead)
		case !strings.ContainsRune("&,;<>", rune(s[v])):
			f.found(formBare, lead)
		}
	}
	if j < len(s) && isSpace(s[j]) {
		p := i
		for p > 0 && isFlagChar(s[p-1]) {
			p--
		}
		if p < i && s[p] == '-' && (p == 0 || isSpace(s[p-1])) {
			if v := spaces(j); v < len(s) && s[v] != '"' && s[v] != '\'' && s[v] != '-' {
				f.found(formFlag, max(0, p-1))
			}
		}
	}
}

// found records form, whose match may begin at at.
func (f *formSet) found(form uint8, at int) {
	k := bits.TrailingZeros8(form)
	if f.forms&form == 0 || at < f.from[k] {
		f.from[k] = at
	}
	f.forms |= form
}

// keyNamed reports whether before, the text in front of a "key", ends
// with what makes it the end of a secret-sounding name: api, access,
// secret or private, then an underscore, a dash or nothing. "key" alone
// is not such a name, and code is full of key = …, key: K and keySelector.
func keyNamed(before string) bool {
	if n := len(before); n > 0 && (before[n-1] == '_' || before[n-1] == '-') {
		before = before[:n-1]
	}
	for _, p := range keyPrefixes {
		if len(before) >= len(p) && hasPrefixFold(before[len(before)-len(p):], p) {
			return true
		}
	}
	return false
}

// keyPrefixes are the words secretName puts before "key".
var keyPrefixes = []string{"api", "access", "secret", "private"}

// maxNameLead is how far before the word of nameEnds it ends with an
// alternative of secretName may begin: "private_" of private_key.
const maxNameLead = len("private_")

// isSpace is the regexp's \s.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isFlagChar is the flag form's [A-Za-z0-9_.-].
func isFlagChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
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
	// absent. Text is read without a lower-cased copy, and a named shape
	// is skipped unless a name stands where its form could match in the
	// text as the shapes before it left it, unless the text holds a rune
	// that (?i) folds to an ASCII letter: such text is lower-cased (which
	// maps those runes to ASCII letters, as (?i) does) and tried on every
	// shape whose needle it holds.
	seen, nonASCII := needles.find(s, true)
	fast := !nonASCII || !foldsToASCII(s)
	if !fast {
		seen, _ = needles.find(strings.ToLower(s), false)
	}
	// A named shape's expression begins with no literal, so the regexp
	// tries it at every byte; it runs from where its form's first place
	// stands instead of from the start.
	var (
		forms uint8
		from  [formCount]int
	)
	stale := true // forms has not been worked out for s as it is now
	for i := range shapes {
		sh := &shapes[i]
		if seen&sh.needles == 0 {
			continue
		}
		off := 0
		if fast && sh.form != 0 {
			if stale {
				forms, from = nameForms(s)
				stale = false
			}
			if forms&sh.form == 0 {
				continue
			}
			off = from[bits.TrailingZeros8(sh.form)]
		}
		if t := sh.re().ReplaceAllString(s[off:], template); t != s[off:] {
			s = s[:off] + t
			stale = true
		}
	}
	return s
}

// asciiFolds are the runes outside ASCII that case folding, as (?i)
// applies it, makes equal to an ASCII letter: the Kelvin sign (k) and the
// long s (s). TestASCIIFolds checks the list against the unicode tables.
var asciiFolds = []rune{'\u212a', '\u017f'}

// foldsToASCII reports whether s holds one of asciiFolds.
func foldsToASCII(s string) bool {
	for _, r := range asciiFolds {
		if strings.ContainsRune(s, r) {
			return true
		}
	}
	return false
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
