// The directives of a C++ file before its macros are expanded (issue 36 item 3): `#define`s of
// the file and of the tree's headers it includes (`#include "x"`, through a HeaderReader), and the
// `#if` arms decided from them. Internal to core/extract/cpp (Macros.cpp calls it); the model is
// stated in Macros.h.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "extract/cpp/MacroLex.h"
#include "extract/cpp/KaTypes.h"
#include "extract/cpp/Macros.h"

namespace impact::cpp::macro {

struct Directives {
  Table table;                          // every definition read, in force from its `start`
  std::vector<ArmText> arms;            // the arms not decided (ids of Def::arms)
  std::vector<UndecidedArm> undecided;  // the file's own, with their lines
  std::vector<std::pair<uint32_t, uint32_t>> blank;  // bytes of the file to blank (dropped arms, #if lines)
  struct Segment {
    uint32_t start = 0;
    std::vector<int> arms;  // the undecided arms around the text from `start`
  };
  std::vector<Segment> segments;
  std::vector<std::string> headersRead, headersMissing;
  std::vector<KaAlias> aliases;  // the KernelArgument aliases the headers read declare (KaTypes.h)

  std::vector<int> armsAt(uint32_t byte) const;
  bool blankAt(uint32_t byte) const;
};

Directives preprocess(const SyntaxTree& file, const HeaderReader* headers);

}  // namespace impact::cpp::macro
