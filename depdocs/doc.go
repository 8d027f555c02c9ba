// Package depdocs tells what a repository depends on, declared constraint
// and resolved version kept apart, and fetches documentation for the
// version that is actually installed, saying whether it is version-exact.
//
// # Reading
//
// [Parse] reads the content of one manifest or lockfile; [ReadFile] reads
// one file of a project directory and [Scan] reads every one under it and
// [Join]s lockfiles with the manifests they resolve. A project crosses
// this API as a directory ("" is the working directory): every path is
// resolved inside it, symbolic links included, and files are size-capped.
// Each format has its own reader, which detects the format's version from
// the file (package-lock.json 1-3, pnpm-lock.yaml 5-9, yarn classic and
// berry, Cargo.lock 1-4, ...) and parses it with a real parser:
// encoding/json, encoding/xml, a TOML and a YAML library, and small
// tokenizers for yarn classic, requirements.txt, paket.lock and Gradle
// scripts.
//
// A [Dependency] records the Declared constraint ("^15.0.0") and the
// Resolved version ("15.4.3") separately, with its [Source] (registry,
// git, path, replaced, workspace), [Relation] (direct, indirect,
// transitive, root) and [Scope] (dev, optional, peer, test, build), the
// Line of its File where the entry that declares or resolves it begins,
// and, for an npm alias or a Cargo rename, the Alias the code imports it
// by. One name resolving to several versions is reported by
// [MultiVersions] rather than collapsed. go.mod is read as written;
// [GoBuildList] asks the go command for the selected build list, in module
// or workspace mode ([Mode]), because go.sum is not the build list. The go
// command runs on copies of go.mod and go.sum (or go.work and go.work.sum)
// outside the project, so nothing in the project is written.
//
// # Versions
//
// [SameRelease] and [MatchLabel] decide whether a provider's published
// label is the resolved version: a "v" prefix does not matter, a
// prerelease is never folded into its release, PEP 440 normal forms are
// equal, labels that are not versions stay opaque strings, and build
// metadata is compared as a string. [Satisfies] evaluates constraints per
// ecosystem with deps.dev's semver package.
//
// # Documentation
//
// A [DocsProvider] answers a [DocsRequest] with a [Resolution] whose
// [DocsState] is exact, fallback, pending, unavailable, disabled or
// credentials missing; nothing is fabricated. [NewDocs] builds the
// provider [DocsOptions] describe (disabled in its zero value) and
// [CheckDocs] says, without sending anything, whether it can be asked.
// [Context7] speaks the Context7 HTTP API: the key goes only to the
// configured address, only over HTTPS or to a loopback address, never
// after an HTTP redirect, and one deadline bounds a whole call, retries
// included. [Cache] keeps answers under .codecortex/cache with their fetch
// time and exactness; requests and answers are redacted before anything
// is stored, and the cache directory ignores itself in git. A host's own
// provider can be checked with depdocstest.TestProvider.
//
// # Evidence
//
// [ManifestProvider] and [DocsEvidence] implement evidence.Provider, and
// their zero values work: manifest facts have provenance manifest and are
// located at the manifest or lockfile line that declares or resolves them,
// version-matched documentation has versioned-docs (structural at most),
// and fallback documentation fallback-docs, which ranks lower.
package depdocs
