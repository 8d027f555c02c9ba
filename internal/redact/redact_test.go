package redact

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Credentials used in the tests: realistic shapes, not real keys.
const (
	ghToken   = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
	awsID     = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	openAIKey = "sk-" + "proj-Ab12Cd34Ef56Gh78Ij90Kl12"
	ctx7Key   = "ctx7sk" + "-4f2a9c1e-77b3-4d2e-9a1b-0c3d5e7f9a1b"
	jwt       = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// Tokens masked whole.
		{"bearer", "got 401 with Bearer abcdef0123456789", "got 401 with Bearer [REDACTED]"},
		{"bearer lower case", "bearer abc.def-ghi_jkl", "bearer [REDACTED]"},
		{"authorization header", "Authorization: Bearer abcdef0123456789\nnext", "Authorization: Bearer [REDACTED]\nnext"},
		{"authorization short token", "Authorization: Bearer abc", "Authorization: Bearer [REDACTED]"},
		{"authorization basic", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED]"},
		{"authorization bare", "authorization=opaque-value", "authorization=[REDACTED]"},
		{"authorization in JSON", `{"Authorization": "Bearer abc"}`, `{"Authorization": "Bearer [REDACTED]"}`},
		{"proxy authorization", "Proxy-Authorization: Digest user=x, response=y", "Proxy-Authorization: Digest [REDACTED]"},
		{"context7", "key " + ctx7Key + " rejected", "key [REDACTED] rejected"},
		{"openai", "OPENAI: " + openAIKey, "OPENAI: [REDACTED]"},
		{"anthropic", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv", "[REDACTED]"},
		{"stripe", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "[REDACTED]"},
		{"github classic", "clone with " + ghToken, "clone with [REDACTED]"},
		{"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "[REDACTED]"},
		{"aws key id", "id=" + awsID + ".", "id=[REDACTED]."},
		{"aws secret by name", "aws_secret_access_key=" + awsSecret, "aws_secret_access_key=[REDACTED]"},
		{"aws secret upper case", "AWS_SECRET_ACCESS_KEY = " + awsSecret + "\n", "AWS_SECRET_ACCESS_KEY = [REDACTED]\n"},
		{"aws secret JSON", `{"SecretAccessKey": "` + awsSecret + `"}`, `{"SecretAccessKey": "[REDACTED]"}`},
		{"google", "key=AIzaSyA1234567890abcdefghijklmnopqrstuv", "key=[REDACTED]"},
		{"npm", "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789", "//registry.npmjs.org/:_authToken=[REDACTED]"},
		{"slack", "xoxb-123456789012-abcdefghij", "[REDACTED]"},
		{"jwt", "session " + jwt, "session [REDACTED]"},

		// Values under secret-sounding names.
		{"password=", "login failed: password=hunter2 user=bob", "login failed: password=[REDACTED] user=bob"},
		{"password:", "password: hunter2", "password: [REDACTED]"},
		{"quoted password with spaces", `password="correct horse battery"`, `password="[REDACTED]"`},
		{"single-quoted", `secret='two words'`, `secret='[REDACTED]'`},
		{"prefixed name", "DB_PASSWORD=s3cr3t!", "DB_PASSWORD=[REDACTED]"},
		{"query string", "GET /x?api_key=abc123&page=2", "GET /x?api_key=[REDACTED]&page=2"},
		{"access token in query", "?access_token=zzz", "?access_token=[REDACTED]"},
		{"flag with space", "run --password hunter2 --verbose", "run --password [REDACTED] --verbose"},
		{"flag with =", "run --token=abc", "run --token=[REDACTED]"},
		{"JSON api_key", `{"api_key": "abc def", "n": 1}`, `{"api_key": "[REDACTED]", "n": 1}`},
		{"JSON apiKey escaped quote", `{"apiKey":"ab\"cd"}`, `{"apiKey":"[REDACTED]"}`},
		{"JSON client_secret", `{"client_secret" : "x"}`, `{"client_secret" : "[REDACTED]"}`},
		{"yaml", "credentials: abc", "credentials: [REDACTED]"},

		// URLs.
		{"url credentials", "fetch https://bob:hunter2@example.com/x failed", "fetch https://bob:[REDACTED]@example.com/x failed"},
		{"url password with @", "postgres://u:p@ss@db:5432/app", "postgres://u:[REDACTED]@db:5432/app"},
		{"url no user", "redis://:pw@localhost", "redis://:[REDACTED]@localhost"},
		{"url with port only", "http://host:8080/path@x", "http://host:8080/path@x"},

		// Private keys.
		{"pem", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n-----END RSA PRIVATE KEY-----\nafter", "key:\n[REDACTED]\nafter"},
		{"pem openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----", "[REDACTED]"},
		{"pem unterminated", "-----BEGIN PRIVATE KEY-----\nMIIEow", "[REDACTED]"},

		// Left alone.
		{"skip", "skip the sk- prefix check; risk-assessment", "skip the sk- prefix check; risk-assessment"},
		{"sk-learn", "install sk-learn", "install sk-learn"},
		{"tokenizer", "the tokenizer=bpe splits tokens", "the tokenizer=bpe splits tokens"},
		{"max_tokens", "max_tokens=4000 token_count: 12", "max_tokens=4000 token_count: 12"},
		{"prose about passwords", "passwords are hashed", "passwords are hashed"},
		{"prose without a separator", "the password is required", "the password is required"},
		{"api_key_env", `"api_key_env": "CODECORTEX_DEPENDENCY_DOCS_API_KEY"`, `"api_key_env": "CODECORTEX_DEPENDENCY_DOCS_API_KEY"`},
		{"password file", "password_file=/run/secrets/db", "password_file=/run/secrets/db"},
		{"author", "author: Bob", "author: Bob"},
		{"basic English", "a basic implementation", "a basic implementation"},
		{"short", "ok", "ok"},
		{"empty", "", ""},
		{"plain url", "https://example.com/a:b@c", "https://example.com/a:b@c"},
		{"email", "mail bob@example.com", "mail bob@example.com"},
		{"aws-like but lower case", "akiaiosfodnn7example", "akiaiosfodnn7example"},
		{"ordinary path", "internal/contain/contain.go:12:3", "internal/contain/contain.go:12:3"},
	}
	r := New()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, r.String(tc.in)); diff != "" {
				t.Errorf("String(%q) (-want +got):\n%s", tc.in, diff)
			}
			var zero Redactor
			var nilR *Redactor
			if got, want := zero.String(tc.in), r.String(tc.in); got != want {
				t.Errorf("zero Redactor %q != New() %q", got, want)
			}
			if got, want := nilR.String(tc.in), r.String(tc.in); got != want {
				t.Errorf("nil Redactor %q != New() %q", got, want)
			}
		})
	}
}

