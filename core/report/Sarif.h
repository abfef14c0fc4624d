// Renders a Report as a SARIF 2.1.0 log for code scanning (docs/ci.md):
// one run; one rule per contract kind; one result per finding row (mismatch -> error,
// pre-existing mismatch -> note, changed -> warning naming the archs to run); inert and
// outside rows are not findings. The copy is the result's location, the builder its related
// location; partialFingerprints hash what the row is about (contract, builder, copy symbol),
// never line numbers, so a finding keeps its identity while code moves.
#pragma once

#include <string>

#include "model/Report.h"

namespace impact {

// The help text of one contract kind ("kernargs", "launch-surface", ...), "" when unknown.
struct ContractRule {
  const char* id;
  const char* name;
  const char* shortText;
  const char* help;
};
const ContractRule* contractRule(const std::string& contract);

// "launch-surface:grid" -> "launch-surface"; other contracts are their own kind.
std::string contractKind(const std::string& contract);

// The stable identity of a row's finding (hex): contract, builder (path, symbol), copy (path,
// symbol), view. Equal across runs while those stay; line numbers and the message are left out.
std::string findingFingerprint(const Row& row);

std::string renderSarif(const Report& r);

}  // namespace impact
