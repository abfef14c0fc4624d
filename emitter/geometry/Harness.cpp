#include "geometry/Harness.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "geometry/HarnessChild.h"
#include "geometry/HarnessStaging.h"
#include "process/Sandbox.h"

namespace impact::emitter {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kGeneratorVersion = "geometry-harness-3";
constexpr const char* kFlags[] = {"-O1", "-w", "-pipe"};
// Recoverable (no -fno-sanitize-recover): one variant's undefined behaviour does not stop the
// others; the run's UBSAN_OPTIONS print one line per report (HarnessRun.cpp).
constexpr const char* kUbsanFlag = "-fsanitize=undefined";

std::string onPath(const std::string& name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? fs::absolute(name).string() : "";
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    fs::path cand = fs::path(dir) / name;
    if (::access(cand.c_str(), X_OK) == 0) return cand.string();
  }
  return "";
}

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The compiler's first line naming an error ("" when none does).
std::string compileError(const std::string& err) {
  std::stringstream ss(err);
  std::string line;
  while (std::getline(ss, line))
    if (line.find("error") != std::string::npos) {
      // The compiler runs in the build folder, which stages the tree's files under src/.
      return line.starts_with("src/") ? line.substr(4) : line;
    }
  return firstLine(err);
}

}  // namespace

ChildResult confinedChild(std::vector<std::string> argv, const std::string& stdinText, const Confinement& c,
                          std::vector<std::string> reads, const std::string& scratch, Clock::time_point deadline,
                          const std::map<std::string, std::string>& env) {
  ChildRequest req;
  req.argv = std::move(argv);
  req.env = childEnvironment(scratch, "");
  for (const auto& [k, v] : env) req.env[k] = v;
  req.cwd = scratch;
  req.stdinText = stdinText;
  req.deadline = deadline;
  double left = std::chrono::duration<double>(deadline - Clock::now()).count();
  ChildJail jail;
  if (std::string why = jail.prepare(c, reads, scratch, uint64_t(std::max(1.0, left)) + 1); !why.empty()) {
    ChildResult r;
    r.spawnError = "the child cannot be confined: " + why;
    return r;
  }
  req.jail = &jail;
  return runChild(req);
}

std::optional<Compiler> findCompiler() {
  std::vector<std::string> names;
  for (const char* var : {"IMPACT_CXX", "CXX"})
    if (const char* v = std::getenv(var); v && *v) names.push_back(v);
  for (const char* n : {"c++", "g++", "clang++"}) names.push_back(n);
  for (const auto& n : names) {
    std::string path = onPath(n);
    if (path.empty()) continue;
    ChildRequest req;
    req.argv = {path, "--version"};
    req.env = childEnvironment("/tmp", "");
    req.deadline = Clock::now() + std::chrono::seconds(20);
    ChildResult r = runChild(req);
    if (r.exitCode != 0) continue;
    return Compiler{path, absl::StrCat(firstLine(r.out), " (", path, ")")};
  }
  return std::nullopt;
}

namespace {

std::string fieldValue(size_t& field, bool string) {
  return string ? absl::StrCat("impact_unhex(impact_f.at(", field++, "))")
                : absl::StrCat("static_cast<int64_t>(std::stoll(impact_f.at(", field++, ")))");
}

// A struct parameter, built member by member (the others keep their defaults).
std::string structValue(const GeometryFeed& f, size_t& field) {
  std::string out = absl::StrCat("[&] {\n        ", f.literal, " impact_s{};\n");
  for (const auto& m : f.members)
    absl::StrAppend(&out, "        impact_s.", m.name, " = ", fieldValue(field, m.string), ";\n");
  return out + "        return impact_s;\n      }()";
}

// One local per header parameter, named as the header names it (a declared expression reads the
// others by those names), declared ones last.
std::string parameterLocals(const GeometryFamilyPlan& plan, std::vector<std::string>& args) {
  std::string locals, declared;
  size_t field = 0;
  for (size_t i = 0; i < plan.feeds.size(); ++i) {
    const GeometryFeed& f = plan.feeds[i];
    std::string name = plan.header.params[i].name.empty() ? absl::StrCat("impact_p", i) : plan.header.params[i].name;
    std::string value;
    switch (f.kind) {
      case GeometryFeed::Kind::Literal: value = f.literal; break;
      case GeometryFeed::Kind::Declared: value = absl::StrCat("(", f.literal, ")"); break;
      case GeometryFeed::Kind::Integer: value = fieldValue(field, false); break;
      case GeometryFeed::Kind::Struct: value = structValue(f, field); break;
      default: value = fieldValue(field, true); break;
    }
    (f.kind == GeometryFeed::Kind::Declared ? declared : locals) +=
        absl::StrCat("      const auto ", name, " = ", value, ";\n");
    args.push_back(name);
  }
  return locals + declared;
}

// `using namespace` of the header function's namespace, so a declared expression names its
// siblings as the header does.
std::string usingNamespace(const std::string& qualified) {
  size_t at = qualified.rfind("::");
  return at == std::string::npos ? "" : absl::StrCat("  using namespace ", qualified.substr(0, at), ";\n");
}

}  // namespace

