// Package depdocs tells what a repository depends on, declared constraint
// and resolved version kept apart, and fetches documentation for the
// version that is actually installed, saying whether it is version-exact.
//
// # Reading
//
// [Parse] and [ReadFile] read one manifest or lockfile; [Scan] reads every
// one under a project root and [Join]s lockfiles with the manifests they
// resolve. Each format has its own reader, which detects the format's
// version from the file (package-lock.json 1-3, pnpm-lock.yaml 5-9, yarn
// classic and berry, Cargo.lock 1-4, ...) and parses it with a real parser:
// encoding/json, encoding/xml, a TOML and a YAML library, and small
// tokenizers for yarn classic, requirements.txt, paket.lock and Gradle
// scripts. Files are read through the project root's containment and are
// size-capped.
//
// A [Dependency] records the Declared constraint ("^15.0.0") and the
// Resolved version ("15.4.3") separately, with its [Source] (registry,
// git, path, replaced, workspace), [Relation] (direct, indirect,
// transitive, root) and [Scope] (dev, optional, peer, test, build). One
// name resolving to several versions is reported by [MultiVersions]
// rather than collapsed. go.mod is read as written; [GoBuildList] asks the
// go command for the selected build list, in module or workspace mode
// ([Mode]), because go.sum is not the build list.
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
// credentials missing; nothing is fabricated. [Context7] speaks the
// Context7 HTTP API; [Cache] keeps answers under .codecortex/ with their
// fetch time and exactness. [NewProvider] builds the configured provider:
// disabled by default, the key read only from the configured environment
// variable. A host's own provider can be checked with
// depdocstest.TestProvider.
//
// # Evidence
//
// [ManifestProvider] and [DocsEvidence] implement evidence.Provider:
// manifest facts have provenance manifest, version-matched documentation
// versioned-docs (structural at most), and fallback documentation
// fallback-docs, which ranks lower.
package depdocs
