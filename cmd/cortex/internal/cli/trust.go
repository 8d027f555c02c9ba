package cli

import (
	"context"
	"errors"

	"github.com/codecortex/codecortex/config"
)

// trustJSON is what cortex trust --json prints.
type trustJSON struct {
	Root   string       `json:"root"`
	File   string       `json:"file"`
	Action string       `json:"action"` // "trusted", "revoked", "shown", "nothing to trust"
	Trust  config.Trust `json:"trust"`
	Store  string       `json:"store"`
}

// runTrust is cortex trust: it records that this project's configuration,
// exactly as it is now, may run the programs and reach the endpoint it
// names, and that the settings of the repository's git configuration that
// need trust, exactly as they are now, may apply when the history layer
// runs git. --show only shows what each asks for; --revoke withdraws
// trust from both.
func runTrust(ctx context.Context, c *cmd, args []string) int {
	show := c.fs.Bool("show", false, "show what the configuration asks to run or send, and whether it is trusted; change nothing")
	revoke := c.fs.Bool("revoke", false, "withdraw trust from this project's configuration and its git configuration")
	if _, code, ok := c.parse(args, 0, 0); !ok {
		return code
	}
	if *show && *revoke {
		return c.usageError(errors.New("--show and --revoke exclude each other"))
	}
	p, err := c.openProject(true)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	store := config.TrustStore{Getenv: c.Getenv}
	storeFile, err := store.File()
	if err != nil {
		return c.fail(err)
	}
	out := trustJSON{Root: p.Root, File: config.File, Trust: p.Trust, Store: storeFile}
	switch {
	case *show:
		out.Action = "shown"
	case *revoke:
		found, err := store.Revoke(p.Root)
		if err != nil {
			return c.fail(err)
		}
		out.Action = "revoked"
		if !found {
			out.Action = "nothing to revoke"
		}
	default:
		if err := trustProject(p, store, &out); err != nil {
			return c.fail(err)
		}
	}
	if c.json != jsonOff {
		if err := c.writeJSON(out); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	printTrust(c, p, out.Action, storeFile)
	return ExitOK
}

// trustProject trusts what the project's configuration and its git
// configuration ask for, whichever needs it, and says so in out.
func trustProject(p *project, store config.TrustStore, out *trustJSON) error {
	needConfig := p.Trust.Digest != "" && len(p.Trust.Requests) > 0
	needGit := p.Trust.Git.Digest != ""
	if !needConfig && !needGit {
		out.Action = "nothing to trust"
		return nil
	}
	if needConfig {
		if err := store.Trust(p.Root, p.Trust.Digest); err != nil {
			return err
		}
		out.Trust.Trusted, out.Trust.Withheld = true, []string{}
		out.Trust.Reason = "trusted in the trust store"
	}
	if needGit {
		if err := store.TrustGit(p.Root, p.Trust.Git.Digest); err != nil {
			return err
		}
		out.Trust.Git.Trusted = true
		out.Trust.Git.Reason = "the git configuration is trusted in the trust store"
	}
	out.Action = "trusted"
	return nil
}

// printTrust prints for people what the configuration asks for, the git
// configuration's trust, and what action did.
func printTrust(c *cmd, p *project, action, storeFile string) {
	c.printf("configuration  %s\n", safe(p.Root+"/"+config.File))
	if p.Trust.Digest != "" {
		c.printf("digest         %s\n", p.Trust.Digest)
	}
	if len(p.Trust.Requests) == 0 {
		c.printf("asks for       nothing that needs trust: it runs no program and sends nothing\n")
	}
	for i, r := range p.Trust.Requests {
		label := ""
		if i == 0 {
			label = "asks for"
		}
		c.printf("%-14s %s\n", label, safe(r))
	}
	printGitTrust(c, p.Trust.Git)
	switch action {
	case "trusted":
		c.printf("\ntrusted: recorded in %s; an edit to what needs trust needs trust again\n", safe(storeFile))
	case "revoked":
		c.printf("\nrevoked: what the file asks to run or send is withheld again, and git history declines the git configuration again\n")
	case "nothing to revoke":
		c.printf("\nthe trust store held no trust for this project\n")
	case "shown":
		c.printf("\n%s\n%s\n", safe(p.Trust.Reason), safe(p.Trust.Git.Reason))
	}
}

// printGitTrust prints, for people, what the repository's git
// configuration sets that needs trust and what is switched off anyway.
func printGitTrust(c *cmd, g config.GitTrust) {
	if len(g.Files) == 0 && g.Digest == "" {
		return
	}
	c.printf("\n")
	for i, f := range g.Files {
		label := ""
		if i == 0 {
			label = "git config"
		}
		c.printf("%-14s %s\n", label, safe(f))
	}
	if g.Digest != "" {
		c.printf("digest         %s\n", g.Digest)
	}
	if len(g.Requests) == 0 {
		c.printf("asks for       nothing that needs trust: git runs no program, reads no file and fetches nothing it names\n")
	}
	for i, r := range g.Requests {
		label := ""
		if i == 0 {
			label = "asks for"
		}
		c.printf("%-14s %s\n", label, safe(r))
	}
	for i, r := range g.Neutralised {
		label := ""
		if i == 0 {
			label = "switched off"
		}
		c.printf("%-14s %s\n", label, safe(r))
	}
}
