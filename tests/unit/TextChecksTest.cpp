// The text checks of an open buffer are updated over the edited bytes only (issue 18): after
// any sequence of byte edits, split multi-byte characters, NUL bytes and invalid sequences
// included, they say what a full check of the whole text says, with the same message.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "extract/Extract.h"
#include "extract/TextChecks.h"

using impact::FileKind;
using impact::TextChecks;
using impact::unreadableReason;

namespace {
// What an edit inserts: mostly valid text, sometimes a byte that breaks it (a NUL, a stray
// continuation byte, a lead byte without its continuation, an overlong form, 0xFF).
const std::vector<std::string> kPieces = {"b.param(\"x\", I32)\n", "é", "€", "𝄞", "\n", "", "ab",
                                          "\xE2\x82", "\x82\xAC", "\x80", "\xC0\xAF", "\xFF", std::string(1, '\0')};
}  // namespace

TEST(TextChecksIncremental, RandomByteEditsEqualAFullCheck) {
  std::mt19937 rng(18);
  std::string text = "def build(b):\n    x = b.param(\"é\", I32)  # €\n    y = 1  # 𝄞\n";
  TextChecks checks = TextChecks::of(text);
  int invalidSeen = 0, validSeen = 0;
  for (int step = 0; step < 20000; ++step) {
    std::string before = text;
    size_t a = std::uniform_int_distribution<size_t>(0, text.size())(rng);
    size_t len = std::uniform_int_distribution<size_t>(0, 4)(rng);
    size_t b = std::min(text.size(), a + len);
    // Breaking pieces are rarer, so that the text is valid most of the time (the kept path).
    size_t pick = std::uniform_int_distribution<size_t>(0, 30)(rng);
    std::string piece = pick < kPieces.size() ? kPieces[pick] : kPieces[pick % 6];
    text.replace(a, b - a, piece);
    checks.update(before, text, a, b, a + piece.size());
    TextChecks full = TextChecks::of(text);
    ASSERT_EQ(checks.nuls, full.nuls) << "step " << step;
    ASSERT_EQ(checks.firstBadUtf8, full.firstBadUtf8) << "step " << step;
    ASSERT_EQ(checks.reason(FileKind::Python, text), unreadableReason(FileKind::Python, text));
    (full.firstBadUtf8 == std::string::npos && full.nuls == 0 ? validSeen : invalidSeen)++;
    // Back to a readable text now and then, so that both paths keep being exercised.
    if (step % 97 == 0) {
      std::string prev = text;
      text = "x = 1  # €\n" + std::to_string(step) + "\n";
      checks.update(prev, text, 0, prev.size(), text.size());
    }
  }
  EXPECT_GT(validSeen, 300);  // the kept (incremental) path ran often
  EXPECT_GT(invalidSeen, 1000);
}

// Splitting a multi-byte character by deleting its first byte is found at the edited byte; the
// line number of the message counts the lines before it.
TEST(TextChecksIncremental, AnEditThatSplitsACharacterIsReportedWhereItIs) {
  std::string text = "a = 1\nb = 2\nc = '€'\n";
  TextChecks checks = TextChecks::of(text);
  EXPECT_EQ(checks.reason(FileKind::Python, text), "");
  size_t euro = text.find("€");
  std::string before = text;
  text.erase(euro, 1);
  checks.update(before, text, euro, euro + 1, euro);
  EXPECT_EQ(checks.reason(FileKind::Python, text), "line 3: invalid UTF-8 at byte " + std::to_string(euro));
  before = text;
  text.insert(euro, "\xE2");
  checks.update(before, text, euro, euro, euro + 1);
  EXPECT_EQ(checks.reason(FileKind::Python, text), "");
  before = text;
  text.insert(2, std::string(1, '\0'));
  checks.update(before, text, 2, 2, 3);
  EXPECT_EQ(checks.reason(FileKind::Python, text), "binary content (NUL byte)");
  before = text;
  text.erase(2, 1);
  checks.update(before, text, 2, 3, 2);
  EXPECT_EQ(checks.reason(FileKind::Python, text), "");
}