std::string harnessSource(const GeometryFamilyPlan& plan) {
  std::vector<std::string> args;
  std::string locals = parameterLocals(plan, args);
  auto axes = [](const std::vector<std::string>& xs) {
    std::vector<std::string> out;
    for (size_t i = 0; i < 3; ++i) out.push_back(i < xs.size() ? absl::StrCat("(long long)(", xs[i], ")") : "1LL");
    return absl::StrJoin(out, ", ");
  };
  const std::string& var = plan.site.resultVar;
  return absl::StrCat(
      "// Generated by impactd (", kGeneratorVersion, "): the geometry call of ", plan.family.pack, "\n",
      "#include <cstdint>\n#include <cstdio>\n#include <exception>\n#include <iostream>\n#include <optional>\n"
      "#include <string>\n#include <vector>\n#include \"", fs::path(plan.family.header).filename().string(), "\"\n",
      "static std::string impact_unhex(const std::string& h) {\n"
      "  std::string out;\n  for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back(char(std::stoi(h.substr(i, 2), nullptr, 16)));\n"
      "  return out;\n}\n"
      "static std::string impact_json(const std::string& s) {\n"
      "  std::string out;\n  for (unsigned char c : s) {\n"
      "    if (c == '\"' || c == '\\\\') { out.push_back('\\\\'); out.push_back(char(c)); }\n"
      "    else if (c < 0x20) { char b[8]; std::snprintf(b, sizeof b, \"\\\\u%04x\", c); out += b; }\n"
      "    else out.push_back(char(c));\n  }\n  return out;\n}\n"
      "// The header function's value, or (an empty optional) the variant it declines.\n"
      "struct impact_declined {};\n"
      "template <class T> static T impact_value(T v) { return v; }\n"
      "template <class T> static T impact_value(std::optional<T> v) {\n"
      "  if (!v) throw impact_declined{};\n  return *v;\n}\n"
      "int main() {\n", usingNamespace(plan.header.qualified),
      "  std::string impact_line;\n  while (std::getline(std::cin, impact_line)) {\n"
      "    std::fputs(\"\\n@impact-variant@\\n\", stderr);  // this variant's UBSan reports follow\n"
      "    std::vector<std::string> impact_f;\n    size_t impact_at = 0;\n"
      "    while (impact_line != \"-\" && impact_at <= impact_line.size()) {\n"
      "      size_t tab = impact_line.find('\\t', impact_at);\n      if (tab == std::string::npos) tab = impact_line.size();\n"
      "      impact_f.push_back(impact_line.substr(impact_at, tab - impact_at));\n      impact_at = tab + 1;\n    }\n"
      "    try {\n", locals,
      "      const auto ", var, " = impact_value(", plan.header.qualified, "(", absl::StrJoin(args, ", "), "));\n"
      "      const long long impact_g[3] = {", axes(plan.site.grid), "};\n"
      "      const long long impact_b[3] = {", axes(plan.site.block), "};\n"
      "      std::printf(\"{\\\"grid\\\":[%lld,%lld,%lld],\\\"block\\\":[%lld,%lld,%lld]}\\n\", impact_g[0], impact_g[1], impact_g[2],\n"
      "                  impact_b[0], impact_b[1], impact_b[2]);\n"
      "    } catch (const impact_declined&) {\n"
      "      std::printf(\"{\\\"declined\\\":true}\\n\");\n"
      "    } catch (const std::exception& e) {\n"
      "      std::printf(\"{\\\"error\\\":\\\"%s\\\"}\\n\", impact_json(e.what()).c_str());\n"
      "    } catch (...) {\n      std::printf(\"{\\\"error\\\":\\\"a non-standard exception\\\"}\\n\");\n    }\n"
      "    std::fflush(stdout);\n  }\n  return 0;\n}\n");
}

namespace {

// A sanitizer build's failure names the runtime the linker did not find before the driver's
// "error: ld returned 1".
std::string linkError(const std::string& err) {
  std::stringstream ss(err);
  std::string line;
  while (std::getline(ss, line))
    if (line.find("cannot find") != std::string::npos || line.find("undefined reference") != std::string::npos)
      return line;
  return compileError(err);
}

// One compile in the build folder; "" when `harness` was written, else the first error line.
struct Compile {
  const Compiler& cxx;
  const Confinement& jail;
  std::vector<std::string> reads, includeDirs;
  std::string dir;
  Clock::time_point deadline;

