// The geometry harness's stderr (emitter/geometry/Harness.h): a marker line before each variant,
// the UBSan runtime's one-line reports after it, attributed to that variant with the build
// folder's `src/` dropped (the tree's own path).
#include <gtest/gtest.h>

#include "geometry/Harness.h"

namespace impact::emitter {
namespace {

TEST(GeometryHarnessReports, EachReportGoesToTheVariantWhoseMarkerPrecedesIt) {
  std::string err =
      "\n@impact-variant@\n"
      "\n@impact-variant@\n"
      "some text the header printed\n"
      "src/packs/XGeometry.hpp:12:30: runtime error: signed integer overflow: 8192 * 300000 cannot be represented in type 'int'\n"
      "src/packs/XGeometry.hpp:14:9: runtime error: shift exponent 40 is too large for 32-bit type 'int'\n"
      "\n@impact-variant@\n"
      "harness.cpp:40:7: runtime error: load of value 7, which is not a valid value for type 'bool'\n";
  auto reports = ubReportsByVariant(err, 4);
  ASSERT_EQ(reports.size(), 4u);
  EXPECT_EQ(reports[0], "");
  EXPECT_EQ(reports[1],
            "packs/XGeometry.hpp:12:30: runtime error: signed integer overflow: 8192 * 300000 cannot be represented in type 'int'");
  EXPECT_EQ(reports[2], "harness.cpp:40:7: runtime error: load of value 7, which is not a valid value for type 'bool'");
  EXPECT_EQ(reports[3], "");
}

TEST(GeometryHarnessReports, AReportBeforeAnyMarkerOrAfterTheLastVariantIsNoVariants) {
  auto reports = ubReportsByVariant("x.cpp:1:1: runtime error: early\n@impact-variant@\n@impact-variant@\n"
                                    "x.cpp:2:2: runtime error: late\n", 1);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0], "");
}

}  // namespace
}  // namespace impact::emitter
