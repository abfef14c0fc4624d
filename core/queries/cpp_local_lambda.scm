; A lambda bound to a local variable: `auto add = [&](const char* kind, uint32_t size, ...) {...};`
(declaration
  declarator: (init_declarator
    declarator: (identifier) @name
    value: (lambda_expression) @lambda)) @decl
