// The language server's incremental state: an edit re-judges only the contracts its file takes
// part in, and the rows are those a full judgement gives.
#include <gtest/gtest.h>

#include "analysis/Workspace.h"
#include "git/Repository.h"
#include "judge/Judge.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

using testing::MonorepoFixture;

struct Live {
  MonorepoFixture repo;
  Workspace ws{Layout{}};
  std::shared_ptr<Repository> git;

  Live() {
    repo.replace(MonorepoFixture::kAttention, "    b.param(\"seqlen_kv\", I32)\n",
                 "    b.param(\"seqlen_kv\", I32)\n    b.param(\"window_left\", I32)\n");
    repo.commit("window_left: the pin breaks");
    git = *Repository::open(repo.dir());
    auto main = *git->resolve("main"), head = *git->resolve("HEAD");
    ws.setBase(std::make_shared<const Snapshot>(*git->commitSnapshot(*git->mergeBase(main, head))));
    ws.setDisk(std::make_shared<const Snapshot>(*git->workdirSnapshot()));
  }

  // The rows a full judgement (no memo) gives for the same contents.
  std::vector<Row> fullJudgement(const AnalysisState& st) {
    const Snapshot* base = st.base.get();
    Revision b{*st.baseDerived->facts, [base](const std::string& p) { return base->find(p); }};
    Revision h{st.headFacts, [&st](const std::string& p) { return st.headFind(p); }};
    return judge(b, h, ws.layout());
  }
};

std::vector<std::string> summary(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows)
    out.push_back(std::string(statusName(r.status)) + " " + r.key + " " + r.message);
  return out;
}

TEST(Workspace, AnEditReJudgesOnlyTheContractsItsFileTakesPartIn) {
  Live live;
  auto first = live.ws.analyse();
  EXPECT_EQ(live.ws.contractsJudged(), 7) << "the first judgement runs every contract";
  EXPECT_EQ(first->rollup.verdict, "BREAKS");

  // A Python edit: launch surfaces, removed symbols, catalog geometry and names arrays (against
  // Python names lists) read Python; symbols, build rows and catalog bindings do not.
  std::string py = live.repo.read(MonorepoFixture::kAttention);
  py.replace(py.find("IRBuilder(\"attention_dense\")"), 27, "IRBuilder(\"attention_dense2\")");
  live.ws.setBuffer(MonorepoFixture::kAttention, py);
  auto second = live.ws.analyse();
  EXPECT_EQ(live.ws.contractsJudged(), 11);
  EXPECT_EQ(summary(second->rows), summary(live.fullJudgement(*second)));

  // A C++ edit: launch surfaces, symbols, build rows, names arrays and catalog bindings (the
  // adapters' and tests' LaunchBindings) read C++; removed symbols
  // and catalog geometry do not.
  std::string pin = live.repo.read(MonorepoFixture::kAttentionPin);
  live.ws.setBuffer(MonorepoFixture::kAttentionPin, pin + "\n// touched\n");
  auto third = live.ws.analyse();
  EXPECT_EQ(live.ws.contractsJudged(), 16);
  EXPECT_EQ(summary(third->rows), summary(live.fullJudgement(*third)));

  // Nothing changed: nothing is judged.
  live.ws.analyse();
  EXPECT_EQ(live.ws.contractsJudged(), 16);
}

TEST(Workspace, AnEditThatLeavesNamesAloneKeepsThePairing) {
  Live live;
  live.ws.analyse();
  EXPECT_EQ(live.ws.pairings(), 1);
  std::string py = live.repo.read(MonorepoFixture::kAttention);

  // A body edit and a type change keep every name: the pairs move to the new facts.
  auto swap = [](std::string s, const std::string& from, const std::string& to) {
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
  };
  std::string widened = swap(py, "b.param(\"batch\", I32)", "b.param(\"batch\", I64)");
  widened = swap(widened, "from rocke.core.ir import BF16, F16, F32, I32,", "from rocke.core.ir import BF16, F16, F32, I32, I64,");
  live.ws.setBuffer(MonorepoFixture::kAttention, widened);
  auto st = live.ws.analyse();
  EXPECT_EQ(live.ws.pairings(), 1);
  EXPECT_EQ(summary(st->rows), summary(live.fullJudgement(*st)));
  bool widenedSeen = false;
  for (const auto& r : st->rows)
    widenedSeen = widenedSeen || r.message.find("#5 batch: copy by_value/4, builder by_value/8") != std::string::npos;
  EXPECT_TRUE(widenedSeen) << "the reused pairs read the new facts";

  // A new argument changes the names: every copy is paired again.
  std::string added = swap(widened, "    b.param(\"scale\", F32)\n", "    b.param(\"alpha\", F32)\n    b.param(\"scale\", F32)\n");
  live.ws.setBuffer(MonorepoFixture::kAttention, added);
  st = live.ws.analyse();
  EXPECT_EQ(live.ws.pairings(), 2);
  EXPECT_EQ(summary(st->rows), summary(live.fullJudgement(*st)));

  // A C++ edit inside a copy's function that keeps its names: reused again.
  std::string pack = live.repo.read(MonorepoFixture::kAttentionPack);
  pack = swap(pack, "{\"by_value\", F32, 32, \"scale\"}", "{\"by_value\", I32, 32, \"scale\"}");
  live.ws.setBuffer(MonorepoFixture::kAttentionPack, pack);
  st = live.ws.analyse();
  EXPECT_EQ(live.ws.pairings(), 2);
  EXPECT_EQ(summary(st->rows), summary(live.fullJudgement(*st)));
}

