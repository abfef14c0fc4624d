// Module-level facts of one Python file, for the module graph (SPEC R2.4, R2.6, R2.7):
// what it defines, what it imports, and what each definition reaches by name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace impact {

// A range local to this header (Facts.h includes it before SourceRange is declared).
struct PyRange {
  uint32_t line = 0, col = 0, endLine = 0, endCol = 0;  // 0-based
  bool operator==(const PyRange&) const = default;
};

// A member read on a parameter whose annotation names its type: `def f(spec: AttentionDenseSpec)`
// reading `spec.batch` -> {"spec", "AttentionDenseSpec", "batch"}.
struct PyTypedRead {
  std::string receiver;  // the parameter
  std::string type;      // its annotation as a name chain ("AttentionDenseSpec", "m.Spec"); string
                         // annotations ("Gfx942DenseTuning") unquoted
  std::string member;    // the attribute read on it (the first one of a chain)
  bool operator==(const PyTypedRead&) const = default;
};

// One definition of the module namespace (or of a class body).
struct PyDef {
  enum class Kind { Function, Class, Method, Assign };
  Kind kind = Kind::Function;
  std::string name;                // "f", "Cls", "Cls.method" (nested: "Outer.Inner.m"), "X"
  std::string params;              // Function/Method: the parameter list as text, whitespace
                                   // and comments normalised ("(spec, *, arch='gfx950')"); else ""
  std::vector<std::string> bases;  // Class: base-class expressions as written ("Base", "m.Base")
  std::string aliasOf;             // Assign whose value is a name chain: that chain
                                   // (`AttentionDenseSpec = Gfx950AttentionDenseSpec`)
  PyRange range;                   // the whole definition (decorators included) or the assignment
  uint32_t nameLine = 0;           // 0-based line of the name
  uint64_t fingerprint = 0;        // codeFingerprint of the definition
  // Names the definition's code uses: bare identifiers not bound locally ("helper") and
  // attribute chains rooted at a name ("m.attr", "pkg.mod.f", "self.m"), each once.
  // A class's refs include its bases and body; a method's are its own.
  std::vector<std::string> refs;
  // Function/Method: attribute names read on receivers that are not names of the module
  // (locals, unannotated parameters, call results): `spec.block_m` -> "block_m".
  std::vector<std::string> members;
  // Function/Method: attributes read on annotated parameters (their receiver type is known).
  std::vector<PyTypedRead> typedReads;
  bool operator==(const PyDef&) const = default;
};

// One import statement binding (one per imported name).
struct PyImport {
  std::string module;    // as written: "a.b", ".", "..common", ".sub"
  std::string name;      // `from M import name`: the imported name ("*" for a star import);
                         // "" for `import a.b [as m]`
  std::string alias;     // the bound name: "m"; `import a.b` binds "a"; `from M import x` binds "x"
  std::string function;  // the enclosing def ("" at module level; "f", "Cls.method")
  uint32_t line = 0;     // 0-based
  bool operator==(const PyImport&) const = default;
};

// Python files: filled by the Python extractor (core/extract/python/ModuleSymbols.cpp).
// C++ files: `defs` lists every function definition (Kind::Function, name as qualified in its
// class: "Pack::signature", "gfx950AttentionDenseGrid"; namespaces left out), with range and
// fingerprint (core/extract/CppFunctions.cpp); the other fields stay empty.
struct PyModuleFacts {
  std::vector<PyDef> defs;         // module level (under if/try/with too) and class members
  std::vector<PyImport> imports;   // every import, module level and inside functions
  std::vector<std::string> moduleRefs;  // names used by module-level statements outside any def
  bool operator==(const PyModuleFacts&) const = default;
};

}  // namespace impact
