package history

import "strings"

// The judgement of each key a repository's git configuration may set.
//
// A repository arrives with its .git/config, and git obeys it: a key can
// name a program for git to run (a filter or diff driver, an fsmonitor
// hook, a pager, an ssh command, a credential helper), a file for git to
// read (an include, an ignore-revs list, a mailmap, an attributes file),
// or a remote for git to fetch from (a partial clone's promisor). So the
// history layer reads the configuration itself before git runs, and sorts
// every key into one of three classes:
//
//   - inert: a key that a plain clone, init or an ordinary user setting
//     writes and that can name no program, no file outside the repository
//     and no fetch; it applies as written.
//   - neutralised: a key that could do one of those things, but that every
//     git command the layer runs overrides, through GIT_CONFIG_COUNT
//     (which git ranks above the repository's file) or a command-line
//     option; it is listed for review but needs no trust.
//   - risky: anything else, including every key this table does not know.
//     Until the user trusts the repository (Options.TrustRepoConfig), the
//     layer declines with a [*ConfigError] that names the keys. Trusted,
//     git runs with them, and with every override still in place.
//
// The table is an allowlist: a key git adds in a later version is risky
// until someone reads what it does and adds it here with its reason.

// A keyClass is how a key is treated.
type keyClass uint8

const (
	classRisky keyClass = iota // the zero value: unknown keys are risky
	classInert
	classNeutral
)

// Subsection shapes a rule matches.
const (
	noSub  = iota // section.name
	anySub        // section.<subsection>.name
)

// A keyRule classifies the keys of one section with or without a
// subsection: one variable name, or "*" for every name.
type keyRule struct {
	section string
	sub     int
	names   []string // lower-case; "*" matches every name
	class   keyClass
	// override is the value a neutralised key is overridden with.
	override string
	reason   string
}

// Reasons, one sentence fragment each; the key precedes them.
const (
	whyStorage   = "says how git stores the repository or reads the work tree"
	whyRemote    = "says where a remote is and what to fetch from it; cortex never fetches or pushes, and every transport is switched off (GIT_ALLOW_PROTOCOL, protocol.allow=never)"
	whyBranch    = "records a branch's upstream and how merge, pull and push treat it; cortex runs none of them"
	whyIdentity  = "is an identity or a default for commands that write (commit, pull, push, merge, rebase, fetch); cortex runs none of them"
	whyOutput    = "changes only how git prints; cortex asks for a fixed format and switches colour and pagers off"
	whyLFS       = "is read by git-lfs alone, which never runs because every filter driver is switched off"
	whyAlias     = "git runs an alias only when it is given as a command, and a built-in command's name is never taken for an alias"
	whyFormat    = "names a repository format feature that changes how objects or refs are stored, not what runs"
	whyIgnored   = "is honoured by git only from the user's or the system's configuration, never from a repository's"
	whyDriverOff = "names a program for a filter or diff driver; every git command cortex runs overrides it with nothing"
	whyProtocol  = "allows a transport; every git command cortex runs overrides it with never, so nothing is fetched"
	whyHookOff   = "names a hook or a monitor program; every git command cortex runs overrides it"
	whyPagerOff  = "names a pager or an editor; every git command cortex runs overrides it, and its output is never a terminal"
	whyFileOff   = "names a file for git to read; every git command cortex runs overrides it with the default or with nothing"
	whySignOff   = "names a program or file for signing or verifying signatures; cortex verifies none and every git command overrides it"
	whyBlameOff  = "names files of commits for blame to skip; cortex runs blame with --no-ignore-revs-file, so none is read"

	whyProgram   = "names a program git would run"
	whyInclude   = "makes git read another configuration file, which cortex does not follow"
	whyPromisor  = "makes git fetch missing objects from a remote on demand (a partial clone)"
	whyTransport = "names a program or proxy a transport would use"
	whyWorktree  = "moves the work tree to another directory"
	whyCommand   = "may name a command for git submodule update to run"
	whyUnknown   = "is not on the list of keys cortex knows to run nothing, read no file and fetch nothing"
)

func inert(section string, sub int, why string, names ...string) keyRule {
	return keyRule{section: section, sub: sub, names: names, class: classInert, reason: why}
}

func neutral(section string, sub int, override, why string, names ...string) keyRule {
	return keyRule{section: section, sub: sub, names: names, class: classNeutral, override: override, reason: why}
}

func risky(section string, sub int, why string, names ...string) keyRule {
	return keyRule{section: section, sub: sub, names: names, class: classRisky, reason: why}
}

