package depsource

import (
	"context"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

const sp = ".venv/lib/python3.12/site-packages/"

func pythonTree(t *testing.T, files map[string]string) string {
	t.Helper()
	base := map[string]string{
		"requirements.txt":                             "requests==2.31.0\nPyYAML==6.0.1\nsix==1.16.0\n",
		sp + "requests-2.31.0.dist-info/METADATA":      "Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\n\nVersion: 9.9.9 in the description\n",
		sp + "requests/__init__.py":                    "from .api import get\n",
		sp + "requests/api.py":                         "def request(method, url):\n    pass\n\n\ndef get(url, params=None, **kwargs):\n    return request('get', url)\n",
		sp + "requests/sessions.py":                    "class Session:\n    def get(self, url):\n        pass\n",
		sp + "requests/__pycache__/api.cpython-312.py": "def get(): pass\n",
		sp + "PyYAML-6.0.1.dist-info/METADATA":         "Name: PyYAML\nVersion: 6.0.1\n",
		sp + "PyYAML-6.0.1.dist-info/top_level.txt":    "_yaml\nyaml\n",
		sp + "yaml/__init__.py":                        "def safe_load(stream):\n    return load(stream)\n",
		sp + "six-1.16.0.dist-info/METADATA":           "Name: six\nVersion: 1.16.0\n",
		sp + "six.py":                                  "def iteritems(d, **kw):\n    return iter(d.items(**kw))\n",
	}
	for k, v := range files {
		base[k] = v
	}
	return testtool.WriteTree(t, base)
}

func TestSitePackages(t *testing.T) {
	ctx := context.Background()
	dir := pythonTree(t, nil)
	p := New(Options{Dir: dir})
	for name, want := range map[string]string{
		"requests.get":              sp + "requests/api.py:5",
		"requests.Session.get":      sp + "requests/sessions.py:2",
		"requests.sessions.Session": sp + "requests/sessions.py:1",
		"yaml.safe_load":            sp + "yaml/__init__.py:1",
		"six.iteritems":             sp + "six.py:1",
		"requests.nothing":          "",
	} {
		res, err := p.Find(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(found(res, ""), ",")
		if got != want || len(res.Problems) > 0 {
			t.Errorf("%s: %q %v, want %q", name, got, res.Problems, want)
		}
		for _, d := range res.Definitions {
			if d.Copy.Checked != "requirements.txt" {
				t.Errorf("%s: checked against %q", name, d.Copy.Checked)
			}
			r := d.Record()
			wantSym := name
			if name == "requests.sessions.Session" {
				wantSym = "requests.Session" // the name the package's code gives it
			}
			if err := r.Validate(); err != nil || p.CheckRecord(&r) != nil || r.Symbol != wantSym {
				t.Errorf("%s: record %s %s: %v %v", name, r.Location(), r.Symbol, err, p.CheckRecord(&r))
			}
		}
	}

	// An installed version that is not the pinned one is reported.
	dir = pythonTree(t, map[string]string{sp + "requests-2.31.0.dist-info/METADATA": "Name: requests\nVersion: 2.30.0\n"})
	res, _ := New(Options{Dir: dir}).Find(ctx, "requests.get")
	if len(res.Definitions) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "is version 2.30.0, requirements.txt resolves 2.31.0") {
		t.Fatalf("mismatch: %+v", res)
	}

	// No virtual environment: reported, with what to do.
	dir = testtool.WriteTree(t, map[string]string{"requirements.txt": "requests==2.31.0\n"})
	res, _ = New(Options{Dir: dir}).Find(ctx, "requests.get")
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, "no virtual environment") || res.Problems[0].Guidance == "" {
		t.Fatalf("no venv: %+v", res)
	}
}

func TestMetadataVersion(t *testing.T) {
	n, v, err := metadataVersion([]byte("Metadata-Version: 2.1\nName: PyYAML\nVersion: 6.0.1\nSummary: x\n\nVersion: 1\n"))
	if err != nil || n != "PyYAML" || v != "6.0.1" {
		t.Fatalf("%q %q %v", n, v, err)
	}
	for _, in := range []string{"", "Name: x\n", "Name: x\n\nVersion: 1\n", "Version: 1 2\n"} {
		if _, v, err := metadataVersion([]byte(in)); err == nil {
			t.Errorf("%q: %q without an error", in, v)
		}
	}
}

func FuzzMetadataVersion(f *testing.F) {
	f.Add([]byte("Name: a\nVersion: 1.0\n"))
	f.Add([]byte("Version:\x00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, v, err := metadataVersion(data)
		if err == nil && (v == "" || strings.ContainsAny(v, " \t\n\x00") || len(v) > 256) {
			t.Fatalf("accepted version %q", v)
		}
	})
}
