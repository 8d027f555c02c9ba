package precision

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// generatorProject is writeProject with the index moved to prepared.scip,
// and the command of the fake generator that copies it to index.scip.
func generatorProject(t *testing.T) (dir string, argv []string) {
	t.Helper()
	dir = writeProject(t)
	if err := os.Rename(filepath.Join(dir, "index.scip"), filepath.Join(dir, "prepared.scip")); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return dir, []string{exe, fakeGenerator, "prepared.scip", "index.scip"}
}

func generations(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "generations.log"))
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// Ten concurrent questions on a project without an index start the
// generator once, whether they come from ten processes or from ten
// providers in one; every one answers from the generated index.
func TestOneGenerationAtATime(t *testing.T) {
	t.Run("processes", func(t *testing.T) {
		dir, argv := generatorProject(t)
		exe := argv[0]
		var wg sync.WaitGroup
		out := make([]string, 10)
		for i := range out {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := safeexec.Run(context.Background(), safeexec.Invocation{
					Path: exe, Args: append([]string{fakeQuery, dir}, argv...), Dir: dir,
					Env: safeexec.Environ("PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME")})
				out[i] = strings.TrimSpace(string(res.Stdout))
				if err != nil {
					out[i] += " " + err.Error() + ": " + string(res.Stderr)
				}
			}()
		}
		wg.Wait()
		for i, o := range out {
			if o != "1 available <nil>" {
				t.Errorf("process %d answered %q, want one fresh record", i, o)
			}
		}
		if n := generations(t, dir); n != 1 {
			t.Errorf("the generator ran %d times, want once", n)
		}
	})
	t.Run("providers", func(t *testing.T) {
		dir, argv := generatorProject(t)
		var wg sync.WaitGroup
		errs := make([]error, 10)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := New(Options{Dir: dir, IndexPath: "index.scip", AutoGenerate: true, GeneratorCommand: argv})
				defer p.Close()
				resp, err := p.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 2, Column: 12,
					Kinds: []evidence.Kind{evidence.Definition}})
				switch {
				case err != nil:
					errs[i] = err
				case len(resp.Records) != 1 || resp.Report.State != evidence.Available:
					errs[i] = errors.New("answer " + resp.Report.Reason)
				}
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("provider %d: %v", i, err)
			}
		}
		if n := generations(t, dir); n != 1 {
			t.Errorf("the generator ran %d times, want once", n)
		}
	})
}

