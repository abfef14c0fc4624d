; A member call `x.launch(...)` / `x->launch(...)`; the extractor checks @method == "launch"
; (tree-sitter's C library does not evaluate #eq?).
(call_expression
  function: (field_expression
    field: (field_identifier) @method)
  arguments: (argument_list) @args) @call
