//go:build cgo

package symbols

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A realCorpus is real code of one language: files under a directory of
// the module cache (downloaded when missing) or of the npm corpus.
type realCorpus struct {
	name     string
	module   string // module@version, or "" for the npm corpus
	sub      string // directory under the module or corpus
	exts     []string
	minFiles int
	// want are definitions that must be found, "file: kind container.name"
	// with the file relative to sub.
	want []string
	// maxBroken bounds the files the grammar reads with syntax errors.
	maxBroken int
}

// realCorpora pairs every language with real code. The module cache
// holds Go, JavaScript, TypeScript, TSX (prometheus' web UI), Python,
// Rust, C, C++, Bash and JSON (the grammar modules' examples and
// bindings). Java, Kotlin, C#, Ruby, PHP and more C++ come from npm
// packages, unpacked into the directory CODECORTEX_SYMBOLS_CORPUS names:
//
//	mkdir corpus && cd corpus
//	for p in cordova-android@15.1.0 react-native-screens@4.30.1 electron-edge-js@44.0.0 \
//	    @react-native-community/cli-platform-ios@6.2.1 @wordpress/block-library@9.0.0; do
//	  d=$(echo "$p" | tr '/@' '__'); mkdir "$d"; npm pack "$p" --silent | xargs -I{} tar -xzf {} -C "$d"
//	done
//	rm ./*.tgz
var realCorpora = []realCorpus{
	{name: "typescript", module: prom, sub: "web/ui", exts: []string{".ts"}, minFiles: 50, want: []string{
		"module/codemirror-promql/src/promql.ts: class PromQLExtension",
		"module/codemirror-promql/src/promql.ts: field PromQLExtension.complete",
		"module/codemirror-promql/src/complete/hybrid.ts: method HybridComplete.constructor",
	}},
	// JSX text holding a bare & is outside tree-sitter-typescript's grammar.
	{name: "tsx", module: prom, sub: "web/ui", exts: []string{".tsx"}, minFiles: 100, maxBroken: 1, want: []string{
		"mantine-ui/src/App.tsx: function App",
		"react-app/src/App.tsx: interface AppProps",
		"react-app/src/App.tsx: field AppProps.agentMode",
	}},
	{name: "javascript", module: prom, sub: "web/ui", exts: []string{".js", ".mjs", ".cjs"}, minFiles: 5, want: []string{
		"module/lezer-promql/src/highlight.js: constant promQLHighLight",
	}},
	{name: "javascript-grammar", module: "github.com/tree-sitter/tree-sitter-javascript@v0.25.0", exts: []string{".js"}, minFiles: 3, want: []string{
		"examples/text-editor-component.js: class LinesTileComponent",
		"examples/text-editor-component.js: function arraysEqual",
		"examples/text-editor-component.js: constant CURSOR_BLINK_PERIOD",
	}},
	{name: "python", module: "github.com/tree-sitter/tree-sitter-python@v0.25.0", exts: []string{".py"}, minFiles: 10, want: []string{
		"examples/python3-grammar.py: class GrammarTests",
		"examples/python3-grammar.py: method GrammarTests.testWhile",
		"bindings/python/tree_sitter_python/__init__.py: function _get_query",
	}},
	{name: "rust", module: "github.com/tree-sitter/tree-sitter-rust@v0.24.1", exts: []string{".rs"}, minFiles: 3, want: []string{
		"examples/ast.rs: enum TyKind",
		"examples/ast.rs: constant RangeLimits.Closed",
		"examples/ast.rs: field Expr.node",
		"examples/ast.rs: method Arg.from_self",
		"bindings/rust/lib.rs: module tests",
	}},
	{name: "c", module: "github.com/tree-sitter/tree-sitter-c@v0.24.1", sub: "examples", exts: []string{".c", ".h"}, minFiles: 3, want: []string{
		"cluster.c: function clusterCron",
		"cluster.c: field migrateCachedSocket.last_use_time",
		"malloc.c: constant OVERHEAD",
	}},
	{name: "cpp", module: "github.com/tree-sitter/tree-sitter-cpp@v0.23.4", sub: "examples", exts: []string{".cc", ".h"}, minFiles: 2, want: []string{
		"marker-index.h: class MarkerIndex",
		"marker-index.h: class MarkerIndex.Iterator",
		"marker-index.h: method MarkerIndex.insert",
		"rule.cc: method Rule.seq",
	}},
	{name: "bash", module: "github.com/tree-sitter/tree-sitter-bash@v0.25.1", sub: "examples", exts: []string{".sh"}, minFiles: 5, want: []string{
		"doc-build.sh: function html_replace_tokens",
		"test.sh: function usage",
	}},
	{name: "json", module: "github.com/tree-sitter/tree-sitter-json@v0.24.8", exts: []string{".json"}, minFiles: 3, want: []string{
		"package.json: field scripts",
		"src/grammar.json: field externals",
	}},
	{name: "java", sub: "cordova-android_15.1.0/package/framework/src", exts: []string{".java"}, minFiles: 30, want: []string{
		"org/apache/cordova/CordovaWebViewImpl.java: class CordovaWebViewImpl",
		"org/apache/cordova/CordovaWebViewImpl.java: class CordovaWebViewImpl.EngineClient",
		"org/apache/cordova/CordovaPlugin.java: method CordovaPlugin.execute",
	}},
	{name: "kotlin", sub: "react-native-screens_4.30.1/package/android", exts: []string{".kt"}, minFiles: 100, want: []string{
		"src/main/java/com/swmansion/rnscreens/ScreenStack.kt: class ScreenStack",
		"src/main/java/com/swmansion/rnscreens/ScreenStack.kt: method ScreenStack.onUpdate",
		"src/main/java/com/swmansion/rnscreens/gamma/tabs/screen/TabsScreenIconTinting.kt: constant TabsScreenIconTinting.TINTED",
	}},
	// Export macros before a class's name (class JSI_EXPORT Name final) and
	// other macro-built declarations are outside tree-sitter-cpp's grammar.
	{name: "cpp-npm", sub: "react-native-screens_4.30.1/package/common/cpp", exts: []string{".cpp", ".h"}, minFiles: 30, maxBroken: 30, want: []string{
		"react/renderer/components/rnscreens/RNSFormSheetHostState.cpp: method RNSFormSheetHostState.getDynamic",
	}},
	// Unsafe pointer code (*((double*)p) = v) trips tree-sitter-c-sharp.
	{name: "csharp", sub: "electron-edge-js_44.0.0/package/src", exts: []string{".cs"}, minFiles: 10, maxBroken: 1, want: []string{
		"double/Edge.js/dotnet/EdgeJs.cs: class Edge",
		"double/Edge.js/dotnet/EdgeJs.cs: method Edge.Func",
		"double/Edge.js/dotnetcore/coreclrembedding.cs: class CoreCLREmbedding",
	}},
	{name: "ruby", sub: "_react-native-community_cli-platform-ios_6.2.1/package", exts: []string{".rb"}, minFiles: 1, want: []string{
		"native_modules.rb: function use_native_modules!",
	}},
	// A template with HTML after ?> is outside the PHP-only grammar.
	{name: "php", sub: "_wordpress_block-library_9.0.0/package/src", exts: []string{".php"}, minFiles: 50, maxBroken: 1, want: []string{
		"heading/index.php: function block_core_heading_render",
		"archives/index.php: function register_block_core_archives",
	}},
}