// keyRules is the table; the first rule that matches a key decides.
var keyRules = []keyRule{
	// core: what git init and clone write, and the storage and work-tree
	// switches users set; programs are overridden or risky.
	inert("core", noSub, whyStorage, "repositoryformatversion", "filemode", "bare", "logallrefupdates", "ignorecase",
		"precomposeunicode", "symlinks", "autocrlf", "eol", "safecrlf", "checkroundtripencoding", "checkstat",
		"trustctime", "whitespace", "abbrev", "compression", "loosecompression", "bigfilethreshold",
		"deltabasecachelimit", "packedgitlimit", "packedgitwindowsize", "preloadindex", "fscache", "longpaths",
		"splitindex", "commitgraph", "multipackindex", "sparsecheckout", "sparsecheckoutcone", "protectntfs",
		"protecthfs", "warnambiguousrefs", "commentchar", "commentstring", "notesref", "fsync", "fsyncmethod",
		"fsyncobjectfiles", "createobject", "sharedrepository", "packedrefstimeout", "filesreflocktimeout",
		"hidedotfiles", "restrictinheritedhandles", "alternaterefsprefixes", "fsmonitorhookversion",
		"quotepath", "untrackedcache"),
	neutral("core", noSub, "false", whyHookOff, "fsmonitor"),
	neutral("core", noSub, "/dev/null", whyHookOff, "hookspath"),
	neutral("core", noSub, "", whyHookOff, "alternaterefscommand"),
	neutral("core", noSub, "cat", whyPagerOff, "pager"),
	neutral("core", noSub, ":", whyPagerOff, "editor"),
	// excludesfile and attributesfile are overridden with the user's own
	// default files (see hardenedEnv), not with these values.
	neutral("core", noSub, "", whyFileOff, "excludesfile", "attributesfile"),
	risky("core", noSub, whyProgram, "sshcommand", "gitproxy", "askpass"),
	risky("core", noSub, whyWorktree, "worktree"),

	inert("remote", anySub, whyRemote, "url", "pushurl", "fetch", "push", "mirror", "skipdefaultupdate",
		"skipfetchall", "tagopt", "prune", "prunetags", "partialclonefilter", "gh-resolved"),
	risky("remote", anySub, whyPromisor, "promisor"),
	risky("remote", anySub, whyTransport, "uploadpack", "receivepack", "proxy", "proxyauthmethod", "vcs"),
	inert("remote", noSub, whyRemote, "pushdefault"),
	risky("extensions", noSub, whyPromisor, "partialclone"),
	inert("extensions", noSub, whyFormat, "objectformat", "worktreeconfig", "refstorage", "preciousobjects"),

	inert("branch", anySub, whyBranch, "*"),
	inert("branch", noSub, whyBranch, "autosetupmerge", "autosetuprebase", "sort"),
	inert("user", noSub, whyIdentity, "name", "email", "useconfigonly"),
	inert("author", noSub, whyIdentity, "name", "email"),
	inert("committer", noSub, whyIdentity, "name", "email"),
	inert("pull", noSub, whyIdentity, "rebase", "ff"),
	inert("push", noSub, whyIdentity, "default", "followtags", "autosetupremote"),
	inert("fetch", noSub, whyIdentity, "prune", "prunetags", "parallel", "writecommitgraph", "recursesubmodules",
		"showforcedupdates", "fsckobjects", "output"),
	inert("init", noSub, whyIdentity, "defaultbranch"),
	inert("commit", noSub, whyIdentity, "gpgsign", "verbose", "status", "cleanup"),
	inert("tag", noSub, whyIdentity, "gpgsign", "sort", "forcesignannotated"),
	inert("merge", noSub, whyIdentity, "ff", "conflictstyle", "renames", "log", "stat", "autostash", "defaulttoupstream"),
	inert("merge", anySub, whyIdentity, "name", "recursive"),
	inert("rebase", noSub, whyIdentity, "autosquash", "autostash", "updaterefs", "stat", "abbreviatecommands",
		"missingcommitscheck"),
	inert("rerere", noSub, whyIdentity, "enabled", "autoupdate"),
	inert("worktree", noSub, whyIdentity, "guessremote"),
	inert("gc", noSub, whyIdentity, "auto", "autodetach", "autopacklimit", "reflogexpire", "reflogexpireunreachable",
		"pruneexpire", "writecommitgraph"),
	inert("gc", anySub, whyIdentity, "reflogexpire", "reflogexpireunreachable"),
	inert("maintenance", noSub, whyIdentity, "auto", "strategy"),
	inert("maintenance", anySub, whyIdentity, "enabled", "schedule"),
	inert("submodule", anySub, whyIdentity, "url", "path", "active", "branch", "ignore", "fetchrecursesubmodules", "shallow"),
	inert("submodule", noSub, whyIdentity, "active", "recurse", "fetchjobs"),
	risky("submodule", anySub, whyCommand, "update"),

	inert("index", noSub, whyStorage, "version", "threads", "skiphash", "sparse", "recordendofindexentries",
		"recordoffsettable"),
	inert("feature", noSub, whyStorage, "manyfiles", "experimental"),
	inert("sparse", noSub, whyStorage, "expectfilesoutsideofpatterns"),

	inert("color", noSub, whyOutput, "*"),
	inert("color", anySub, whyOutput, "*"),
	inert("column", noSub, whyOutput, "*"),
	inert("advice", noSub, whyOutput, "*"),
	inert("status", noSub, whyOutput, "*"),
	inert("i18n", noSub, whyOutput, "commitencoding", "logoutputencoding"),
	inert("log", noSub, whyOutput, "date", "decorate", "abbrevcommit", "excludedecoration", "graphcolors", "diffmerges",
		"initialdecorationset", "showroot", "follow", "showsignature", "mailmap"),
	inert("blame", noSub, whyOutput, "blankboundary", "coloring", "date", "showemail", "showroot",
		"markunblamablelines", "markignoredlines"),
	neutral("blame", noSub, "", whyBlameOff, "ignorerevsfile"),
	inert("diff", noSub, whyOutput, "algorithm", "renames", "renamelimit", "mnemonicprefix", "noprefix", "relative",
		"context", "interhunkcontext", "indentheuristic", "colormoved", "colormovedws", "submodule",
		"suppressblankempty", "statgraphwidth", "statnamewidth", "wordregex", "ignoresubmodules", "dirstat",
		"srcprefix", "dstprefix"),
	neutral("diff", noSub, "", whyDriverOff, "external"),
	neutral("diff", noSub, "/dev/null", whyFileOff, "orderfile"),
	inert("diff", anySub, whyOutput, "xfuncname", "funcname", "binary", "wordregex", "cachetextconv", "algorithm"),
	neutral("diff", anySub, "", whyDriverOff, "textconv", "command"),
	neutral("filter", anySub, "", whyDriverOff, "clean", "smudge", "process"),
	neutral("filter", anySub, "false", whyDriverOff, "required"),
	neutral("merge", anySub, "", whyDriverOff, "driver"),
	neutral("pager", noSub, "false", whyPagerOff, "*"),
	neutral("protocol", noSub, "never", whyProtocol, "allow"),
	neutral("protocol", anySub, "never", whyProtocol, "allow"),
	inert("protocol", noSub, whyRemote, "version"),
	neutral("mailmap", noSub, "", whyFileOff, "file", "blob"),
	inert("gpg", noSub, whySignOff, "format"),
	neutral("gpg", noSub, "", whySignOff, "program"),
	neutral("gpg", anySub, "", whySignOff, "program", "defaultkeycommand", "allowedsignersfile", "revocationfile"),
	neutral("user", noSub, "", whySignOff, "signingkey"),
	neutral("commit", noSub, "", whyFileOff, "template"),

	inert("lfs", noSub, whyLFS, "*"),
	inert("lfs", anySub, whyLFS, "*"),
	inert("alias", noSub, whyAlias, "*"),
	inert("safe", noSub, whyIgnored, "directory", "barerepository"),

	risky("include", noSub, whyInclude, "*"),
	risky("includeif", anySub, whyInclude, "*"),
}

// rulesBySection indexes keyRules by section.
var rulesBySection = func() map[string][]keyRule {
	m := map[string][]keyRule{}
	for _, r := range keyRules {
		m[r.section] = append(m[r.section], r)
	}
	return m
}()

// hasSubsection reports whether a canonical key has a subsection, if
// only an empty one ("a..b").
func hasSubsection(key string) bool {
	first := strings.IndexByte(key, '.')
	return first >= 0 && first != strings.LastIndexByte(key, '.')
}

// classify returns the rule for a canonical key; an unknown key gets a
// risky rule.
func classify(key string) keyRule {
	section, _, name := splitKey(key)
	hasSub := noSub
	if hasSubsection(key) {
		hasSub = anySub
	}
	for _, r := range rulesBySection[section] {
		if r.sub != hasSub {
			continue
		}
		for _, n := range r.names {
			if n == "*" || n == name {
				return r
			}
		}
	}
	return keyRule{class: classRisky, reason: whyUnknown}
}
