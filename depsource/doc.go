// Package depsource answers where a dependency's symbol is defined from the
// copy of the dependency the project actually uses, at the version its
// lockfile resolves, and says so when that copy does not match.
//
// # Why a package of its own
//
// depdocs knows what the project depends on and at which version, and
// symbols reads definitions from syntax; neither reads files outside the
// project. This package joins them: it finds the directory a dependency
// lives in (the Go module cache, node_modules, a virtual environment's
// site-packages, Cargo's registry), checks that what is there is the
// version the lockfile resolves, and reads definitions from it, so that
// depdocs stays a reader of manifests and symbols a reader of one file.
// It depends on depdocs, symbols, precision (to read a dependency's own
// SCIP index), seal, evidence and trust, and on the internal containment
// and subprocess helpers.
//
// # Locating the copy
//
// A name asked about is qualified the way the project's code uses it:
// "pflag.FlagSet", "pflag.FlagSet.Parse", "uuid.v4". The qualifier picks the
// dependency: a Go module whose import path ends in it (github.com/spf13/pflag;
// a /vN suffix and a gopkg.in ".vN" do not count), an npm package of that name
// (or its unscoped name, or its alias), a Python distribution, a crate.
// When no module is named so, a Go package directory of that name one or
// two levels inside a module go.mod requires directly is
// (golang.org/x/mod/modfile for modfile.Parse). The rest is the name and,
// before it, the type (or, in Python and Rust, the module) it belongs to.
//
//   - Go: the module's directory in the module cache ([Options].GoModCache;
//     by default GOMODCACHE, else the go command's answer through safeexec
//     when its environment file sets GOMODCACHE or GOPATH, else
//     GOPATH/pkg/mod), at the version go.mod requires, with the path and
//     version escaped as the go command escapes them (a capital letter is
//     "!" and the letter in lower case). Only the package directory the
//     qualifier names is read, not its subdirectories. The copy is checked
//     against go.sum: the h1: hash the go command wrote beside the download
//     (cache/download/…/@v/VERSION.ziphash) must be the one go.sum records.
//   - npm: node_modules/NAME beside the manifest or lockfile that resolves
//     it; its package.json version must be the version the lockfile
//     (package-lock.json, pnpm-lock.yaml, yarn.lock, bun.lock) resolves.
//     The package directory may be a symbolic link (pnpm) but must resolve
//     inside the project.
//   - Python: the distribution's .dist-info in the project's virtual
//     environment (.venv, venv, env, or $VIRTUAL_ENV when inside the
//     project; lib/python*/site-packages or Lib/site-packages); its METADATA
//     Version must be the version the lockfile or pinned requirement
//     resolves. The qualifier is the module the code imports, matched to a
//     distribution by name or by its top_level.txt (yaml is PyYAML's); a
//     package directory or a single-file module is read, and a dotted
//     middle names a module inside the package (requests.sessions.Session).
//   - Cargo: the crate's source in Cargo's registry ([Options].CargoHome;
//     by default $CARGO_HOME, else ~/.cargo), registry/src/INDEX/NAME-VERSION
//     at the version Cargo.lock resolves, the directory Cargo unpacks a
//     checksum-verified crate into; its Cargo.toml's version must agree.
//     The qualifier is the crate as code writes it ("-" as "_"), and Rust's
//     "::" separates names as "." does.
//
// A copy that is missing, replaced, or does not match is a [Problem] in the
// answer and in the provider's report; nothing is read from it.
//
// # Outlines
//
// [Provider.Outline] lists a dependency's definitions instead of finding
// one: the dependency is named as code names it ("pflag",
// "github.com/spf13/pflag", "uuid"), its copy is located and checked as
// above, and the symbols extractor's definitions of its source files are
// given file by file: a Go package's API (exported definitions, members
// only of exported types; the package directory the name picks, not its
// subdirectories), every other language's top-level ones, or every
// definition on request.
//
// # Exact, with the dependency's own index
//
// [Provider.Index] runs a dependency's SCIP indexer over the copy the
// project uses, once it is checked as above: scip-go in the module's
// directory of the module cache (which it only reads; the go command it
// runs is kept off the network with GOPROXY=off, off the project's
// workspace, on the toolchain at hand and without cgo), scip-typescript
// through a tsconfig.json written in a scratch directory under
// .codecortex/deps (never in node_modules), scip-python in the module's
// directory of site-packages. The index is kept at
// [IndexPath] with a seal of this user's key over the project root, the
// copy (ecosystem, name, version, directory) and the index's bytes
// ([Options].Seal). From then on every definition [Provider.Find] reads
// from that copy, and that the index defines at the very same place, is
// exact, with provenance precision-index and the index's SCIP symbol,
// which is the symbol a SCIP index of the project refers to it by. An
// index whose seal does not check (another user's, or changed since) is
// not served, and the answer says so. Rust dependencies are not indexed.
//
// # The project's uses
//
// With [Options].Uses (the local index's facts of the files that use a
// name or import it), a question for references or calls of a
// dependency's top-level name is also answered with the project's uses
// that the file's imports bind to the copy that defines it: flag.FlagSet
// where the file imports github.com/spf13/pflag as flag, v4 where it
// imports { v4 } from "uuid" or requires it, requests.get after import
// requests. They are records in the project, at inferred_high (the import
// binds the name; no compiler resolved it), and the same name from
// another package (the standard library's flag.FlagSet) is not one. A
// member's uses need its receiver's type, which imports do not show, and
// are not claimed.
//
// # Bounds
//
// Every read goes through a containment root opened at the dependency's own
// directory: a symbolic link that leaves it is not followed. Files larger
// than [Options].MaxFileSize (the project walk's 1 MiB by default) are
// skipped, a package is walked for at most [Options].MaxFiles files, and a
// file is parsed only when it contains the name.
//
// # Records
//
// [Provider] is an [evidence.Provider]; its zero value works in the working
// directory. Its definition records are structural (parsed syntax, never a
// resolution by identity), with provenance symbol-index, unless the
// dependency's own index confirms them (above), and they say where
// they live: Path is relative to the module cache
// ("github.com/spf13/pflag@v1.0.10/flag.go"), to Cargo's home, or to the
// project ("node_modules/uuid/dist/v4.js",
// ".venv/lib/python3.12/site-packages/requests/api.py"), and the attributes
// name the ecosystem, the dependency, its version, the root the path is
// relative to ([RootModCache], [RootCargoHome] or [RootProject]) and
// outside_project=true. Such a path is never a file of the project to edit:
// [Outside] tells a record of this provider, and [Provider.CheckRecord]
// confirms that its path resolves inside the dependency's directory, which
// a host uses in place of its project-root check. Nothing is ever opened
// for writing; the rewrite refuses node_modules and site-packages paths,
// and a rename refuses a symbol a dependency defines.
package depsource