func TestConfiguredSecret(t *testing.T) {
	const key = "Zq8-v&x<9/y+z=w w"
	jsonForm, _ := json.Marshal("k=" + key)
	tests := []struct {
		name, in, want string
	}{
		{"plain", "sent " + key + " to the server", "sent [REDACTED] to the server"},
		{"repeated", key + key + "|" + key, "[REDACTED]|[REDACTED]"},
		{"inside a word", "xx" + key + "yy", "xx[REDACTED]yy"},
		{"JSON escaped", "body " + string(jsonForm), `body "k=[REDACTED]"`},
		{"JSON without HTML escaping", `{"v":"` + strings.ReplaceAll(key, `"`, `\"`) + `"}`, `{"v":"[REDACTED]"}`},
		{"URL query", "https://api.example.com/x?k=" + url.QueryEscape(key) + "&y=1", "https://api.example.com/x?k=[REDACTED]&y=1"},
		{"URL path", "https://api.example.com/" + url.PathEscape(key) + "/x", "https://api.example.com/[REDACTED]/x"},
		{"URL credentials", "https://user:" + url.PathEscape(key) + "@host", "https://user:[REDACTED]@host"},
		{"not there", "nothing here", "nothing here"},
	}
	// Surrounding white space, as an environment file might leave, is not
	// part of the secret.
	r := New("  "+key+"\n", "", "abc", "   ")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := r.String(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("String(%q) (-want +got):\n%s", tc.in, diff)
			}
			for _, f := range forms(key) {
				if strings.Contains(got, f) {
					t.Errorf("form %q survived in %q", f, got)
				}
			}
		})
	}
	if got := r.String("abc and a   b"); got != "abc and a   b" {
		t.Errorf("short secrets masked: %q", got)
	}
}