  std::string run(const std::string& standard, bool ubsan) const {
    std::vector<std::string> argv = {cxx.path, standard};
    for (const auto& inc : includeDirs) argv.push_back("-I" + inc);
    for (const char* f : kFlags) argv.push_back(f);
    if (ubsan) argv.push_back(kUbsanFlag);
    for (const char* f : {"harness.cpp", "-o", "harness"}) argv.push_back(f);
    ChildResult r = confinedChild(argv, "", jail, reads, dir, deadline);
    if (r.exitCode == 0 && fs::exists(fs::path(dir) / "harness")) return "";
    if (!r.spawnError.empty()) return r.spawnError;
    if (r.timedOut) return "the compiler did not finish before its deadline";
    return ubsan ? linkError(r.err) : compileError(r.err);
  }
};

// The compiler reads the system's headers and tools, its own folder and the build folder; it runs
// as the user (as root: not the nobody real uid of the emitter's child, whose secure mode would
// drop TMPDIR and send the compiler driver's temporary files to /tmp, which Landlock refuses);
// every other layer and limit is the emitter's. The harness, which runs the header's code, gets
// the whole confinement (runHarness).
Compile compileIn(const fs::path& dir, std::vector<std::string> includeDirs, const Compiler& cxx, Confinement& jail,
                  Clock::time_point deadline) {
  std::error_code ec;
  std::vector<std::string> reads = {dir.string(), fs::canonical(cxx.path, ec).parent_path().string()};
  for (const char* p : {"/usr/include", "/usr/local/include", "/usr/bin", "/bin", "/usr/libexec", "/usr/local/bin"})
    if (fs::exists(p)) reads.push_back(p);
  jail.asRoot = false;
  return Compile{cxx, jail, reads, std::move(includeDirs), dir.string(), deadline};
}

}  // namespace

HarnessBuild buildHarness(const GeometryFamilyPlan& plan, const Snapshot& head, const Compiler& cxx,
                          const Confinement& c, const std::string& cacheDir, Clock::time_point deadline) {
  HarnessBuild out;
  fs::path root = fs::path(cacheDir) / "geometry";
  std::error_code ec;
  fs::create_directories(root, ec);
  std::string tmpl = (root / "build-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) {
    out.error = "cannot make a build folder in " + root.string();
    return out;
  }
  fs::path dir = tmpl;
  StagedSources staged = stageSources(plan, head, dir);
  if (!staged.error.empty()) {
    fs::remove_all(dir, ec);
    out.error = staged.error;
    return out;
  }
  std::string source = harnessSource(plan);
  std::ofstream(dir / "harness.cpp", std::ios::binary) << source;
  // Keyed by the flags: the sanitized binary, or (its build failed: `<key>.no-ubsan` says why)
  // the plain one.
  auto key = [&](bool ubsan) {
    return blobId(absl::StrCat(kGeneratorVersion, "\n", staged.blobs, "\n", source, "\n", cxx.id, "\n",
                               absl::StrJoin(kFlags, " "), ubsan ? std::string(" ") + kUbsanFlag : ""));
  };
  fs::path sanitized = root / (key(true) + ".bin"), plain = root / (key(false) + ".bin");
  fs::path noUbsan = root / (key(true) + ".no-ubsan");
  auto done = [&](HarnessBuild b) {
    fs::remove_all(dir, ec);
    return b;
  };
  if (fs::exists(sanitized)) return done({sanitized.string(), true, "", true, ""});
  if (fs::exists(noUbsan) && fs::exists(plain)) return done({plain.string(), true, "", false, readFile(noUbsan)});
  Confinement compileJail = c;
  Compile compile = compileIn(dir, staged.includeDirs, cxx, compileJail, deadline);
  auto keep = [&](const fs::path& to) {
    fs::rename(dir / "harness", to, ec);
    return ec ? "cannot keep the harness: " + ec.message() : "";
  };
  std::string firstError;
  for (const char* standard : {"-std=c++17", "-std=c++20"}) {
    std::string sanError = compile.run(standard, true);
    if (sanError.empty()) {
      std::string why = keep(sanitized);
      return done({why.empty() ? sanitized.string() : "", false, why, true, ""});
    }
    std::string plainError = compile.run(standard, false);
    if (plainError.empty()) {
      std::string why = keep(plain);
      if (why.empty()) std::ofstream(noUbsan, std::ios::binary) << sanError;
      return done({why.empty() ? plain.string() : "", false, why, false, sanError});
    }
    if (firstError.empty()) firstError = plainError;
  }
  out.error = absl::StrCat(plan.family.header, " does not compile standalone with ", fs::path(cxx.path).filename().string(),
                           ": ", firstError);
  return done(out);
}

}  // namespace impact::emitter
