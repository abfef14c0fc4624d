; A named constant candidate: `constexpr auto PTR = ...;`, `constexpr const char* K = "...";`,
; `static constexpr auto K = "...";` (class member). The extractor checks in code that the
; declaration carries `const`/`constexpr` and takes the innermost identifier of @name.
(declaration
  declarator: (init_declarator
    declarator: (_) @name
    value: (_) @value)) @decl
(field_declaration
  declarator: (_) @name
  default_value: (_) @value) @decl
