// The C++ side of the geometry differential (extract/cpp/GeometryCalls.h) on the real gfx942
// dense pack and header, and on small shapes: the call site feeding setGridSize/setBlockSize,
// each argument's source, never a name match.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "extract/cpp/GeometryCalls.h"
#include "support/FixtureRepo.h"
#include "support/Gfx950DenseGeometryNewest.h"

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

// The real conv generation (fork 54717ce4): the launch reads `launch->geometry.gridX` of
// `kernelFits(...)`, which returns what implicitGemmLaunch built from `conv::launchGeometry(...)`;
// the Problem argument is fed member by member from kernelFits' `{"N", p.n}` table and its
// `metadataEquals(kernel, "groups", p.groups)`; the tile sizes from a loop over a key array.
TEST(GeometryCalls, TheRealConvPackReachesLaunchGeometryThroughKernelFits) {
  if (!std::filesystem::exists(packsDir() + "Gfx950ConvFwdNative.cpp"))
    GTEST_SKIP() << "../shared/real-data is absent: the real conv pack is not checked";
  auto sites = findGeometryCallSites(readAll(packsDir() + "Gfx950ConvFwdNative.cpp"), "launchGeometry");
  ASSERT_EQ(sites.size(), 1u);
  const auto& s = sites[0];
  EXPECT_EQ(s.function, "implicitGemmLaunch");
  EXPECT_EQ(s.resultVar, "launch");
  EXPECT_EQ(s.grid, (std::vector<std::string>{"launch.gridX", "launch.gridY", "launch.gridZ"}));
  EXPECT_EQ(s.block, (std::vector<std::string>{"launch.blockX", "1", "1"}));
  ASSERT_EQ(s.others.size(), 1u);
  EXPECT_NE(s.others[0].find("directLaunchGeometry"), std::string::npos) << s.others[0];
  EXPECT_NE(s.others[0].find("in directLaunch"), std::string::npos) << s.others[0];
  ASSERT_EQ(s.args.size(), 7u);
  EXPECT_EQ(s.args[0].origin, "matchProblem().problem");
  const std::map<std::string, std::string> members = {
      {"n", "N"},   {"c", "C"},   {"k", "K"},         {"hi", "Hi"},       {"wi", "Wi"},        {"y", "Y"},         {"x", "X"},
      {"strideH", "sH"}, {"strideW", "sW"}, {"padH", "pH"}, {"padW", "pW"}, {"dilationH", "dH"}, {"dilationW", "dW"}, {"groups", "groups"}};
  ASSERT_EQ(s.args[0].members.size(), members.size());
  for (const auto& [m, key] : members) EXPECT_EQ(s.args[0].members.at(m).first, key) << m;
  EXPECT_EQ(s.args[1].source, "");  // matched.geometry: derived in code (declared in .impactd.yaml)
  const char* tiles[] = {"tile_m", "tile_n", "warp_m", "warp_n"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(s.args[2 + i].source, "metadata") << s.args[2 + i].expression;
    EXPECT_EQ(s.args[2 + i].value, tiles[i]) << s.args[2 + i].expression << " via " << s.args[2 + i].via;
  }
  EXPECT_EQ(s.args[6].source, "literal");

  GeometryHeader h = readGeometryHeader(readAll(packsDir() + "Gfx950ConvFwdGeometry.hpp"), "launchGeometry");
  ASSERT_TRUE(h.found);
  ASSERT_EQ(h.params.size(), 7u);
  EXPECT_EQ(h.params[0].type, "const Problem&");
  const GeometryStruct* problem = nullptr;
  for (const auto& st : h.structs)
    if (st.name == "Problem") problem = &st;
  ASSERT_NE(problem, nullptr);
  EXPECT_EQ(problem->qualified, "hip_kernel_provider::kernel_ingestor_engine::gfx950_conv_fwd::Problem");
  ASSERT_EQ(problem->members.size(), 14u);
  EXPECT_EQ(problem->members[13].name, "groups");
  EXPECT_TRUE(problem->defaulted[13]);
  EXPECT_FALSE(problem->defaulted[0]);
}

