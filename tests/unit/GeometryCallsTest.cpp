// The C++ side of the geometry differential (extract/cpp/GeometryCalls.h) on the real gfx942
// dense pack and header, and on small shapes: the call site feeding setGridSize/setBlockSize,
// each argument's source, never a name match.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "extract/cpp/GeometryCalls.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

std::string packsDir() {
  return testing::sharedDir() +
         "/real-data/rocm-libraries/dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/";
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(GeometryCalls, TheRealGfx942DenseCallSiteAndHeader) {
  if (!std::filesystem::exists(packsDir() + "Gfx942AttentionDenseNative.cpp"))
    GTEST_SKIP() << "../shared/real-data is absent: the real pack is not checked";
  auto sites = findGeometryCallSites(readAll(packsDir() + "Gfx942AttentionDenseNative.cpp"), "attentionDenseGeometry");
  ASSERT_EQ(sites.size(), 1u);
  const auto& s = sites[0];
  EXPECT_EQ(s.resultVar, "geometry");
  EXPECT_EQ(s.function, "prepare");  // a method defined in its class
  EXPECT_EQ(s.grid, (std::vector<std::string>{"geometry.gridX", "geometry.gridY", "geometry.gridZ"}));
  EXPECT_EQ(s.block, (std::vector<std::string>{"geometry.blockX", "1", "1"}));
  ASSERT_EQ(s.args.size(), 7u);
  const char* keys[] = {"block_m", "seqlen_q", "num_query_heads", "batch", "persistent", "num_persistent"};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(s.args[i].source, "metadata") << s.args[i].expression;
    EXPECT_EQ(s.args[i].value, keys[i]);
    EXPECT_EQ(s.args[i].method, "getIntMetadata");
  }
  EXPECT_EQ(s.args[6].source, "descriptor-id") << s.args[6].expression;

  GeometryHeader h = readGeometryHeader(readAll(packsDir() + "Gfx942AttentionDenseGeometry.hpp"), "attentionDenseGeometry");
  ASSERT_TRUE(h.found);
  EXPECT_EQ(h.qualified, "hip_kernel_provider::kernel_ingestor_engine::attentionDenseGeometry");
  ASSERT_EQ(h.params.size(), 7u);
  EXPECT_EQ(h.params[0].type, "int64_t");
  EXPECT_EQ(h.params[0].name, "blockM");
  EXPECT_EQ(h.params[6].type, "const std::string&");
  EXPECT_EQ(h.params[6].name, "kernelName");
  EXPECT_EQ(h.statusNames, std::vector<std::string>{"HIPDNN_PLUGIN_STATUS_BAD_PARAM"});
  EXPECT_NE(std::find(h.includes.begin(), h.includes.end(), "hipdnn_plugin_sdk/PluginException.hpp"), h.includes.end());
}

TEST(GeometryCalls, LiteralsAliasesAndWhatDoesNotResolve) {
  const char* pack = R"(
constexpr std::string_view TILE_FIELD = "tile";
void Handler::prepare(const KernelDefinition& kernel, const Problem& problem) {
  const auto tile = kernel.getIntMetadata(std::string(TILE_FIELD));
  const auto& p = problem;
  auto g = launchGeometry(tile, 64, p.n, static_cast<int64_t>(tile));
  code.kernel->setGridSize(g.x, g.y, 1);
  code.kernel->setBlockSize(g.threads, 1, 1);
  auto unrelated = launchGeometry(1, 2, 3, 4);
}
)";
  auto sites = findGeometryCallSites(pack, "launchGeometry");
  ASSERT_EQ(sites.size(), 1u);  // the second call feeds nothing
  const auto& a = sites[0].args;
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].source, "metadata");
  EXPECT_EQ(a[0].value, "tile");
  EXPECT_EQ(a[0].via, "tile = kernel.getIntMetadata(std::string(TILE_FIELD))");
  EXPECT_EQ(a[1].source, "literal");
  EXPECT_EQ(a[1].value, "64");
  EXPECT_EQ(a[2].source, "");  // a field of a graph-derived problem: no metadata getter, never by its name
  EXPECT_EQ(a[2].expression, "p.n");
  EXPECT_EQ(a[3].source, "metadata");
  EXPECT_EQ(sites[0].grid, (std::vector<std::string>{"g.x", "g.y", "1"}));
}

// A matcher equality witness: the matcher requires the metadata field to equal a field of the same
// computation (`problemFor(...)`) the call site passes; a bound or divisibility test is not one,
// and a field equated with two keys is none.
TEST(GeometryCalls, AMatcherEqualityWitnessResolvesAFieldOfTheSameComputation) {
  const char* pack = R"(
constexpr std::string_view SEQ_FIELD = "seqlen_q";
constexpr std::string_view HEADS_FIELD = "num_query_heads";
bool kernelMatches(const KernelDefinition& kernel, const Graph& g) {
  const auto problem = problemFor(g);
  const auto intField = [&kernel](std::string_view field) { return kernel.getIntMetadata(std::string(field)); };
  if(intField(SEQ_FIELD) != problem.seqLenQ || problem.heads > intField(HEADS_FIELD)) return false;
  if(kernel.getIntMetadata(std::string(HEADS_FIELD)) == problem.batch || intField(SEQ_FIELD) == problem.batch) return false;
  return true;
}
void Handler::prepare(const KernelDefinition& kernel, const Graph& g) {
  const auto problem = problemFor(g);
  const auto other = otherFor(g);
  auto geo = launchGeometry(problem.seqLenQ, problem.heads, problem.batch, other.seqLenQ);
  code.kernel->setGridSize(geo.x, geo.y, geo.z);
}
)";
  auto sites = findGeometryCallSites(pack, "launchGeometry");
  ASSERT_EQ(sites.size(), 1u);
  const auto& a = sites[0].args;
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].source, "metadata");
  EXPECT_EQ(a[0].value, "seqlen_q");
  EXPECT_EQ(a[0].method, "getIntMetadata");
  EXPECT_EQ(a[0].via, "witness: kernelMatches requires getIntMetadata(seqlen_q) == problem.seqLenQ");
  EXPECT_EQ(a[1].source, "");  // only bounded by a metadata field
  EXPECT_EQ(a[2].source, "");  // equated with two fields: no witness
  EXPECT_EQ(a[3].source, "");  // another computation's field of the same name
}

}  // namespace
}  // namespace impact
