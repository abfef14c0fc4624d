// What the geometry reader (GeometryCalls.h) knows of a pack's expressions, by structure only:
// - a metadata read: a getter (`kernel.getIntMetadata(std::string(K))`), a local lambda returning
//   one (`intField(K)`), or a function of the file that looks the key up in a descriptor's
//   metadata (`intMetadata(kernel, K)`: its body calls `<x>.metadata.find(<its key parameter>)`);
//   the key is a constant, or an element of a constant array picked by a loop index;
// - where a value comes from (its origin): a field path rooted in a local bound to a call
//   (`problemFor().seqLenQ`), or in a parameter: the origin of what every call of its function
//   in the file passes (`matchProblem().problem.n` for kernelFits' `matched`, called with
//   `*matched` of `matchProblem(context)`), else its declared type (`MatchedProblem.problem.n`);
//   through aliases (`const auto& p = matched.problem;`) and dereferences;
// - matcher equality witnesses: a metadata read compared `==`/`!=` with an origin, a call of the
//   file's metadata comparator (`metadataEquals(kernel, "groups", p.groups)`: its body finds the
//   key in the metadata and compares `==` its expected parameter), and a table of `{key, value}`
//   rows a range-for hands to that comparator (`for (const auto& f : fields) metadataEquals(kernel,
//   f.first, f.second)`). Bounds and divisibility are not witnesses; an origin equated with two
//   keys is none.
// Private to core/extract/cpp.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "extract/cpp/Context.h"

namespace impact::cpp::geometry {

// Loop variables bound to an index (`i` of `for (size_t i = 0; ...)` when reading `tuning[2]`).
using IndexEnv = std::map<std::string, size_t>;

// The local `name` is bound to in function `fi` before `before` (its initializer), or a null node.
TSNode localInitializer(const Ctx& c, int fi, std::string_view name, TSNode before);
// The declared type (last component, without qualifiers) of parameter `name` of function `fi`, or "".
std::string parameterType(const Ctx& c, int fi, std::string_view name);
// The index of the function named `name` (last component) defined in the file, or -1.
int functionNamed(const Ctx& c, std::string_view name);

// The metadata key a read stands for ("" when `n` is not one); *method names the getter or reader.
std::string metadataKey(const Ctx& c, TSNode n, std::string* method, const IndexEnv* env = nullptr);
// A string constant, or an element of a constant array (`FIELDS[i]`, `FIELDS[2]`).
std::string constantString(const Ctx& c, TSNode n, const IndexEnv* env);

// "<callee>()" / "<Type>" followed by ".field" per member read; "" when n has no origin.
std::string origin(const Ctx& c, TSNode n);

struct Witness {
  std::string key, method, function, written;
  bool ambiguous = false;
};
using Witnesses = std::map<std::string, Witness>;  // by origin

Witnesses witnesses(const Ctx& c);

}  // namespace impact::cpp::geometry