const prom = "github.com/prometheus/prometheus@v0.308.0"

// TestRealCode extracts real files of every language: each file's
// invariants hold (File.Validate), few files read with syntax errors,
// and known definitions are found with their kind and container.
func TestRealCode(t *testing.T) {
	npm := os.Getenv("CODECORTEX_SYMBOLS_CORPUS")
	for _, c := range realCorpora {
		t.Run(c.name, func(t *testing.T) {
			var root string
			if c.module != "" {
				root = moduleDir(t, c.module)
			} else {
				if npm == "" {
					t.Skip("set CODECORTEX_SYMBOLS_CORPUS to the npm corpus (see realCorpora)")
				}
				root = npm
			}
			dir := filepath.Join(root, filepath.FromSlash(c.sub))
			files := sourceFiles(t, dir, c.exts...)
			if len(files) < c.minFiles {
				t.Fatalf("%d files under %s, want at least %d", len(files), dir, c.minFiles)
			}
			found := map[string]bool{}
			symbols, broken := 0, 0
			var brokenFiles []string
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				rel, _ := filepath.Rel(dir, f)
				rel = filepath.ToSlash(rel)
				file, err := Extract(f, src)
				if err != nil {
					t.Fatal(err)
				}
				if err := file.Validate(len(src)); err != nil {
					t.Errorf("%s: %v", rel, err)
				}
				if file.Errors {
					broken++
					brokenFiles = append(brokenFiles, rel)
				}
				symbols += len(file.Symbols)
				for _, s := range file.Symbols {
					found[fmt.Sprintf("%s: %s %s", rel, s.Kind, joinName(s.Container, s.Name))] = true
				}
			}
			for _, w := range c.want {
				if !found[w] {
					t.Errorf("not found: %s", w)
				}
			}
			if broken > c.maxBroken {
				t.Errorf("%d files with syntax errors, want at most %d: %v", broken, c.maxBroken, brokenFiles)
			}
			if os.Getenv("SYMBOLS_DUMP") != "" {
				keys := make([]string, 0, len(found))
				for k := range found {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				os.WriteFile(filepath.Join(os.TempDir(), "symbols-"+c.name+".txt"), []byte(strings.Join(keys, "\n")), 0o644)
			}
			t.Logf("%d files, %d symbols, %d with syntax errors", len(files), symbols, broken)
		})
	}
}
