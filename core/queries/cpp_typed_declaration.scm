; A declaration with its declared type: a local or namespace-scope variable, a struct/class
; field, or a function parameter. The launch argument inference
; (core/extract/cpp/ArgumentKinds.cpp) reads @type and each `declarator` field of @decl (one per
; declared name: `int a, b;`), and an init_declarator's value (read when the type is `auto`).
; Kept to three plain patterns: tree-sitter compiles nested C++ patterns slowly.
(declaration type: (_) @type) @decl
(field_declaration type: (_) @type) @decl
(parameter_declaration type: (_) @type) @decl
