; A declaration with its declared type: a local or namespace-scope variable, a struct/class
; field, or a function parameter. One match per declarator (`int a, b;` gives two). The launch
; argument inference (core/extract/cpp/ArgumentKinds.cpp) reads the type of the name a launch
; argument uses; @value is the initializer of a local (read when the type is `auto`).
(declaration
  type: (_) @type
  declarator: (init_declarator
    declarator: (_) @declarator
    value: (_) @value)) @decl
(declaration
  type: (_) @type
  declarator: [(identifier) (pointer_declarator) (reference_declarator) (array_declarator)] @declarator) @decl
(field_declaration
  type: (_) @type
  declarator: (_) @declarator) @decl
(parameter_declaration
  type: (_) @type
  declarator: (_) @declarator) @decl