// The conv generation's forms, written as the real pack writes them (without the real files):
// the launch reads a struct handed back through two functions of the file and an aggregate; the
// Problem argument is built from the table kernelFits hands to its metadata comparator; the tiles
// come from a loop over a constant key array; a second path reaches another header function.
TEST(GeometryCalls, TheConvFormsWithoutTheRealFiles) {
  const char* pack = R"(
#include "XConvGeometry.hpp"
namespace conv = hip_kernel_provider::x_conv;
struct MatchedProblem { conv::Problem problem; conv::Geometry geometry; };
struct ConvLaunch { conv::LaunchGeometry geometry; std::array<int32_t, 4> kernargs; };
template <typename T>
bool metadataEquals(const KernelDefinition& kernel, const char* field, const T& expected) {
    const auto it = kernel.metadata.find(field);
    if(it == kernel.metadata.end()) { return false; }
    const auto* value = std::get_if<T>(&it->second);
    return value != nullptr && *value == expected;
}
std::optional<int64_t> intMetadata(const KernelDefinition& kernel, const char* field) {
    const auto it = kernel.metadata.find(field);
    const auto* value = it == kernel.metadata.end() ? nullptr : std::get_if<int64_t>(&it->second);
    return value == nullptr ? std::nullopt : std::optional<int64_t>(*value);
}
constexpr std::array<const char*, 3> TUNING_FIELDS{"tile_m", "tile_n", "warp_m"};
std::optional<ConvLaunch> gemmLaunch(const MatchedProblem& matched, const KernelDefinition& kernel) {
    const auto& p = matched.problem;
    std::array<int64_t, TUNING_FIELDS.size()> tuning{};
    for(size_t i = 0; i < TUNING_FIELDS.size(); ++i) {
        const auto value = intMetadata(kernel, TUNING_FIELDS[i]);
        if(!value || *value <= 0) { return std::nullopt; }
        tuning[i] = *value;
    }
    const auto launch = conv::launchGeometry(p, matched.geometry, tuning[1], tuning[0], 64);
    if(!launch) { return std::nullopt; }
    return ConvLaunch{*launch, {}};
}
std::optional<ConvLaunch> directLaunch(const MatchedProblem& matched) {
    const auto launch = conv::directLaunchGeometry(matched.problem);
    return launch ? std::optional<ConvLaunch>(ConvLaunch{*launch, {}}) : std::nullopt;
}
std::optional<ConvLaunch> kernelFits(const MatchedProblem& matched, const KernelDefinition& kernel) {
    const auto& p = matched.problem;
    const std::array<std::pair<const char*, int64_t>, 2> fields{{{"N", p.n}, {"K", p.k}}};
    for(const auto& field : fields) {
        if(!metadataEquals(kernel, field.first, field.second)) { return std::nullopt; }
    }
    if(!metadataEquals(kernel, "groups", p.groups)) { return std::nullopt; }
    if(intMetadata(kernel, "kernel_family") == 0) { return gemmLaunch(matched, kernel); }
    return directLaunch(matched);
}
class Handler {
    void prepare(const MatchContext& context, const KernelDefinition& kernel) const {
        const auto matched = matchProblem(context);
        const auto launch = matched ? kernelFits(*matched, kernel) : std::nullopt;
        code.setBlockSize(launch->geometry.blockX, 1, 1);
        code.setGridSize(launch->geometry.gridX, launch->geometry.gridY, launch->geometry.gridZ);
    }
};
)";
  auto sites = findGeometryCallSites(pack, "launchGeometry");
  ASSERT_EQ(sites.size(), 1u);
  const auto& s = sites[0];
  EXPECT_EQ(s.function, "gemmLaunch");
  EXPECT_EQ(s.grid, (std::vector<std::string>{"launch.gridX", "launch.gridY", "launch.gridZ"}));
  EXPECT_EQ(s.block, (std::vector<std::string>{"launch.blockX", "1", "1"}));
  ASSERT_EQ(s.others.size(), 1u);
  EXPECT_NE(s.others[0].find("conv::directLaunchGeometry(matched.problem)` in directLaunch"), std::string::npos) << s.others[0];
  ASSERT_EQ(s.args.size(), 5u);
  EXPECT_EQ(s.args[0].origin, "matchProblem().problem");
  ASSERT_EQ(s.args[0].members.size(), 3u);
  EXPECT_EQ(s.args[0].members.at("n").first, "N");
  EXPECT_EQ(s.args[0].members.at("k").first, "K");
  EXPECT_EQ(s.args[0].members.at("groups").first, "groups");
  EXPECT_EQ(s.args[0].members.at("groups").second, "kernelFits requires metadataEquals(groups) == p.groups");
  EXPECT_EQ(s.args[1].source, "");
  EXPECT_EQ(s.args[1].origin, "matchProblem().geometry");
  EXPECT_EQ(s.args[2].value, "tile_n");  // tuning[1]
  EXPECT_EQ(s.args[3].value, "tile_m");  // tuning[0]
  EXPECT_EQ(s.args[2].via, "tuning[i] = *value (i = 1); value = intMetadata(kernel, TUNING_FIELDS[i])");
  EXPECT_EQ(s.args[4].source, "literal");

  // An index past the key array, and a table row read by something other than the comparator,
  // resolve to nothing.
  std::string other = pack;
  other.replace(other.find("tuning[1], tuning[0]"), 20, "tuning[5], tuning[0]");
  other.replace(other.find("metadataEquals(kernel, field.first, field.second)"), 49, "field.second > intMetadata(kernel, field.first)");
  auto o = findGeometryCallSites(other, "launchGeometry");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].args[2].source, "");
  EXPECT_EQ(o[0].args[0].members.size(), 1u);  // only groups
}