func TestOverlappingSecrets(t *testing.T) {
	r := New("abcdef", "defghi")
	if got, want := r.String("xabcdefghiy"), "x[REDACTED]y"; got != want {
		t.Errorf("got %q, want %q: no part of either secret may survive", got, want)
	}
	r = New("aaaa")
	if got, want := r.String("aaaaaaa b aaa"), "[REDACTED] b aaa"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSecretsLikeTheMask covers secrets that share text with the mask:
// the output may then contain the secret's text, but only where the mask
// itself supplies it; no stretch of the original text between masks does.
func TestSecretsLikeTheMask(t *testing.T) {
	for _, secret := range []string{"]abc", "TED]", "REDACTED", "[RED", "x[REDACTED]y"} {
		in := "a" + secret + secret[1:] + "b" + secret
		got := New(secret).String(in)
		for _, piece := range strings.Split(got, Mask) {
			if strings.Contains(piece, secret) {
				t.Errorf("secret %q: piece %q of %q holds it", secret, piece, got)
			}
		}
		if !strings.Contains(got, Mask) {
			t.Errorf("secret %q: nothing masked in %q", secret, got)
		}
	}
}

func TestError(t *testing.T) {
	r := New("s3cr3t-value")
	if r.Error(nil) != nil {
		t.Error("Error(nil) != nil")
	}
	plain := errors.New("nothing to hide")
	if r.Error(plain) != plain {
		t.Error("an error without secrets was wrapped")
	}
	pe := &fs.PathError{Op: "open", Path: "/tmp/s3cr3t-value", Err: fs.ErrNotExist}
	wrapped := fmt.Errorf("loading with token=abc: %w", pe)
	got := r.Error(wrapped)
	if diff := cmp.Diff("loading with token=[REDACTED] open /tmp/[REDACTED]: file does not exist", got.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if !errors.Is(got, fs.ErrNotExist) {
		t.Error("errors.Is lost the sentinel")
	}
	var target *fs.PathError
	if !errors.As(got, &target) || target != pe {
		t.Error("errors.As lost the typed error")
	}
	if errors.Unwrap(got) != wrapped {
		t.Error("Unwrap does not return the original")
	}
}

// injected are credentials whose whole text must never reach the output,
// whatever surrounds them (with a space either side, so they are tokens).
var injected = []string{ghToken, awsID, openAIKey, ctx7Key, jwt,
	"xoxb-123456789012-abcdefghij", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop"}

// FuzzString checks that a configured secret and known credentials never
// survive, whatever text surrounds them, and that String never panics.
func FuzzString(f *testing.F) {
	f.Add("prefix ", " suffix", "my-api-key-1234", uint8(0))
	f.Add(`{"token": "`, `"}`, "abcd", uint8(1))
	f.Add("https://u:", "@host", "p@ss/w0rd", uint8(2))
	f.Add("Authorization: Bearer", "\n", "ctx7sk-xyz", uint8(3))
	f.Add("-----BEGIN PRIVATE KEY-----\n", "", "\u00e9\u00e9\u00e9\u00e9", uint8(4))
	f.Add("aaaa", "aaaa", "aaaa", uint8(5))
	f.Fuzz(func(t *testing.T, before, after, secret string, pick uint8) {
		cred := injected[int(pick)%len(injected)]
		in := before + secret + " " + cred + " " + after + secret
		r := New(secret)
		out := r.String(in)
		if strings.Contains(out, cred) {
			t.Fatalf("credential %q survived: %q -> %q", cred, in, out)
		}
		s := strings.TrimSpace(secret)
		if len(s) < MinSecretLen {
			return
		}
		// A secret that shares text with the mask is covered by
		// TestSecretsLikeTheMask; any other must be gone entirely.
		if strings.ContainsAny(s, "[]") || strings.Contains(Mask, s) {
			for _, piece := range strings.Split(out, Mask) {
				if strings.Contains(piece, s) {
					t.Fatalf("secret %q survived between masks: %q -> %q", s, in, out)
				}
			}
			return
		}
		if strings.Contains(out, s) {
			t.Fatalf("secret %q survived: %q -> %q", s, in, out)
		}
		if again := r.String(out); strings.Contains(again, s) {
			t.Fatalf("secret %q reappeared on a second pass: %q", s, again)
		}
	})
}

// TestShapesCompile: every shape's expression compiles (they are compiled
// on first use, not when the package starts).
func TestShapesCompile(t *testing.T) {
	for i, sh := range shapes {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("shape %d: %v", i, r)
				}
			}()
			if sh.re() == nil {
				t.Errorf("shape %d: no expression", i)
			}
		}()
	}
}

// slowString is String as it was before its fast path: every string
// lower-cased, every shape whose needle it holds tried. TestFastPathSame
// holds String to it.
func (r *Redactor) slowString(s string) string {
	if r != nil && len(r.secrets) > 0 {
		s = maskSpans(s, r.secrets)
	}
	seen, _ := needles.find(strings.ToLower(s), false)
	for _, sh := range shapes {
		if seen&sh.needles != 0 {
			s = sh.re().ReplaceAllString(s, template)
		}
	}
	return s
}

