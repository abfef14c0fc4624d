// Content judgement (SPEC R3.1): which edits keep a file's fingerprint (inert) and which do not;
// a file that cannot be read is never safe.
#include <gtest/gtest.h>

#include <string>

#include "extract/Extract.h"

namespace impact {
namespace {

constexpr const char* kCpp = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950FooNative.cpp";
constexpr const char* kPy = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/foo.py";
constexpr const char* kUed =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_foo/gfx950_foo.ued.json";
constexpr const char* kProfile = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_foo.profile.yaml";

uint64_t fp(const char* path, const std::string& content) {
  FileFacts f = extractFile(path, content);
  EXPECT_TRUE(f.ok) << f.error;
  return f.fingerprint;
}

TEST(ContentJudgement, CppLineCommentContinuedByASpliceIsAComment) {
  // The line after `// ... \` is part of the comment: editing it is inert.
  std::string a = "int x = 1; // note \\\nint y = 2;\nint z = 3;\n";
  std::string b = "int x = 1; // note \\\nint y = 99; whatever\nint z = 3;\n";
  EXPECT_EQ(fp(kCpp, a), fp(kCpp, b));
  // Without the splice the next line is code.
  std::string c = "int x = 1; // note\nint y = 2;\nint z = 3;\n";
  std::string d = "int x = 1; // note\nint y = 99;\nint z = 3;\n";
  EXPECT_NE(fp(kCpp, c), fp(kCpp, d));
  // Removing the splice turns the comment's second line into code: not inert.
  EXPECT_NE(fp(kCpp, a), fp(kCpp, c));
  // A splice with trailing carriage return (CRLF files).
  std::string e = "int x = 1; // note \\\r\nint y = 2;\r\nint z = 3;\r\n";
  std::string g = "int x = 1; // note \\\r\nint y = 7;\r\nint z = 3;\r\n";
  EXPECT_EQ(fp(kCpp, e), fp(kCpp, g));
}

TEST(ContentJudgement, CppRawStringsWithEncodingPrefixesAreStrings) {
  for (const char* prefix : {"R", "u8R", "uR", "UR", "LR"}) {
    SCOPED_TRACE(prefix);
    std::string p(prefix);
    // Comment markers inside a raw string are string content: editing them is a code change.
    std::string a = "auto s = " + p + "\"x(/* a */ // b )\" still )x\";\nint k = 1;\n";
    std::string b = "auto s = " + p + "\"x(/* A */ // b )\" still )x\";\nint k = 1;\n";
    std::string c = "auto s = " + p + "\"x(/* a */ // B )\" still )x\";\nint k = 1;\n";
    EXPECT_NE(fp(kCpp, a), fp(kCpp, b));
    EXPECT_NE(fp(kCpp, a), fp(kCpp, c));
    // The code after the raw string is still code.
    std::string d = "auto s = " + p + "\"x(/* a */ // b )\" still )x\";\nint k = 2;\n";
    EXPECT_NE(fp(kCpp, a), fp(kCpp, d));
    // A comment after it is a comment.
    std::string e = "auto s = " + p + "\"x(/* a */ // b )\" still )x\"; // trailing\nint k = 1;\n";
    EXPECT_EQ(fp(kCpp, a), fp(kCpp, e));
  }
}

TEST(ContentJudgement, PythonDocstringAndCommentEditsAreInert) {
  std::string a = "\"\"\"Module doc.\"\"\"\n\ndef build(spec):\n    \"\"\"Builds.\"\"\"\n    b = 1  # one\n    return b\n";
  std::string doc = "\"\"\"Module doc, reworded.\"\"\"\n\ndef build(spec):\n    \"\"\"Builds the kernel.\n\n    More.\n    \"\"\"\n    b = 1  # one\n    return b\n";
  std::string comment = "\"\"\"Module doc.\"\"\"\n\n# a new comment\ndef build(spec):\n    \"\"\"Builds.\"\"\"\n    b = 1  # uno\n    return b\n";
  std::string code = "\"\"\"Module doc.\"\"\"\n\ndef build(spec):\n    \"\"\"Builds.\"\"\"\n    b = 2  # one\n    return b\n";
  std::string str = "\"\"\"Module doc.\"\"\"\n\ndef build(spec):\n    \"\"\"Builds.\"\"\"\n    b = 1  # one\n    s = \"\"\"not a docstring\"\"\"\n    return b\n";
  EXPECT_EQ(fp(kPy, a), fp(kPy, doc));
  EXPECT_EQ(fp(kPy, a), fp(kPy, comment));
  EXPECT_NE(fp(kPy, a), fp(kPy, code));
  EXPECT_NE(fp(kPy, a), fp(kPy, str));
}

TEST(ContentJudgement, JsonEditThatChangesNoValueIsInert) {
  std::string a = R"({"id": "1", "graph_match": {"native": "a.b"}, "n": 1.0})";
  std::string b = "{\n  \"n\": 1.0,\n  \"graph_match\" : { \"native\" : \"a.b\" },\n  \"id\": \"1\"\n}\n";
  std::string c = R"({"id": "1", "graph_match": {"native": "a.c"}, "n": 1.0})";
  EXPECT_EQ(fp(kUed, a), fp(kUed, b));
  EXPECT_NE(fp(kUed, a), fp(kUed, c));
}

TEST(ContentJudgement, YamlEditThatChangesNoValueIsInert) {
  std::string a = "arch: gfx950\nslug: gfx950_foo\nkmd_fields:\n  - name: block_m\n    type: int\n";
  std::string b = "# profile\narch: gfx950   # the arch\nslug: 'gfx950_foo'\nkmd_fields:\n- {name: block_m, type: int}\n";
  std::string c = "arch: gfx950\nslug: gfx950_foo\nkmd_fields:\n  - name: block_n\n    type: int\n";
  EXPECT_EQ(fp(kProfile, a), fp(kProfile, b));
  EXPECT_NE(fp(kProfile, a), fp(kProfile, c));
}

TEST(ContentJudgement, AFileThatCannotBeReadIsNotOk) {
  for (const char* path : {kCpp, kPy, kUed, kProfile}) {
    SCOPED_TRACE(path);
    FileFacts bad = extractFile(path, std::string("int x = 1; // \xff\xfe\n"));
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.error.find("invalid UTF-8"), std::string::npos) << bad.error;
    FileFacts bin = extractFile(path, std::string("abc\0def", 7));
    EXPECT_FALSE(bin.ok);
    EXPECT_NE(bin.error.find("binary"), std::string::npos) << bin.error;
  }
}

}  // namespace
}  // namespace impact
