// Which call of the header's geometry function a launch axis reads (GeometryCalls.h), followed by
// structure through the pack: member reads (`launch->geometry.gridX`), dereferences and
// `.value()` of an optional, locals, both arms of a conditional (`matched ? kernelFits(...) :
// std::nullopt`), the return statements of the file's own functions (`kernelFits` returns
// `implicitGemmLaunch(...)`, which returns `ConvLaunch{*launch, *kernargs}`), and aggregate
// initialisers by the position of the member read in the struct's declaration (`geometry` is
// ConvLaunch's first member). What a path reaches instead (another function of the header, a
// computation of its own) is said, never guessed. Private to core/extract/cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp::geometry {

struct Reach {
  TSNode call{};                  // a call of the header function (null: `other` says what was reached)
  std::vector<std::string> path;  // the members read of its result (`gridX`)
  std::string other;              // "directLaunchGeometry(...) in directLaunch"
};

std::vector<Reach> traceToCall(const Ctx& c, TSNode expr, std::string_view callee);

// The expressions a member read stands for, followed the same way until no member is left to
// read (`tile->blockM` of `const auto tile = candidateTile(kernel)`, which returns
// `AttentionDenseTile{*blockM, *blockN}`: `*blockM` in candidateTile). Empty when a path reaches
// something else (a parameter, a call of another file).
std::vector<TSNode> memberValues(const Ctx& c, TSNode fieldRead);

}  // namespace impact::cpp::geometry