// A C++ keystroke keeps the head's module graph (and its memoised reach closures); a Python
// edit builds it again, and the rows are a full judgement's either way.
TEST(Workspace, ACppEditKeepsTheHeadsModuleGraphAndAPythonEditRebuildsIt) {
  Live live;
  live.ws.analyse();
  EXPECT_EQ(live.ws.headGraphBuilds(), 1);
  std::string pin = live.repo.read(MonorepoFixture::kAttentionPin);
  live.ws.setBuffer(MonorepoFixture::kAttentionPin, pin + "\n// touched\n");
  auto st = live.ws.analyse();
  EXPECT_EQ(live.ws.headGraphBuilds(), 1);
  EXPECT_EQ(summary(st->rows), summary(live.fullJudgement(*st)));
  // The grid function now reaches a new helper: the launch-surface row must see it, and still
  // see it after a C++ edit that reuses the graph.
  std::string py = live.repo.read(MonorepoFixture::kAttention);
  const std::string body = "return ((seqlen_q + spec.block_m - 1) // spec.block_m,";
  size_t at = py.find(body);
  ASSERT_NE(at, std::string::npos);
  py.replace(at, body.size(), "return (_blocks(seqlen_q, spec.block_m),");
  py.insert(py.find("def attention_dense_grid("), "def _blocks(n, m):\n    return (n + m - 1) // m\n\n\n");
  live.ws.setBuffer(MonorepoFixture::kAttention, py);
  st = live.ws.analyse();
  EXPECT_EQ(live.ws.headGraphBuilds(), 2);
  EXPECT_EQ(summary(st->rows), summary(live.fullJudgement(*st)));
  auto gridRow = [](const AnalysisState& s) {
    for (const auto& r : s.rows)
      if (r.contract == "launch-surface:grid" && r.status == Status::Changed) return r.message;
    return std::string();
  };
  EXPECT_NE(gridRow(*st).find("_blocks"), std::string::npos) << gridRow(*st);
  live.ws.setBuffer(MonorepoFixture::kAttentionPin, pin + "\n// touched again\n");
  st = live.ws.analyse();
  EXPECT_EQ(live.ws.headGraphBuilds(), 2);
  EXPECT_EQ(summary(st->rows), summary(live.fullJudgement(*st)));
  EXPECT_NE(gridRow(*st).find("_blocks"), std::string::npos) << gridRow(*st);
}

