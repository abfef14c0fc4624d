#include "judge/Contracts.h"

namespace impact {

JudgeMemo::JudgeMemo() = default;
JudgeMemo::~JudgeMemo() = default;

}  // namespace impact