// The newest gfx950 dense form: the tile is a member of what candidateTile returns (an aggregate
// of metadata reads through the file's reader function), the head count is witnessed by
// kernelMatches, the query length and batch are the graph's (run-time: unresolved), and the
// header function is the one of the header's functions whose result the launch reads.
TEST(GeometryCalls, TheNewestDenseFormMemberOfAReturnedTileAndRunTimeShape) {
  auto sites = findGeometryCallSites(testing::kDenseNewestPack, "gfx950AttentionDenseGeometry");
  ASSERT_EQ(sites.size(), 1u);
  const auto& a = sites[0].args;
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0].source, "metadata");
  EXPECT_EQ(a[0].value, "block_m");
  EXPECT_EQ(a[0].method, "integerMetadata");
  EXPECT_NE(a[0].via.find("tile->blockM is `*blockM` in candidateTile"), std::string::npos) << a[0].via;
  EXPECT_EQ(a[1].source, "");  // problem.seqLenQ: the graph's, only divisibility-checked
  EXPECT_EQ(a[2].source, "metadata");
  EXPECT_EQ(a[2].value, "num_query_heads");
  EXPECT_EQ(a[3].source, "");  // problem.batch: the graph's
  EXPECT_EQ(a[4].source, "descriptor-id");
  EXPECT_TRUE(findGeometryCallSites(testing::kDenseNewestPack, "isSupportedGfx950AttentionDenseTile").empty());

  GeometryHeader h = readGeometryHeader(testing::kDenseNewestHeader, "");
  EXPECT_FALSE(h.found);
  EXPECT_EQ(h.functions, (std::vector<std::string>{"isSupportedGfx950AttentionDenseTile", "gfx950AttentionDenseGeometry"}));
}

