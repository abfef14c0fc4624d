; An element written as KernelArgument{...} (possibly qualified).
(compound_literal_expression
  type: [(type_identifier) (qualified_identifier)] @type
  value: (initializer_list) @args) @element
