// "Update <copy> to match <builder>": the stale C++ list rewritten in the file's own style
// (element form, size constants, indentation, offsets, names when the copy names them).
#pragma once

#include <optional>
#include <string>

#include "model/Facts.h"

namespace impact::server {

// The replacement text for `list.range` in `fileText`, or nullopt when the list is not a
// rewritable static list.
std::optional<std::string> rewriteList(const std::string& fileText, const CppArgList& list, const PyAbi& abi);

// "Update <entry> to match <builder>": an AOT catalog entry's stale `args_signature` rewritten to
// the list its variant's spec gives (`abi`: the builder's list, its conditionals decided by the
// producer's spec), as catalog elements `{"name": …, "type": "ptr"|"f32"|"i32"|"i64"}`; names the
// builder's when the entry speaks its vocabulary (list.named), else the entry's own by position
// when the counts agree. The whole lines of the array are replaced (`range`), in the entry's style
// (one element per line, or all on one). Nothing when an argument has no catalog type (f16). A
// list with an open end (a helper after the declarations) is written as the comparison read it.
struct CatalogRewrite {
  SourceRange range;
  std::string text;
};
std::optional<CatalogRewrite> rewriteCatalogSignature(const std::string& fileText, const CppArgList& list,
                                                      const PyAbi& abi);

}  // namespace impact::server
