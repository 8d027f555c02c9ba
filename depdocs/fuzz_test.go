package depdocs

import (
	"os"
	"path/filepath"
	"testing"
)

// Run a target for a minute with, for example:
//
//	go test ./depdocs -run='^$' -fuzz='^FuzzYarnLock$' -fuzztime=60s -fuzzminimizetime=2s
//
// The short minimization time matters: with the default (60s) minimizing
// one large interesting input can take the whole run.

// fuzzReader checks one reader on arbitrary input: it returns a file or an
// error, never panics, and every dependency it returns is valid.
func fuzzReader(f *testing.F, format Format, name string, seeds ...string) {
	for _, s := range seeds {
		data, err := os.ReadFile(filepath.Join("testdata", "corpus", filepath.FromSlash(s)))
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > 64<<10 {
			data = data[:64<<10]
		}
		f.Add(data)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseAs(format, name, data)
		if err != nil {
			return
		}
		for _, d := range file.Deps {
			if err := d.Validate(); err != nil {
				t.Fatalf("invalid dependency from %q: %v", data, err)
			}
		}
	})
}

func FuzzRequirements(f *testing.F) {
	fuzzReader(f, FormatRequirements, "requirements.txt", "python/pdm/tests/fixtures/requirements.txt", "python/flask/examples/celery/requirements.txt")
}
func FuzzPyproject(f *testing.F) {
	fuzzReader(f, FormatPyproject, "pyproject.toml", "python/poetry/pyproject.toml", "python/pdm/pyproject.toml")
}
func FuzzPoetryLock(f *testing.F) {
	fuzzReader(f, FormatPoetryLock, "poetry.lock", "python/poetry/poetry.lock")
}
func FuzzUVLock(f *testing.F)  { fuzzReader(f, FormatUVLock, "uv.lock", "python/flask/uv.lock") }
func FuzzPipfile(f *testing.F) { fuzzReader(f, FormatPipfile, "Pipfile", "python/pipenv/Pipfile") }
func FuzzPipfileLock(f *testing.F) {
	fuzzReader(f, FormatPipfileLock, "Pipfile.lock", "python/pipenv/examples/Pipfile.lock")
}
func FuzzPDMLock(f *testing.F) { fuzzReader(f, FormatPDMLock, "pdm.lock", "python/pdm/pdm.lock") }
func FuzzPackageJSON(f *testing.F) {
	fuzzReader(f, FormatPackageJSON, "package.json", "node/axios/package.json", "node/context7/package.json")
}
func FuzzPackageLock(f *testing.F) {
	fuzzReader(f, FormatPackageLock, "package-lock.json", "node/context7@4a0189c5/package-lock.json",
		"scalibr-testdata/osv-scalibr/extractor/filesystem/language/javascript/packagelockjson/testdata/alias.v1.json")
}
func FuzzYarnLock(f *testing.F) {
	fuzzReader(f, FormatYarnLock, "yarn.lock", "node/prettier@7c3433cb/yarn.lock", "node/prettier/yarn.lock")
}
func FuzzPNPMLock(f *testing.F) {
	fuzzReader(f, FormatPNPMLock, "pnpm-lock.yaml", "node/core@fe5d919b/pnpm-lock.yaml", "node/context7/pnpm-lock.yaml")
}
func FuzzBunLock(f *testing.F) {
	fuzzReader(f, FormatBunLock, "bun.lock", "node/context7@af0f9eeb/bun.lock")
}
func FuzzCargoToml(f *testing.F) {
	fuzzReader(f, FormatCargoToml, "Cargo.toml", "rust/helix/helix-term/Cargo.toml", "rust/helix/Cargo.toml")
}
func FuzzCargoLock(f *testing.F) {
	fuzzReader(f, FormatCargoLock, "Cargo.lock", "rust/ripgrep/Cargo.lock", "rust/ripgrep@53279db4/Cargo.lock")
}
func FuzzGoMod(f *testing.F) {
	fuzzReader(f, FormatGoMod, "go.mod", "go/tools/gopls/go.mod", "go/etcd/go.mod")
}
func FuzzGoWork(f *testing.F) { fuzzReader(f, FormatGoWork, "go.work", "go/etcd/go.work") }
func FuzzGoSum(f *testing.F)  { fuzzReader(f, FormatGoSum, "go.sum", "go/tools/go.sum") }
func FuzzPom(f *testing.F) {
	fuzzReader(f, FormatPom, "pom.xml", "jvm/spring-petclinic/pom.xml", "jvm/gson/extras/pom.xml")
}
func FuzzGradle(f *testing.F) {
	fuzzReader(f, FormatGradle, "build.gradle", "jvm/spring-petclinic/build.gradle", "jvm/moshi/build.gradle.kts")
}
func FuzzGradleLock(f *testing.F) {
	fuzzReader(f, FormatGradleLock, "gradle.lockfile", "jvm/maybe/gradle.lockfile")
}
func FuzzVersionCatalog(f *testing.F) {
	fuzzReader(f, FormatVersionCatalog, "libs.versions.toml", "jvm/moshi/gradle/libs.versions.toml")
}
func FuzzCsproj(f *testing.F) {
	fuzzReader(f, FormatCsproj, "x.csproj", "dotnet/Polly/src/Polly.Core/Polly.Core.csproj")
}
func FuzzPackagesProps(f *testing.F) {
	fuzzReader(f, FormatPackagesProps, "Directory.Packages.props", "dotnet/Polly/Directory.Packages.props")
}
func FuzzNuGetLock(f *testing.F) {
	fuzzReader(f, FormatNuGetLock, "packages.lock.json", "scalibr-testdata/osv-scalibr/extractor/filesystem/language/dotnet/packageslockjson/testdata/valid/packages.lock.json")
}
func FuzzPackagesConfig(f *testing.F) {
	fuzzReader(f, FormatPackagesConfig, "packages.config", "scalibr-testdata/osv-scalibr/extractor/filesystem/language/dotnet/packagesconfig/testdata/valid")
}
func FuzzPaketLock(f *testing.F) {
	fuzzReader(f, FormatPaketLock, "paket.lock", "dotnet/Fs.Units/paket.lock")
}