// While a generator writes the new index slowly, a reader of the project
// is served the previous index, marked stale, and never the half-written
// one; afterwards it is served the new one, fresh.
func TestHalfWrittenIndexIsNeverServed(t *testing.T) {
	dir, argv := generatorProject(t)
	prepared, err := os.ReadFile(filepath.Join(dir, "prepared.scip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.scip"), prepared, 0o644); err != nil {
		t.Fatal(err)
	}
	touch(t, filepath.Join(dir, "a.go"), time.Now().Add(time.Hour)) // stale now
	q := evidence.Query{Path: "a.go", Line: 2, Column: 12, Kinds: []evidence.Kind{evidence.Definition}}

	done := make(chan error, 1)
	go func() {
		g := New(Options{Dir: dir, IndexPath: "index.scip", AutoGenerate: true, GeneratorCommand: argv})
		defer g.Close()
		resp, err := g.Gather(context.Background(), q)
		if err == nil && (len(resp.Records) != 1 || resp.Report.State != evidence.Available) {
			err = errors.New("the generating provider answered " + resp.Report.Reason)
		}
		done <- err
	}()
	reader := New(Options{Dir: dir, IndexPath: "index.scip"})
	defer reader.Close()
	during := 0
	for finished := false; !finished; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished = true
		default:
		}
		generating := exists(filepath.Join(dir, "generating.marker"))
		resp, err := reader.Gather(context.Background(), q)
		if err != nil {
			t.Fatalf("a reader during generation: %v", err)
		}
		if len(resp.Records) != 1 {
			t.Fatalf("a reader during generation got %d records (report %+v)", len(resp.Records), resp.Report)
		}
		if generating && exists(filepath.Join(dir, "generating.marker")) {
			during++
			if resp.Report.State != evidence.StaleState {
				t.Errorf("during generation the answer is %s, want the previous index, stale", resp.Report.State)
			}
		}
		time.Sleep(time.Millisecond)
	}
	if during == 0 {
		t.Fatal("no read happened while the generator ran: the test proves nothing")
	}
	resp, err := reader.Gather(context.Background(), q)
	if err != nil || resp.Report.State != evidence.Available || len(resp.Records) != 1 {
		t.Errorf("after generation: %+v, %v", resp, err)
	}
	if n := generations(t, dir); n != 1 {
		t.Errorf("the generator ran %d times, want once", n)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".index.scip.generating*")); len(entries) != 0 {
		t.Errorf("temporary files left: %v", entries)
	}
	t.Logf("%d reads during generation", during)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func TestRedirectOutput(t *testing.T) {
	const rel, abs, tmp = ".codecortex/precision/index.cortexidx", "/p/.codecortex/precision/index.cortexidx", "/p/.codecortex/precision/.index.cortexidx.generating"
	tests := []struct {
		name   string
		args   []string
		want   []string
		wantOK bool
	}{
		{"flag and value", []string{"--output", rel}, []string{"--output", tmp}, true},
		{"flag=value", []string{"--output=" + rel, "./..."}, []string{"--output=" + tmp, "./..."}, true},
		{"absolute", []string{"-o", abs}, []string{"-o", tmp}, true},
		{"unclean", []string{"index", "--output", "./.codecortex//precision/index.cortexidx"}, []string{"index", "--output", tmp}, true},
		{"not named", []string{"--output", "index.scip"}, []string{"--output", "index.scip"}, false},
		{"another absolute path", []string{"/q/.codecortex/precision/index.cortexidx"}, []string{"/q/.codecortex/precision/index.cortexidx"}, false},
		{"nothing", nil, []string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := redirectOutput(tt.args, rel, abs, tmp)
			if diff := cmp.Diff(tt.want, got); diff != "" || ok != tt.wantOK {
				t.Errorf("redirectOutput = %v (-want +got):\n%s", ok, diff)
			}
		})
	}
}

// A generator command that does not name the index cannot be pointed at a
// temporary file: it is refused with guidance rather than run in place.
func TestGeneratorMustNameTheIndex(t *testing.T) {
	dir, argv := generatorProject(t)
	var progress bytes.Buffer
	p := New(Options{Dir: dir, IndexPath: "index.scip", AutoGenerate: true,
		GeneratorCommand: []string{argv[0], fakeGenerator, "prepared.scip", "elsewhere.scip"}, Progress: &progress})
	defer p.Close()
	st := p.Status(context.Background())
	if st.State != evidence.Unavailable || !strings.Contains(st.Reason, "does not name the index path index.scip") ||
		!strings.Contains(st.Guidance, "scip-go --output index.scip") {
		t.Errorf("status = %+v", st)
	}
	if n := generations(t, dir); n != 0 {
		t.Errorf("the generator ran %d times", n)
	}
}

// A generator whose output does not load leaves the index as it was and
// says why.
func TestGeneratedIndexMustLoad(t *testing.T) {
	dir, argv := generatorProject(t)
	if err := os.WriteFile(filepath.Join(dir, "prepared.scip"), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := New(Options{Dir: dir, IndexPath: "index.scip", AutoGenerate: true, GeneratorCommand: argv})
	defer p.Close()
	st := p.Status(context.Background())
	if st.State != evidence.Unavailable || !strings.Contains(st.Reason, "generated index is unusable") {
		t.Errorf("status = %+v", st)
	}
	if exists(filepath.Join(dir, "index.scip")) || exists(filepath.Join(dir, ".index.scip.generating")) {
		t.Error("an unusable generated index was installed or left behind")
	}
	lock, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(LockPath)))
	if err != nil || !strings.Contains(string(lock), "failed at") {
		t.Errorf("lock file = %q, %v; want the failure recorded", lock, err)
	}
}
