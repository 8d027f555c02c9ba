package depdocs

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestMultiVersionsProperties: every reported package has two or more
// versions, its direct versions are among them, and every package with
// two or more registry versions is reported.
func TestMultiVersionsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "n")
		var deps []Dependency
		for range n {
			deps = append(deps, Dependency{
				Ecosystem: rapid.SampledFrom([]Ecosystem{NPM, PyPI}).Draw(t, "eco"),
				Name:      rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "name"),
				Resolved:  rapid.SampledFrom([]string{"1.0.0", "1.1.0", "2.0.0"}).Draw(t, "version"),
				Relation:  rapid.SampledFrom([]Relation{Direct, Transitive}).Draw(t, "relation"),
				Source:    Registry,
			})
		}
		got := MultiVersions(deps)
		reported := map[string]bool{}
		for _, m := range got {
			reported[string(m.Ecosystem)+m.Name] = true
			if len(m.Versions) < 2 {
				t.Fatalf("%s reported with %v", m.Name, m.Versions)
			}
			for _, v := range m.Direct {
				if !slices.Contains(m.Versions, v) {
					t.Fatalf("direct %s not among %v", v, m.Versions)
				}
			}
		}
		versions := map[string]map[string]bool{}
		for _, d := range deps {
			k := string(d.Ecosystem) + d.Name
			if versions[k] == nil {
				versions[k] = map[string]bool{}
			}
			versions[k][d.Resolved] = true
		}
		for k, vs := range versions {
			if (len(vs) >= 2) != reported[k] {
				t.Fatalf("%s with %d versions reported=%v", k, len(vs), reported[k])
			}
		}
	})
}

// TestStripJSONCProperties: plain JSON passes through unchanged in meaning,
// and trailing commas and comments are removed without touching strings.
func TestStripJSONCProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfN(rapid.StringMatching(`[a-z,/*"\\ ]{0,6}`), 0, 5).Draw(t, "keys")
		m := map[string][]string{}
		for _, k := range keys {
			m[k] = rapid.SliceOfN(rapid.StringMatching(`[a-z,/*\]} ]{0,5}`), 0, 3).Draw(t, "values")
		}
		plain, _ := json.Marshal(m)
		out, err := stripJSONC(plain)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string][]string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s → %s: %v", plain, out, err)
		}
		if diff := cmp.Diff(m, back); diff != "" {
			t.Fatalf("(-want +got)\n%s", diff)
		}
		// Trailing commas and comments around numbers, in arrays and
		// objects, are removed.
		nums := rapid.SliceOfN(rapid.IntRange(-99, 99), 1, 6).Draw(t, "nums")
		var arr, obj []string
		want := map[string]int{}
		for i, x := range nums {
			arr = append(arr, strconv.Itoa(x))
			k := "k" + strconv.Itoa(i)
			obj = append(obj, strconv.Quote(k)+": "+strconv.Itoa(x)+" /* c */")
			want[k] = x
		}
		src := "// head\n{\"a\": [" + strings.Join(arr, ", ") + ",], \"o\": {" + strings.Join(obj, ",\n") + ",\n},}"
		out, err = stripJSONC([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			A []int          `json:"a"`
			O map[string]int `json:"o"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("%s → %s: %v", src, out, err)
		}
		if diff := cmp.Diff(nums, v.A); diff != "" {
			t.Fatalf("array (-want +got)\n%s", diff)
		}
		if diff := cmp.Diff(want, v.O); diff != "" {
			t.Fatalf("object (-want +got)\n%s", diff)
		}
	})
}
