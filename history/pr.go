package history

import (
	"strconv"
	"strings"
)

// A PullRequest is a pull (or merge) request recovered from a commit
// message.
type PullRequest struct {
	// Number is the request's number on its host.
	Number int `json:"number"`
	// Title is its title, when the message carries one.
	Title string `json:"title,omitempty"`
	// Via says how it was recognised; see [ParsePullRequest].
	Via Via `json:"via"`
	// Commit is the commit whose message names it: the merge commit, or
	// the squashed commit itself.
	Commit string `json:"commit"`
}

// Ref returns how the request is written on its host: "#123", or "!123"
// for a GitLab merge request.
func (pr *PullRequest) Ref() string {
	if pr.Via == ViaGitLabMerge {
		return "!" + strconv.Itoa(pr.Number)
	}
	return "#" + strconv.Itoa(pr.Number)
}

// Via is the form of commit message a pull request was recovered from.
type Via string

// The recognised forms.
const (
	// ViaMerge is a GitHub merge commit: "Merge pull request #123 from
	// owner/branch", its title the first line of the body.
	ViaMerge Via = "merge"
	// ViaSquash is a squashed (or rebased) commit whose subject ends in
	// "(#123)", as GitHub writes it; the title is the rest of the subject.
	ViaSquash Via = "squash"
	// ViaGitLabMerge is a GitLab merge commit whose body says "See merge
	// request group/project!123"; the title is the first body line.
	ViaGitLabMerge Via = "gitlab-merge"
	// ViaBitbucketMerge is a Bitbucket merge commit, "Merged in branch
	// (pull request #123)"; the title is the first body line.
	ViaBitbucketMerge Via = "bitbucket-merge"
	// ViaAzureMerge is an Azure DevOps merge commit, "Merged PR 123:
	// title".
	ViaAzureMerge Via = "azure-merge"
)

// maxPRDigits bounds a request number, so that a hostile message cannot
// make one overflow.
const maxPRDigits = 9

// ParsePullRequest recovers the pull request a commit message names, from
// its subject (first line) and body, in the forms [Via] lists. ok is false
// when the message names none. The result's Commit is left empty.
func ParsePullRequest(subject, body string) (pr PullRequest, ok bool) {
	subject = strings.TrimSpace(subject)
	title := firstLine(body)
	if rest, found := strings.CutPrefix(subject, "Merge pull request #"); found {
		if n, tail, ok := leadingNumber(rest); ok && (tail == "" || strings.HasPrefix(tail, " ")) {
			return PullRequest{Number: n, Title: title, Via: ViaMerge}, true
		}
	}
	if rest, found := strings.CutPrefix(subject, "Merged PR "); found {
		if n, tail, ok := leadingNumber(rest); ok {
			if t, found := strings.CutPrefix(tail, ":"); found {
				return PullRequest{Number: n, Title: strings.TrimSpace(t), Via: ViaAzureMerge}, true
			}
		}
	}
	if strings.HasPrefix(subject, "Merged in ") && strings.HasSuffix(subject, ")") {
		if i := strings.LastIndex(subject, "(pull request #"); i >= 0 {
			num := strings.TrimSuffix(subject[i+len("(pull request #"):], ")")
			if n, tail, ok := leadingNumber(num); ok && tail == "" {
				return PullRequest{Number: n, Title: title, Via: ViaBitbucketMerge}, true
			}
		}
	}
	if strings.HasPrefix(subject, "Merge branch ") {
		for _, ln := range strings.Split(body, "\n") {
			rest, found := strings.CutPrefix(strings.TrimSpace(ln), "See merge request ")
			if !found {
				continue
			}
			if i := strings.LastIndexByte(rest, '!'); i > 0 {
				if n, tail, ok := leadingNumber(rest[i+1:]); ok && tail == "" {
					return PullRequest{Number: n, Title: title, Via: ViaGitLabMerge}, true
				}
			}
		}
	}
	if strings.HasSuffix(subject, ")") {
		if i := strings.LastIndex(subject, "(#"); i >= 0 {
			if n, tail, ok := leadingNumber(subject[i+2:]); ok && tail == ")" {
				t := strings.TrimSpace(subject[:i])
				if t != "" {
					return PullRequest{Number: n, Title: t, Via: ViaSquash}, true
				}
			}
		}
	}
	return PullRequest{}, false
}

// leadingNumber reads a positive decimal number of at most maxPRDigits
// digits from the start of s and returns what follows it.
func leadingNumber(s string) (n int, tail string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > maxPRDigits {
		return 0, s, false
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n == 0 {
		return 0, s, false
	}
	return n, s[i:], true
}

// firstLine returns the first non-blank line of s, trimmed.
func firstLine(s string) string {
	for _, ln := range strings.Split(s, "\n") {
		if ln = strings.TrimSpace(ln); ln != "" {
			return ln
		}
	}
	return ""
}

// mergedBy maps commits to the pull request whose merge brought them into
// the first-parent line of HEAD, within a window of recent commits.
//
// order and parents are "git rev-list --parents" output (newest first);
// messages are the merges' commits with their messages. The first-parent
// line is walked from its oldest commit in the window to HEAD; at each
// merge, the commits reachable from its other parents and not yet reached
// (the window's ancestors of its first parent have all been reached by
// then) are the ones it merged. A merge whose message names no pull
// request still claims its commits, so that an older request does not.
func mergedBy(order []string, parents map[string][]string, messages map[string]Commit) map[string]PullRequest {
	if len(order) == 0 {
		return nil
	}
	var line []string
	for c, seen := order[0], map[string]bool{}; c != "" && !seen[c]; {
		ps, ok := parents[c]
		if !ok {
			break
		}
		seen[c] = true
		line = append(line, c)
		c = ""
		if len(ps) > 0 {
			c = ps[0]
		}
	}
	reached := map[string]bool{}
	out := map[string]PullRequest{}
	for i := len(line) - 1; i >= 0; i-- {
		m := line[i]
		reached[m] = true
		ps := parents[m]
		if len(ps) < 2 {
			continue
		}
		msg, hasMsg := messages[m]
		pr, isPR := PullRequest{}, false
		if hasMsg {
			pr, isPR = ParsePullRequest(msg.Subject, msg.Body)
			pr.Commit = m
		}
		stack := append([]string(nil), ps[1:]...)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if reached[c] {
				continue
			}
			cps, inWindow := parents[c]
			if !inWindow {
				continue
			}
			reached[c] = true
			if isPR {
				out[c] = pr
			}
			stack = append(stack, cps...)
		}
	}
	return out
}
