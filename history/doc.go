// Package history reads a project's git history for a caller: the recent
// commits that touched a file (following renames), who last changed a range
// of its lines, what changed since a base commit (work tree and untracked
// files included), and the pull request each commit came from. It is also
// an evidence.Provider whose records have kind git_history.
//
// # Reading
//
// [Open] finds the work tree around a project root ([Options].Dir, "" is the
// working directory) and checks it once; the [Repo] it returns answers
// [Repo.Log] (a file's history, newest first, with what each commit did to
// it), [Repo.Blame] (runs of lines and the commit that last changed them,
// uncommitted lines included) and [Repo.Changes] (commits from a base to
// HEAD, and every file that differs between the base and the work tree,
// with rename detection, line counts and untracked files). Paths cross the
// API relative to the project root, which may be a directory below the top
// of the work tree. A directory outside git ([ErrNotRepository]), a path
// outside the project root ([ErrOutside]) and, for a file's log or blame,
// a shallow clone ([ErrShallow]: the history is incomplete) are errors that
// say so.
//
// # Pull requests
//
// [ParsePullRequest] recognises the commit messages hosts write when they
// merge a request: GitHub merge commits ("Merge pull request #123 from
// owner/branch", the title on the first body line) and squashed commits
// ("Title (#123)"), and the merge commits of GitLab, Bitbucket and Azure
// DevOps. A commit that does not name a request itself takes the request of
// the first-parent merge that brought it into HEAD, searched among the
// [Options].PRWindow most recent commits.
//
// # Safety
//
// Git runs through the project's safe subprocess runner only: the resolved
// absolute git, an argument vector, a timeout and an output cap. It reads
// no system or user configuration, takes no optional locks (a read never
// writes the index), uses no pager and treats every path as a literal
// name.
//
// A repository arrives with its own configuration, and git obeys it, so
// [Open] reads it first, in Go, without running git ([CheckConfig] does
// the same for a host that wants to show it): the repository's config and
// config.worktree, parsed as git parses them, whole or not at all (a file
// over 1 MiB, that is not a regular file or that does not parse is
// refused with [ErrBadConfig]). Every key is judged against an allowlist:
// what a clone and ordinary user settings write applies; a key that could
// run a program, read a file or fetch but that an override can switch off
// (filter and diff drivers, hooks, fsmonitor, pagers, protocol.*.allow,
// mailmap and order files, blame's ignore-revs files, signing programs)
// is overridden on every command; anything else (includes, a promisor
// remote, remote programs and proxies, core.sshCommand, credential
// helpers, core.worktree elsewhere, unknown keys), and a git directory
// that borrows objects, takes its configuration from elsewhere or holds
// symbolic links, makes Open decline with a [*ConfigError] that names the
// settings ([ErrUntrustedConfig]) until the caller trusts the repository
// ([Options].TrustRepoConfig). Trusted, git runs with them, and every
// override stays in place. Nothing is fetched, trusted or not: a partial
// clone's lazy fetch is switched off (GIT_NO_LAZY_FETCH) and every
// transport refused (GIT_ALLOW_PROTOCOL, protocol.allow and each
// protocol.<name>.allow set to never). A revision is never taken for an
// option, and an error quotes at most a short prefix of what git said,
// never a line of a kind that quotes a file's content.
//
// # Evidence
//
// [Provider] answers a query with a path with the file's history (and the
// blame of its line), and a question in words that asks what changed with
// the uncommitted changes and recent commits (or those since a revision
// the question names). Its records are of provenance git-history and tier
// structural: what the history says, not a resolution of a symbol.
package history