// The monorepo's earlier conv generation (29503946): prepare calls launchGeometry itself with
// `matched->problem` of `matchProblem(context)`; kernelFits, called with `*matched` by prepare and
// kernelMatches, pins the problem's members in its table, so its parameter's origin is theirs;
// kernelFits' own launchGeometry call (`.has_value()`) feeds no launch and is no site.
TEST(GeometryCalls, TheEarlierConvGenerationCallsTheHeaderInPrepare) {
  const char* pack = R"(
namespace conv = hip_kernel_provider::x_conv;
struct MatchedProblem { conv::Problem problem; conv::Geometry geometry; };
std::optional<MatchedProblem> matchProblem(const MatchContext& context);
template <typename T>
bool metadataEquals(const KernelDefinition& kernel, const char* field, const T& expected) {
    const auto it = kernel.metadata.find(field);
    const auto* value = std::get_if<T>(&it->second);
    return value != nullptr && *value == expected;
}
bool kernelFits(const MatchedProblem& matched, const KernelDefinition& kernel) {
    const auto& p = matched.problem;
    const std::array<std::pair<const char*, int64_t>, 2> fields{{{"N", p.n}, {"K", p.k}}};
    for(const auto& field : fields) {
        if(!metadataEquals(kernel, field.first, field.second)) { return false; }
    }
    return metadataEquals(kernel, "groups", int64_t{1})
           && conv::launchGeometry(p, matched.geometry, 64, 64, 64).has_value();
}
bool kernelMatches(const MatchContext& context, const BoundTokens&, const KernelDefinition& kernel) {
    const auto matched = matchProblem(context);
    return matched && kernelFits(*matched, kernel);
}
class ConvFwdDispatchHandler {
    std::unique_ptr<PreparedDispatch> prepare(const MatchContext& context, const BoundTokens& bound,
                                              const KernelDefinition& kernel) const override {
        const auto matched = matchProblem(context);
        if(!matched || !kernelFits(*matched, kernel)) { throw Bad(); }
        const auto launch = conv::launchGeometry(matched->problem,
                                                 matched->geometry,
                                                 kernel.getIntMetadata("tile_m"),
                                                 kernel.getIntMetadata("tile_n"),
                                                 kernel.getIntMetadata("wave_size"));
        code.kernel->setBlockSize(launch->blockX, 1, 1);
        code.kernel->setGridSize(launch->gridX, launch->gridY, launch->gridZ);
        return nullptr;
    }
};
)";
  auto sites = findGeometryCallSites(pack, "launchGeometry");
  ASSERT_EQ(sites.size(), 1u);
  const auto& s = sites[0];
  EXPECT_EQ(s.function, "prepare");  // a method defined in its class
  EXPECT_EQ(s.grid, (std::vector<std::string>{"launch.gridX", "launch.gridY", "launch.gridZ"}));
  EXPECT_TRUE(s.others.empty());
  ASSERT_EQ(s.args.size(), 5u);
  EXPECT_EQ(s.args[0].origin, "matchProblem().problem");
  ASSERT_EQ(s.args[0].members.size(), 2u);  // groups is compared with a literal: no witness, its default stays
  EXPECT_EQ(s.args[0].members.at("n").first, "N");
  EXPECT_EQ(s.args[0].members.at("k").first, "K");
  EXPECT_EQ(s.args[2].value, "tile_m");
  EXPECT_EQ(s.args[4].value, "wave_size");

  // A call of kernelFits with another problem: the callers disagree, the parameter's origin is
  // its type, and prepare's `matched->problem` is witnessed by nothing.
  std::string other = pack;
  other.replace(other.find("return matched && kernelFits(*matched, kernel);"), 47,
                "return matched && kernelFits(otherProblem(context), kernel);");
  auto o = findGeometryCallSites(other, "launchGeometry");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].args[0].members.empty());
}

// An axis computing with the call's result alone, in the call's own function, is compiled as
// written; one that also reads another local, or reaches another computation, is unread ("?").
TEST(GeometryCalls, AnAxisComputedFromTheResultIsCompiledAsWrittenAndOneReadingMoreIsUnread) {
  const char* pack = R"(
void Handler::prepare(const KernelDefinition& kernel) {
  const auto persistent = kernel.getIntMetadata(std::string("persistent"));
  const auto geometry = denseGeometry(kernel.getIntMetadata(std::string("block_m")));
  code.setGridSize(persistent != 0 ? geometry.gridX : 1, geometry.gridY * 2 + 1, other.z);
  code.setBlockSize(geometry.blockX, 1, 1);
}
)";
  auto sites = findGeometryCallSites(pack, "denseGeometry");
  ASSERT_EQ(sites.size(), 1u);
  EXPECT_EQ(sites[0].grid,
            (std::vector<std::string>{"?persistent != 0 ? geometry.gridX : 1", "geometry.gridY * 2 + 1", "?other.z"}));
  EXPECT_EQ(sites[0].block, (std::vector<std::string>{"geometry.blockX", "1", "1"}));
}

}  // namespace
}  // namespace impact
