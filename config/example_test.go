package config_test

import (
	"fmt"

	"github.com/codecortex/codecortex/config"
)

func ExampleParse() {
	cfg, diags := config.Parse([]byte(`{
		"structural": {"max_rewrite_files": "ten"},
		"dependency_docs": {"enabled": true, "colour": "blue"}
	}`))
	fmt.Println(cfg.Structural.MaxRewriteFiles, cfg.DependencyDocs.Enabled)
	for _, d := range diags {
		fmt.Println(d)
	}
	// Output:
	// 50 true
	// warning: dependency_docs: unknown key "colour" ignored
	// error: structural: max_rewrite_files: expected an integer in range, got JSON string; section uses its defaults
}
