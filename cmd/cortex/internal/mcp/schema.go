package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schemas are derived from the Go types of a tool's parameters and
// result, then made strict:
//
//   - jsonschema.For gives the shape: properties from the json tags,
//     required for every field without omitempty, the jsonschema tag as
//     the description;
//   - the constraint tags below add bounds, enums, defaults and patterns;
//   - strictify removes every ["null", T] union the generator writes for
//     slices and pointers (some hosts reject them) and closes every object
//     with additionalProperties: false.
//
// Constraint tags on a parameter field (for a slice, every one but
// maxItems applies to its items):
//
//	minimum:"1" maximum:"10000"  numeric bounds
//	minLength:"1" maxLength:"400" string length in code points
//	maxItems:"64"                array length
//	pattern:"^[a-z]+$"           a regular expression strings must match
//	enum:"a|b|c" or enum:"$set"  the allowed values, literal or a named set
//	default:"4000"               the value an absent field takes (JSON)

// constraintTags are the struct tags schemaFor reads.
var constraintTags = []string{"minimum", "maximum", "minLength", "maxLength", "maxItems", "pattern", "enum", "default"}

// schemaFor returns the strict schema of T, a struct. sets names the
// enum sets a field may refer to as enum:"$name".
func schemaFor(t reflect.Type, sets map[string][]string) (*jsonschema.Schema, error) {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{})
	if err != nil {
		return nil, err
	}
	if err := applyTags(t, s, sets); err != nil {
		return nil, fmt.Errorf("%s: %w", t, err)
	}
	strictify(s)
	return s, nil
}

// applyTags walks the struct type t beside its schema s and adds the
// constraints its fields' tags ask for.
func applyTags(t reflect.Type, s *jsonschema.Schema, sets map[string][]string) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
		if s.Items != nil {
			s = s.Items
		}
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		ps := s.Properties[name]
		if ps == nil {
			continue
		}
		if err := applyField(f, ps, sets); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if err := applyTags(f.Type, ps, sets); err != nil {
			return err
		}
	}
	return nil
}

// applyField applies one field's constraint tags to its schema ps.
func applyField(f reflect.StructField, ps *jsonschema.Schema, sets map[string][]string) error {
	target := ps // where value constraints go: the items of a slice
	ft := f.Type
	if ft.Kind() == reflect.Slice && ps.Items != nil {
		target = ps.Items
		ft = ft.Elem()
	}
	for _, tag := range constraintTags {
		v, ok := f.Tag.Lookup(tag)
		if !ok {
			continue
		}
		switch tag {
		case "minimum", "maximum":
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("%s %q: %w", tag, v, err)
			}
			if tag == "minimum" {
				target.Minimum = &n
			} else {
				target.Maximum = &n
			}
		case "minLength", "maxLength", "maxItems":
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%s %q: %w", tag, v, err)
			}
			switch tag {
			case "minLength":
				target.MinLength = &n
			case "maxLength":
				target.MaxLength = &n
			default:
				ps.MaxItems = &n
			}
		case "pattern":
			if _, err := regexp.Compile(v); err != nil {
				return fmt.Errorf("pattern %q: %w", v, err)
			}
			target.Pattern = v
		case "enum":
			var vals []string
			if name, ok := strings.CutPrefix(v, "$"); ok {
				set, ok := sets[name]
				if !ok {
					return fmt.Errorf("no enum set %q", name)
				}
				vals = set
			} else {
				vals = strings.Split(v, "|")
			}
			target.Enum = nil
			for _, e := range vals {
				target.Enum = append(target.Enum, e)
			}
		case "default":
			var raw json.RawMessage
			if ft.Kind() == reflect.String {
				raw, _ = json.Marshal(v)
			} else {
				if !json.Valid([]byte(v)) {
					return fmt.Errorf("default %q is not JSON", v)
				}
				raw = json.RawMessage(v)
			}
			ps.Default = raw
		}
	}
	return nil
}

// strictify makes s strict in place, recursively: a ["null", T] union
// becomes T, and every object schema forbids properties it does not list.
func strictify(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(types) == 1 {
			s.Type, s.Types = types[0], nil
		} else {
			s.Types = types
		}
	}
	if s.Type == "object" && s.AdditionalProperties == nil {
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	}
	for _, p := range s.Properties {
		strictify(p)
	}
	strictify(s.Items)
	if s.AdditionalProperties != nil && s.AdditionalProperties.Not == nil {
		strictify(s.AdditionalProperties)
	}
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, c := range list {
			strictify(c)
		}
	}
	for _, d := range s.Defs {
		strictify(d)
	}
}

// StrictProblems lists what makes the JSON schema doc (as a client reads
// it) less than strict, each with its location: a type that is a list or
// "null", an object that does not forbid unlisted properties or requires
// a property it does not list, an array without items, a union keyword
// (anyOf, oneOf, allOf), or, when described is set, a property without a
// description. An empty list means strict at every level.
func StrictProblems(doc any, described bool) []string {
	var out []string
	walkStrict(doc, "#", described, &out)
	sort.Strings(out)
	return out
}

func walkStrict(node any, at string, described bool, out *[]string) {
	m, ok := node.(map[string]any)
	if !ok {
		*out = append(*out, at+": not a schema object")
		return
	}
	bad := func(format string, args ...any) { *out = append(*out, at+": "+fmt.Sprintf(format, args...)) }
	typ, isString := m["type"].(string)
	switch {
	case m["type"] == nil:
		bad("no type")
	case !isString:
		bad("type %v is not a single type", m["type"])
	case typ == "null":
		bad("type null")
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "$ref"} {
		if _, ok := m[k]; ok {
			bad("%s is not allowed", k)
		}
	}
	switch typ {
	case "object":
		if ap, ok := m["additionalProperties"]; !ok || ap != false {
			bad("additionalProperties is %v, want false", ap)
		}
		props, _ := m["properties"].(map[string]any)
		if req, ok := m["required"].([]any); ok {
			for _, r := range req {
				if _, ok := props[fmt.Sprint(r)]; !ok {
					bad("requires %v, which it does not list", r)
				}
			}
		}
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			p := props[k]
			if described {
				if pm, ok := p.(map[string]any); ok {
					if d, _ := pm["description"].(string); strings.TrimSpace(d) == "" {
						*out = append(*out, at+"/properties/"+k+": no description")
					}
				}
			}
			walkStrict(p, at+"/properties/"+k, described, out)
		}
	case "array":
		items, ok := m["items"]
		if !ok {
			bad("array without items")
		} else {
			walkStrict(items, at+"/items", false, out)
		}
	}
}

// schemaDoc returns s as the JSON a client reads.
func schemaDoc(s *jsonschema.Schema) (map[string]any, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	err = json.Unmarshal(b, &doc)
	return doc, err
}
