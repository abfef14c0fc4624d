// libFuzzer target: the emit-document reader (core/emit/EmitDocument) from raw bytes, and the
// fold over a document it accepted: a kernel-code row and a kernargs row on the first family's
// module, so that every family and variant of the document is read by the fold.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "emit/EmitDocument.h"
#include "emit/Fold.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto doc = impact::emit::parseEmitDocument(text);
  if (!doc.ok()) return 0;
  std::vector<impact::Row> rows(2);
  rows[0].contract = "kernel-code";
  rows[1].contract = "kernargs";
  std::string module = doc->families.empty() ? "kernels/x.py" : doc->families.front().path;
  impact::emit::FoldContext ctx;
  for (auto& r : rows) {
    r.status = impact::Status::Changed;
    r.python.path = module;
    r.python.symbol = doc->families.empty() ? "build_x" : doc->families.front().builder;
    r.key = r.contract + "|k";
  }
  ctx.copyArgs["kernargs|k"] = {impact::emit::ArgRecord{}};
  ctx.changedPaths.insert(module);
  (void)impact::emit::foldRows(rows, *doc, ctx);
  return 0;
}
