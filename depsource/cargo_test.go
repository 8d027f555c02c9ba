package depsource

import (
	"context"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

const cargoLock = `version = 3

[[package]]
name = "app"
version = "0.1.0"
dependencies = ["serde_json"]

[[package]]
name = "serde_json"
version = "1.0.100"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "f1e14e89be7aa4c4b78bdbdc9eb5bf8517829a600ae8eaa39a6e1d960b5185c"
`

func TestCargoRegistry(t *testing.T) {
	const src = "registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.100/"
	home := testtool.WriteTree(t, map[string]string{
		src + "Cargo.toml":          "[package]\nname = \"serde_json\"\nversion = \"1.0.100\"\n\n[dependencies]\nserde = { version = \"1.0\" }\n",
		src + "src/lib.rs":          "pub mod value;\npub use crate::de::from_str;\nmod de;\n",
		src + "src/de.rs":           "pub fn from_str<'a, T>(s: &'a str) -> Result<T> {\n    todo!()\n}\n",
		src + "src/value/mod.rs":    "pub enum Value {\n    Null,\n}\n\nimpl Value {\n    pub fn as_str(&self) -> Option<&str> {\n        None\n    }\n}\n",
		src + "tests/test.rs":       "fn from_str() {}\n",
		src + "target/debug/gen.rs": "fn from_str() {}\n",
	})
	dir := testtool.WriteTree(t, map[string]string{
		"Cargo.toml": "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde_json = \"1\"\n",
		"Cargo.lock": cargoLock,
	})
	p := New(Options{Dir: dir, CargoHome: home})
	for name, want := range map[string]string{
		"serde_json::from_str":      src + "src/de.rs:1",
		"serde_json::Value::as_str": src + "src/value/mod.rs:6",
		"serde_json::value::Value":  src + "src/value/mod.rs:1",
	} {
		res, err := p.Find(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(found(res, ""), ","); got != want || len(res.Problems) > 0 {
			t.Errorf("%s: %q %v, want %q", name, got, res.Problems, want)
		}
		for _, d := range res.Definitions {
			r := d.Record()
			if d.Copy.Checked != "Cargo.lock" || r.Metadata.Attributes["root"] != RootCargoHome || p.CheckRecord(&r) != nil {
				t.Errorf("%s: %+v %v", name, d.Copy, p.CheckRecord(&r))
			}
		}
	}

	// A version Cargo's registry does not hold is reported.
	other := testtool.WriteTree(t, map[string]string{
		"Cargo.toml": "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde_json = \"1\"\n",
		"Cargo.lock": strings.Replace(cargoLock, "1.0.100", "1.0.101", 1),
	})
	res, _ := New(Options{Dir: other, CargoHome: home}).Find(context.Background(), "serde_json::from_str")
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "not in Cargo's registry sources") {
		t.Fatalf("%+v", res)
	}
}

func TestCargoPackageVersion(t *testing.T) {
	for in, want := range map[string]string{
		"[package]\nname = \"a\"\nversion = \"1.2.3\"\n":             "1.2.3",
		"[dependencies]\nversion = \"9\"\n[package]\nname = \"a\"\n": "",
		"[package]\nversion.workspace = true\n":                      "",
		"[package]\nversion = \"1 2\"\n":                             "",
	} {
		if got := cargoPackageVersion([]byte(in)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func FuzzCargoPackageVersion(f *testing.F) {
	f.Add([]byte("[package]\nversion = \"1.0.0\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if v := cargoPackageVersion(data); strings.ContainsAny(v, "\" \\\n") {
			t.Fatalf("version %q", v)
		}
	})
}
