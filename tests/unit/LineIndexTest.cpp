// The open document's line index is updated per edit (issue 18): after any sequence of LSP
// changes it equals an index built from scratch, and the tree-sitter edits it reports are the
// ones a full recomputation gives. Positions are UTF-16 code units over multi-byte text.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "server/Positions.h"

using impact::server::applyChanges;
using impact::server::ContentChange;
using impact::server::LineIndex;
using impact::server::Pos;
using impact::server::Rng;

namespace {

// Pieces of text a person types: ASCII, 2-, 3- and 4-byte characters (the last two UTF-16
// units), newlines, a Windows line end, an empty insertion.
const std::vector<std::string> kPieces = {"b.param(\"x\", I32)\n", "a", "é", "€", "𝄞", "\n", "\r\n", "", "𝄞𝄞\n€\n", "  # ü\n"};

Pos randomPos(std::mt19937& rng, const std::string& text) {
  LineIndex idx(text);
  uint32_t lines = static_cast<uint32_t>(idx.starts().size());
  // Sometimes past the last line or the line's end: LSP clients do send those, they clamp.
  uint32_t line = std::uniform_int_distribution<uint32_t>(0, lines)(rng);
  uint32_t ch = std::uniform_int_distribution<uint32_t>(0, 12)(rng);
  return {line, ch};
}

// The change applied with indexes built from scratch (the behaviour before issue 18).
void applyFull(std::string& text, const ContentChange& c, std::vector<TSInputEdit>& edits) {
  if (!c.range) {
    text = c.text;
    edits.clear();
    return;
  }
  LineIndex before(text);
  size_t start = before.offset(c.range->start), end = before.offset(c.range->end);
  TSInputEdit e{};
  e.start_byte = static_cast<uint32_t>(start);
  e.old_end_byte = static_cast<uint32_t>(end);
  e.start_point = before.point(start);
  e.old_end_point = before.point(end);
  text.replace(start, end - start, c.text);
  LineIndex after(text);
  e.new_end_byte = static_cast<uint32_t>(start + c.text.size());
  e.new_end_point = after.point(start + c.text.size());
  edits.push_back(e);
}

void expectSameEdits(const std::vector<TSInputEdit>& a, const std::vector<TSInputEdit>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].start_byte, b[i].start_byte);
    EXPECT_EQ(a[i].old_end_byte, b[i].old_end_byte);
    EXPECT_EQ(a[i].new_end_byte, b[i].new_end_byte);
    EXPECT_EQ(a[i].start_point.row, b[i].start_point.row);
    EXPECT_EQ(a[i].start_point.column, b[i].start_point.column);
    EXPECT_EQ(a[i].old_end_point.row, b[i].old_end_point.row);
    EXPECT_EQ(a[i].old_end_point.column, b[i].old_end_point.column);
    EXPECT_EQ(a[i].new_end_point.row, b[i].new_end_point.row);
    EXPECT_EQ(a[i].new_end_point.column, b[i].new_end_point.column);
  }
}

}  // namespace

TEST(LineIndexIncremental, RandomEditsEqualAFullRecomputation) {
  std::mt19937 rng(18);
  std::string text = "def build(b):\n    x = b.param(\"é\", I32)  # €\n    y = 1  # 𝄞\n\n";
  std::string ref = text;
  LineIndex lines(text);
  for (int step = 0; step < 2000; ++step) {
    std::vector<ContentChange> changes;
    int n = std::uniform_int_distribution<int>(1, 3)(rng);
    std::string scratch = text;
    for (int k = 0; k < n; ++k) {
      ContentChange c;
      if (std::uniform_int_distribution<int>(0, 200)(rng) == 0) {
        c.text = "whole\n€ text\n";  // a whole-text change in the list
      } else {
        Pos a = randomPos(rng, scratch), b = randomPos(rng, scratch);
        LineIndex si(scratch);
        if (si.offset(b) < si.offset(a)) std::swap(a, b);
        c.range = Rng{a, b};
        c.text = kPieces[std::uniform_int_distribution<size_t>(0, kPieces.size() - 1)(rng)];
      }
      std::vector<TSInputEdit> ignored;
      applyFull(scratch, c, ignored);
      changes.push_back(c);
    }
    std::vector<TSInputEdit> got, want;
    ASSERT_TRUE(applyChanges(text, lines, changes, got));
    for (const auto& c : changes) applyFull(ref, c, want);
    if (std::any_of(changes.begin(), changes.end(), [](const ContentChange& c) { return !c.range; })) want.clear();
    ASSERT_EQ(text, ref) << "step " << step;
    ASSERT_EQ(lines.starts(), LineIndex(text).starts()) << "step " << step;
    expectSameEdits(got, want);
    // Every position reads the same through the kept index as through a fresh one.
    LineIndex fresh(text);
    for (int q = 0; q < 5; ++q) {
      Pos p = randomPos(rng, text);
      EXPECT_EQ(lines.offset(p), fresh.offset(p));
      size_t off = fresh.offset(p);
      EXPECT_EQ(lines.point(off).row, fresh.point(off).row);
      EXPECT_EQ(lines.position(p.line, 3), fresh.position(p.line, 3));
    }
  }
}

// A 4-byte character is two UTF-16 units, a 3-byte one is one: the kept index converts both
// ways after an edit that inserts lines of multi-byte text before them.
TEST(LineIndexIncremental, Utf16PositionsAfterAnEditOfMultiByteText) {
  std::string text = "a€𝄞b\nx\n";
  LineIndex lines(text);
  EXPECT_EQ(lines.offset({0, 2}), 4u);  // after "a€"
  EXPECT_EQ(lines.offset({0, 4}), 8u);  // after "a€𝄞": 𝄞 counts 2
  std::vector<TSInputEdit> edits;
  ASSERT_TRUE(applyChanges(text, lines, {ContentChange{Rng{{0, 1}, {0, 1}}, "é\n𝄞\n"}}, edits));
  EXPECT_EQ(text, "aé\n𝄞\n€𝄞b\nx\n");
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0].start_byte, 1u);
  EXPECT_EQ(edits[0].new_end_point.row, 2u);
  EXPECT_EQ(edits[0].new_end_point.column, 0u);
  EXPECT_EQ(lines.offset({2, 3}), text.find('b'));      // "€𝄞" is 1 + 2 units
  EXPECT_EQ(lines.position(2, 7), (Pos{2, 3}));          // 3 + 4 bytes
  EXPECT_EQ(lines.offset({3, 1}), text.size() - 1);     // the last line, "x"
  EXPECT_EQ(lines.offset({9, 0}), text.size());          // past the end: clamped
}

// A change whose range lies outside the document leaves the text and its index alone.
TEST(LineIndexIncremental, ARejectedChangeLeavesTheIndexAlone) {
  std::string text = "one\ntwo\n";
  LineIndex lines(text);
  std::vector<TSInputEdit> edits;
  ASSERT_FALSE(applyChanges(text, lines, {ContentChange{Rng{{1, 2}, {0, 0}}, "x"}}, edits));
  EXPECT_EQ(text, "one\ntwo\n");
  EXPECT_EQ(lines.starts(), LineIndex(text).starts());
  EXPECT_TRUE(edits.empty());
}
