package symbols

// jsonFile reads a JSON document: the keys of its top-level object, as
// Fields (JSON defines no names, but a configuration file's sections are
// what one looks up: "scripts", "compilerOptions"). Nothing is exported
// and nothing imported; deeper keys are left out.
func (x *extractor) jsonFile() {
	doc := x.t.Root()
	obj, ok := x.childOfKind(doc, "object")
	if !ok {
		return
	}
	for _, p := range x.kids(obj) {
		if x.kind(p) != "pair" {
			continue
		}
		key, ok := x.field(p, "key")
		if !ok {
			continue
		}
		name := key
		if c, ok := x.childOfKind(key, "string_content"); ok {
			name = c
		}
		hs, he := x.t.StartByte(p), x.t.EndByte(p)
		if v, ok := x.field(p, "value"); ok {
			switch x.kind(v) {
			case "object", "array":
				he = x.t.StartByte(v) + 1
			}
		}
		x.add(def{kind: Field, name: x.text(name), nameNode: name, node: p, headStart: hs, headEnd: he})
	}
}
