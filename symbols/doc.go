// Package symbols reads, from a source file of any language the syntax
// floor parses, the definitions it makes and the imports it reads: each
// definition with its name, kind, container, package, one-line signature,
// exported flag, doc line, and the range of its name and of the whole
// definition. A definition found this way is a parsed-syntax fact about a
// name, never a resolution by identity: evidence built on it is
// structural at most.
//
// [Extract] parses a file once and reads it; [ExtractTree] reads a tree the
// caller already parsed with [syntax.Parse], so that one parse serves the
// symbols, the chunks of an index and structural search alike.
//
// # What every language shares
//
// Symbols are listed in document order, outer before inner. Only
// definitions at the top level and inside the declarations that group
// others (classes, structs, interfaces, traits, impls, namespaces,
// modules, objects) are read, and the definitions nested in functions
// too: in Python, JavaScript and TypeScript the functions and classes, in
// Rust the items of a function's body, in Java the local and anonymous
// classes, in Ruby the classes, modules and defs in expressions and
// blocks; a function's locals are not. [Symbol.Container] is the enclosing type or module (or, for a
// nested function, the enclosing definitions), nested ones joined with a
// dot ("Outer.Inner"); [Symbol.Package] is what the file
// declares (a Go package clause, a Java or Kotlin package, a C#, C++ or
// PHP namespace), empty where the language gives a file none.
//
// [Symbol.Range] is the whole definition (with its keyword, export or
// template wrapper and in-line annotations; a grouped Go spec or a
// declarator of several is its own line); [Symbol.NameRange] its name.
// Ranges are one-based lines and code-point columns, half-open, with
// byte offsets.
//
// [Symbol.Signature] is the definition's head up to its body (a function's
// block, a class's member list, a variable's value), with comments and
// attributes left out, white space collapsed to one line, a trailing ";"
// or "=" dropped, and at most [MaxSignature] code points.
//
// [Symbol.DocLine] is the first line of the block of comment and
// attribute (decorator, annotation) lines directly above the definition,
// with no blank line between; the definition's first line when there is
// none, or when the definition does not start its line.
//
// # Bases
//
// [File.Refs] holds the names a file uses; those of kind [Inherit] are
// the bases its definitions declare, one per base: the base's last name
// (Base in pkg.Base<T>, with pkg as its qualifier), never a type argument,
// a part of the qualifier, a keyword argument (Python's metaclass=) or a
// base that is a call (a mixin function, Ruby's Struct.new). They are:
// JavaScript and TypeScript extends and implements of classes and
// interfaces; Python class bases; Ruby's class A < B, and include, extend
// and prepend written in a class's or module's body; Rust's impl Trait for
// Type, whose ref carries the type as [Ref.Of] (the impl is no definition);
// Java, C#, Kotlin, PHP and C++ superclasses and interfaces; Go's embedded
// struct fields and the interfaces an interface embeds.
//
// # Languages
//
// Go: the package clause; imports (Alias for a named, dot or blank
// import); functions, methods (Container: the receiver's type name),
// types (Struct, Interface, or Type for any other type and for aliases),
// struct fields (an embedded field is named by its type), interface
// methods, constants and variables (the blank identifier left out).
// Exported: the name starts with an upper-case letter.
//
// Python: imports (import a.b as c gives Path a.b, Alias c; from m import
// n as c gives Path m, Name n, Alias c; relative modules as written);
// functions, classes, methods (Container: the class), nested classes;
// names assigned at the top level (Constant when written in capitals or
// annotated Final, Variable otherwise) and in a class body (Field).
// Definitions under if, try and with at the top level or in a class count.
// Functions and classes defined in a function's body (under its compound
// statements too) are Function and Class, Container the enclosing
// definitions ("Cart.total.inner"), not exported.
// Exported: listed in __all__ when the module has one, else no leading
// underscore; members: no leading underscore (dunder names such as
// __init__ are exported) and the class exported.
//
// JavaScript, TypeScript and TSX: imports (Name "default" or "*" for a
// default or namespace import), export ... from (imports too), require
// calls (const x = require("p"), and destructured ones); functions,
// generators, classes with methods and fields, variables (Function when
// the value is a function or arrow function, Constant for other const,
// Variable for let and var); TypeScript interfaces with their members,
// type aliases (Type) with the members of the object types they spell,
// those of a variable's declared type (Container the variable; a
// property typed by an object type gives its members too, Container
// joined with the property), enums with their members (Constant), namespaces and
// declare module blocks (Module, with what they hold), CommonJS exports.X
// assignments. Functions and classes declared anywhere else are read too:
// in a function's body (Container the enclosing definitions), in a module
// wrapper (an immediately invoked function or a UMD factory: Container
// empty), functions assigned to a variable there, to exports.X or
// module.exports.X anywhere (exported), to X.prototype.m or X.m (Method of
// X), and those listed in module.exports = { ... } (exported). Exported: an export keyword, a name in export { } or export
// default, module.exports = name or { names }, or a declare (ambient)
// declaration; members need their class, interface or enum exported and
// must not be private (TypeScript private or protected, or a #name).
//
// Rust: use declarations (one import per leaf of a use tree, with the full
// path; Alias for as), extern crate; functions, methods of impl and trait
// blocks (Container: the implemented type, or the trait), structs and
// unions (Struct) with named fields, enums with their variants
// (Constant), traits (Interface), type aliases, consts (Constant),
// statics (Variable), modules (Module; inline ones with what they hold),
// macro_rules! (Macro), and the items declared in a function's body (in
// its blocks and closures too: Container the enclosing function, as in
// "Version.deserialize.VersionVisitor.visit_str"; never exported, for no
// path outside reaches them). Exported: a bare pub (pub(crate), pub(super) and
// pub(in …) do not count); a trait's items follow the trait; a trait
// impl's methods are exported; variants follow their enum; a macro needs
// #[macro_export]. Package is empty: a file does not say its module path.
//
// Java: the package; imports (with .* for on-demand ones); classes and
// records (Class), interfaces and annotation types (Interface), enums,
// nested ones too; methods, constructors and annotation elements (Method),
// fields (Field; Constant when static final, and every interface field),
// enum constants (Constant), record components (Field); the classes
// declared in a method's body or a field's initializer (Container the
// method or field), the members of anonymous classes (Container the
// enclosing method or field) and of enum constants' bodies (Container the
// enum: they override its methods), none of these exported. Exported: public,
// or implicitly public as a member of an interface or annotation type
// (unless private), an enum constant or a record component; a member
// needs its type exported. Protected and package-private are not exported.
//
// C and C++: #include (Path without quotes or brackets), C++ using
// declarations and directives; function definitions (an out-of-line C::f
// is a Method of C), structs, unions, classes and enums with a body and
// their members (fields, member functions, enumerators as Constant),
// typedefs and alias declarations (Type; an anonymous struct takes its
// typedef's name), variables at file or namespace scope (Constant when
// const or constexpr), object-like #defines (Constant) and function-like
// ones (Macro). Templates, extern "C" and #if branches are read through;
// prototypes and extern declarations, which define nothing, are left out
// (member functions declared in a class are kept). Package: the
// enclosing C++ namespace (a::b). Exported: functions and variables unless
// static or in an anonymous namespace; types, macros and enumerators when
// the file is a header (.h, .hh, .hpp, .hxx, .h++); class members when
// public (class members default to private, struct and union ones to
// public) and their class exported.
//
// C#: using directives (Alias for using A = B); namespaces (block or
// file-scoped) give Package; classes and records (Class; record struct is
// Struct), structs, interfaces, enums with members (Constant), delegates
// (Type), nested ones too, with methods, constructors, destructors and
// operators (Method), properties, indexers, events and fields (Field;
// Constant for const). Exported: public, or an interface member without
// an access modifier, or an enum member; a member needs its type exported.
// Types default to internal and members to private: neither exported;
// protected and internal are not exported.
//
// Ruby: require, require_relative and load with a literal path; modules
// (Module) and classes (Class; a scoped name A::B is named B with
// Container A as written), methods (Method in a class or module,
// def self.m and class << self included; Function at the top level),
// constants assigned (Constant), attr_reader, attr_writer and
// attr_accessor names (Field); those inside expressions and blocks too (a
// class assigned to a constant under a condition, a def in an included do
// or describe do block), Container the enclosing classes and modules.
// Exported: Ruby's visibility: a method is
// public unless a bare private or protected precedes it in the body (until
// a bare public), a private or protected call wraps its def, or private
// :name names it; top-level methods are private to Object. Modules,
// classes, constants and attributes are exported.
//
// PHP: the namespace gives Package; use declarations (full name, group
// uses expanded, Alias for as), require and include (the literal path, or
// the argument as written); functions, classes, interfaces and traits
// (Interface), enums with their cases (Constant), methods, properties
// (Field, named without $), class constants; top-level const and define()
// constants. Exported: top-level declarations always; members unless
// private or protected (PHP's default is public).
//
// Bash: source and . commands; functions; variables assigned outside
// functions (Variable; Constant when readonly or declare -r). Exported:
// the shell's export: a variable assigned by export or declare -x or
// named by export NAME, a function named by export -f.
//
// Kotlin: the package header; imports (Alias for as, .* for wildcards);
// classes (Interface for an interface, Enum for an enum class with its
// entries as Constant), objects (Class; a companion object's members
// belong to the enclosing class), functions (Method in a class or object),
// properties (top level: Constant for const val, Variable otherwise; in a
// class, and val or var parameters of a primary constructor: Field), type
// aliases (Type). Exported: Kotlin's default is public, so a declaration
// is exported unless private, protected or internal, and a member needs
// its class exported.
//
// JSON: the keys of the top-level object, as Fields, none exported: a
// document defines no names, but a configuration file's sections
// ("scripts", "compilerOptions") are what one looks up. Deeper keys are
// left out.
package symbols
