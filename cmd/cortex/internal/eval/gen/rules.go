package gen

// The ast-grep rules that give the truth of the languages without a SCIP
// indexer here. Every rule matches the name node itself, so that a match
// is small and its line is the line of the name; a rule's id says what the
// match is: def-KIND (a definition; $TYPE, when captured, is the type,
// trait, class or module it is a member of), call (a call site of the
// name), impl ($SUB extends or implements $SUPER, at the line of $SUPER)
// and testscope (a region of a file that holds tests).
//
// Checked by hand, reading the lines each names, on a seeded sample of ten
// matches per rule on the corpora of scripts/eval-corpora.sh (semver,
// regex-syntax, thor, rack, jsoup, jansson):
//   - Rust: fn items and trait method signatures, with the impl's type or the
//     trait as container; calls through a path (a::b::f), a method
//     (x.f()), turbofish (f::<T>()); `impl Trait for Type` as the only
//     inheritance; `mod tests` as the test region. Macros are not calls.
//   - Ruby: class, module, def and def self.; calls with a method field
//     (receiver or arguments present); `class A < B` and a receiverless
//     include/prepend/extend inside a class or module. A bare identifier
//     that is a call without arguments is not counted: the syntax cannot
//     tell it from a local variable.
//   - Java: classes, interfaces, enums, methods (at the name's line, not
//     the annotation's); method invocations; each type in extends and
//     implements lists (generic type arguments are not supertypes).
//     Constructors and `new T()` are left out.
//   - C: function definitions (also those returning a pointer) and structs
//     with a body; calls of a name (not through a function pointer field).
var astGrepRules = map[string]string{
	"rust": `
id: def-function
language: rust
rule:
  kind: identifier
  pattern: $NAME
  inside:
    field: name
    kind: function_item
    not: {inside: {any: [{kind: impl_item}, {kind: trait_item}], stopBy: end}}
---
id: def-method
language: rust
rule:
  kind: identifier
  pattern: $NAME
  inside:
    field: name
    any: [{kind: function_item}, {kind: function_signature_item}]
    inside:
      stopBy: end
      any:
        - {kind: impl_item, has: {field: type, pattern: $TYPE}}
        - {kind: trait_item, has: {field: name, pattern: $TYPE}}
---
id: def-struct
language: rust
rule: {kind: type_identifier, pattern: $NAME, inside: {field: name, kind: struct_item}}
---
id: def-enum
language: rust
rule: {kind: type_identifier, pattern: $NAME, inside: {field: name, kind: enum_item}}
---
id: def-trait
language: rust
rule: {kind: type_identifier, pattern: $NAME, inside: {field: name, kind: trait_item}}
---
id: call
language: rust
rule:
  pattern: $NAME
  any:
    - {kind: identifier, inside: {field: function, kind: call_expression}}
    - {kind: identifier, inside: {field: name, kind: scoped_identifier, inside: {field: function, kind: call_expression}}}
    - {kind: field_identifier, inside: {field: field, kind: field_expression, inside: {field: function, kind: call_expression}}}
    - {kind: identifier, inside: {field: function, kind: generic_function, inside: {field: function, kind: call_expression}}}
    - {kind: identifier, inside: {field: name, kind: scoped_identifier, inside: {field: function, kind: generic_function, inside: {field: function, kind: call_expression}}}}
    - {kind: field_identifier, inside: {field: field, kind: field_expression, inside: {field: function, kind: generic_function, inside: {field: function, kind: call_expression}}}}
---
id: impl
language: rust
rule:
  pattern: $SUPER
  any:
    - {kind: type_identifier, inside: {field: trait, kind: impl_item}}
    - {kind: type_identifier, inside: {field: name, kind: scoped_type_identifier, inside: {field: trait, kind: impl_item}}}
    - {kind: type_identifier, inside: {field: type, kind: generic_type, inside: {field: trait, kind: impl_item}}}
  inside:
    stopBy: end
    kind: impl_item
    has: {field: type, pattern: $SUB}
---
id: testscope
language: rust
rule:
  kind: mod_item
  has: {field: name, regex: '^tests?$'}
`,
	"ruby": `
id: def-class
language: ruby
rule: {pattern: $NAME, any: [{kind: constant}, {kind: scope_resolution}], inside: {field: name, kind: class}}
---
id: def-module
language: ruby
rule: {pattern: $NAME, any: [{kind: constant}, {kind: scope_resolution}], inside: {field: name, kind: module}}
---
id: def-method
language: ruby
rule:
  pattern: $NAME
  any: [{kind: identifier}, {kind: constant}]
  inside:
    field: name
    any: [{kind: method}, {kind: singleton_method}]
    inside:
      stopBy: end
      any:
        - {kind: class, has: {field: name, pattern: $TYPE}}
        - {kind: module, has: {field: name, pattern: $TYPE}}
---
id: def-function
language: ruby
rule:
  pattern: $NAME
  any: [{kind: identifier}, {kind: constant}]
  inside:
    field: name
    any: [{kind: method}, {kind: singleton_method}]
    not: {inside: {stopBy: end, any: [{kind: class}, {kind: module}]}}
---
id: call
language: ruby
rule:
  pattern: $NAME
  kind: identifier
  not: {regex: '^(include|extend|prepend|require|require_relative|attr_reader|attr_accessor|attr_writer|raise|new|super)$'}
  inside: {field: method, kind: call}
---
id: impl
language: ruby
rule:
  pattern: $SUPER
  any: [{kind: constant}, {kind: scope_resolution}]
  inside:
    kind: superclass
    inside: {kind: class, has: {field: name, pattern: $SUB}}
---
id: impl-include
language: ruby
rule:
  pattern: $SUPER
  any: [{kind: constant}, {kind: scope_resolution}]
  inside:
    kind: argument_list
    inside:
      kind: call
      has: {field: method, regex: '^(include|prepend|extend)$'}
      not: {has: {field: receiver, regex: '.'}}
      inside:
        stopBy: end
        any:
          - {kind: class, has: {field: name, pattern: $SUB}}
          - {kind: module, has: {field: name, pattern: $SUB}}
`,
	"java": `
id: def-class
language: java
rule: {kind: identifier, pattern: $NAME, inside: {field: name, kind: class_declaration}}
---
id: def-interface
language: java
rule: {kind: identifier, pattern: $NAME, inside: {field: name, kind: interface_declaration}}
---
id: def-enum
language: java
rule: {kind: identifier, pattern: $NAME, inside: {field: name, kind: enum_declaration}}
---
id: def-method
language: java
rule:
  kind: identifier
  pattern: $NAME
  inside:
    field: name
    kind: method_declaration
    inside:
      stopBy: end
      any:
        - {kind: class_declaration, has: {field: name, pattern: $TYPE}}
        - {kind: interface_declaration, has: {field: name, pattern: $TYPE}}
        - {kind: enum_declaration, has: {field: name, pattern: $TYPE}}
---
id: call
language: java
rule: {kind: identifier, pattern: $NAME, inside: {field: name, kind: method_invocation}}
---
id: impl
language: java
rule:
  kind: type_identifier
  pattern: $SUPER
  inside:
    any: [{kind: superclass}, {kind: type_list}]
  all:
    - inside:
        stopBy: end
        any:
          - {kind: class_declaration, has: {field: name, pattern: $SUB}}
          - {kind: interface_declaration, has: {field: name, pattern: $SUB}}
          - {kind: enum_declaration, has: {field: name, pattern: $SUB}}
`,
	"c": `
id: def-function
language: c
rule:
  kind: identifier
  pattern: $NAME
  inside:
    field: declarator
    kind: function_declarator
    inside:
      any:
        - {kind: function_definition}
        - {kind: pointer_declarator, inside: {kind: function_definition}}
---
id: def-struct
language: c
rule:
  kind: type_identifier
  pattern: $NAME
  inside:
    field: name
    kind: struct_specifier
    has: {field: body, kind: field_declaration_list}
---
id: call
language: c
rule: {kind: identifier, pattern: $NAME, inside: {field: function, kind: call_expression}}
`,
}