// A Python keystroke inside a def's body builds a new head graph that takes over the last one's
// resolutions and reach closures (ModuleGraph::adopt); an edit that changes a name of a module
// does not; a def whose refs changed is walked again. The rows are a full judgement's each time.
TEST(Workspace, APythonBodyEditTakesOverTheLastGraphsResolutionsAndANameEditDoesNot) {
  Live live;
  live.ws.analyse();
  auto gridRow = [](const AnalysisState& s) {
    for (const auto& r : s.rows)
      if (r.contract == "launch-surface:grid" && r.status == Status::Changed) return r.message;
    return std::string();
  };
  auto edit = [&](const std::string& py) {
    live.ws.setBuffer(MonorepoFixture::kAttention, py);
    auto st = live.ws.analyse();
    EXPECT_EQ(summary(st->rows), summary(live.fullJudgement(*st)));
    return st;
  };
  std::string py = live.repo.read(MonorepoFixture::kAttention);
  const std::string body = "return ((seqlen_q + spec.block_m - 1) // spec.block_m,";
  size_t at = py.find(body);
  ASSERT_NE(at, std::string::npos);

  // Two new helpers: new names, so nothing is taken over; the grid reaches the first.
  std::string two = py;
  two.replace(at, body.size(), "return (_blocks(seqlen_q, spec.block_m),");
  two.insert(two.find("def attention_dense_grid("),
             "def _blocks(n, m):\n    return (n + m - 1) // m\n\n\ndef _tiles(n, m):\n    return -(-n // m)\n\n\n");
  auto st = edit(two);
  EXPECT_EQ(live.ws.headGraphAdoptions(), 0);
  EXPECT_NE(gridRow(*st).find("_blocks"), std::string::npos) << gridRow(*st);
  EXPECT_EQ(gridRow(*st).find("_tiles"), std::string::npos) << gridRow(*st);

  // A body edit that keeps every name and ref: taken over.
  std::string same = two;
  same.replace(same.find("return (n + m - 1) // m"), 23, "return (n + (m - 1)) // m");
  st = edit(same);
  EXPECT_EQ(live.ws.headGraphAdoptions(), 1);
  EXPECT_NE(gridRow(*st).find("_blocks"), std::string::npos) << gridRow(*st);

  // The grid calls the other helper: the names are the same (taken over), but the grid's refs
  // moved, so its reach is walked again and names the helper it reaches now.
  std::string other = same;
  other.replace(other.find("return (_blocks(seqlen_q, spec.block_m),"), 40, "return (_tiles(seqlen_q, spec.block_m), ");
  st = edit(other);
  EXPECT_EQ(live.ws.headGraphAdoptions(), 2);
  EXPECT_NE(gridRow(*st).find("_tiles"), std::string::npos) << gridRow(*st);

  // An import added: a name of the module changed, nothing is taken over.
  std::string imported = other;
  imported.insert(0, "import math\n");
  st = edit(imported);
  EXPECT_EQ(live.ws.headGraphAdoptions(), 2);
  EXPECT_NE(gridRow(*st).find("_tiles"), std::string::npos) << gridRow(*st);
}

size_t pinMismatches(const AnalysisState& st) {
  size_t n = 0;
  for (const auto& r : st.rows) n += r.status == Status::Mismatch && r.mirror.path == MonorepoFixture::kAttentionPin;
  return n;
}

TEST(Workspace, ABufferOverridesTheDiskAndClosingItReturnsToTheDisk) {
  Live live;
  EXPECT_EQ(pinMismatches(*live.ws.analyse()), 1u);
  // Fix the pin in a buffer: the break goes away.
  std::string pin = live.repo.read(MonorepoFixture::kAttentionPin);
  pin.replace(pin.find("        KernelArgument{\"by_value\", 4, 44, \"\"},\n"), 0,
              "        KernelArgument{\"by_value\", 4, 44, \"\"},\n");  // 8 -> 9 arguments
  live.ws.setBuffer(MonorepoFixture::kAttentionPin, pin);
  EXPECT_EQ(pinMismatches(*live.ws.analyse()), 0u);
  live.ws.closeBuffer(MonorepoFixture::kAttentionPin);
  EXPECT_EQ(pinMismatches(*live.ws.analyse()), 1u);
}

}  // namespace
}  // namespace impact

#include "server/Navigation.h"

namespace impact {
namespace {

TEST(Workspace, HoverOnAPackedDescriptorEntryFindsTheBuilderArgument) {
  Live live;
  const std::string ukd = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/"
                          "gfx950_attention_dense/attention_dense.packed.ukd.json";
  std::string entries;
  int offset = 0;
  const char* names[] = {"q_ptr", "k_ptr", "v_ptr", "o_ptr", "scale", "batch", "seqlen_q", "seqlen_kv"};
  for (int i = 0; i < 8; ++i) {
    entries += std::string(i ? ",\n" : "") + "      {\"kind\": \"" + (i < 4 ? "global_buffer" : "by_value") +
               "\", \"size\": " + (i < 4 ? "8" : "4") + ", \"offset\": " + std::to_string(offset) + ", \"name\": \"" +
               names[i] + "\"}";
    offset += i < 4 ? 8 : 4;
  }
  live.ws.setBuffer(ukd, "{\n  \"id\": \"u\",\n  \"name\": \"attention_dense.packed\",\n  \"kernel_source\": {\n"
                         "    \"kind\": \"kpack\",\n    \"source\": \"kernels/gfx950/attention_dense.py\",\n"
                         "    \"builder\": \"build_attention_dense\",\n    \"spec\": {\"persistent\": false},\n"
                         "    \"signature\": [\n" + entries + "\n    ]\n  },\n  \"arch\": [\"gfx950\"]\n}\n");
  auto st = live.ws.analyse();
  // Line 9 (0-based) is the first signature entry; hover anywhere on it.
  auto a = server::argumentAt(*st, ukd, 9, 12);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->builder.owner, "build_attention_dense");
  EXPECT_EQ(a->builder.arg.name, "q_ptr");
  bool listed = false;
  for (const auto& c : a->copies) listed = listed || c.path == ukd;
  EXPECT_TRUE(listed) << "the descriptor's copy is among the copies";
}

}  // namespace
}  // namespace impact