// TestFastPathSame: the needle scan without a lower-cased copy and the
// skipping of named shapes whose form has no place in the text never
// change what String returns, on text built from the pieces of every
// shape: names in both cases, separators, flags, quotes, brackets, masks,
// token prefixes and letters that (?i) folds to ASCII ones.
func TestFastPathSame(t *testing.T) {
	pieces := []string{
		"token", "TOKEN", "Token", "key", "KEY", "Key", "api", "API", "access", "Private", "monkey", "api_key", "apikey", "Api-Key", "secret", "client_secret",
		"pass", "password", "PASSWD", "passphrase", "credential", "credentials", "auth", "AUTH",
		"authorization", "Authorization: ", "Bearer ", "bearer", "private_key", "access-key",
		" --password ", " -token\t", "-x.api_key ",
		"-", "--", " ", "  ", "\t", "\n", "\r", "\f", "\v", "=", ":", "\"", "'", "@", "/", "://", "&", ",", ";",
		"<", ">", "{", "\\", `": "`, "='", ": ",
		"[REDACTED]", "[", "]", "x", "A", "0", "_", ".", "abcdefghij", "0123456789ABCDEFGHIJ",
		"ghp_", "sk-", "ctx7sk", "AKIA", "AIza", "npm_", "xoxb-", "eyJ", "sk_live_", "github_pat_",
		"-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "https://user",
		"\u212a", "\u017f", "K", "é", "ſecret", "to\u212aen", "…", "\u0130", "\u0131", "\xff",
	}
	secrets := []string{"", "Zq8-v&x<9/y+z=w", "token"}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 24).Draw(t, "parts")
		s := strings.Join(parts, "")
		r := New(rapid.SampledFrom(secrets).Draw(t, "secret"))
		if got, want := r.String(s), r.slowString(s); got != want {
			t.Fatalf("String(%q) = %q, the slow path gives %q", s, got, want)
		}
	})
}

// TestASCIIFolds: the runes outside ASCII that (?i) makes equal to an
// ASCII letter are exactly asciiFolds, so text without them may take the
// fast path whatever else it holds.
func TestASCIIFolds(t *testing.T) {
	var got []rune
	for c := 'A'; c <= 'z'; c++ {
		if !unicode.IsLetter(c) {
			continue
		}
		for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf && !slices.Contains(got, f) {
				got = append(got, f)
			}
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(asciiFolds))
	if !slices.Equal(got, want) {
		t.Errorf("runes folding to ASCII letters: %q, asciiFolds has %q", got, want)
	}
}

// TestNameForms: the forms whose place a text holds, and texts that hold
// none.
func TestNameForms(t *testing.T) {
	for s, want := range map[string]uint8{
		"token=abc": formBare, `"Token" : "x"`: formJSON, "password :x": formBare, "--api-key value": formFlag,
		"x -db_password\tv": formFlag, "-token v": formFlag, `api_key = "v"`: formDouble, "secret:'v'": formSingle,
		"Api-Key: v": formBare, "SECRETKEY=v": formBare, "x.accessKey = v": formBare, `key = "v"`: 0, "previousKey: K": 0,
		"monkey=v": 0, "api__key=v": 0,
		`{"key": {"type": 1}}`: 0, "key=<x>": 0, "key= &x": 0, "--token -x": 0, "--token 'v'": 0,
		"Token(x)": 0, "tokens are split": 0, "x--token v": 0, "token": 0, "key=": 0,
		"m.key[0]": 0, "--token": 0, `key"x`: 0,
	} {
		if got, _ := nameForms(s); got != want {
			t.Errorf("nameForms(%q) = %05b, want %05b", s, got, want)
		}
	}
}

// TestNameFormsFrom: where each form's first match may begin.
func TestNameFormsFrom(t *testing.T) {
	for _, c := range []struct {
		s    string
		form uint8
		want int
	}{
		{"a private_key=v", formBare, 2}, // "key" at 10, less maxNameLead
		{"token=v", formBare, 0},
		{"x --token v", formFlag, 1}, // the space before the dash
		{"--token v", formFlag, 0},
		{`{"a": 1, "client_secret": "v", "token": "w"}`, formJSON, 9}, // "secret" at 17
	} {
		forms, from := nameForms(c.s)
		if forms&c.form == 0 {
			t.Errorf("nameForms(%q) = %05b, misses %05b", c.s, forms, c.form)
			continue
		}
		if got := from[bits.TrailingZeros8(c.form)]; got != c.want {
			t.Errorf("nameForms(%q): form %05b from %d, want %d", c.s, c.form, got, c.want)
		}
	}
}
