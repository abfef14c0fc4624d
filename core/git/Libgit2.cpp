#include "git/Libgit2.h"

#include "absl/strings/str_cat.h"

namespace impact::gitlib {

void ensureLibgit2() {
  static const int initialized = [] {
    int n = git_libgit2_init();
    // Objects are not re-hashed on every read (as git itself does not): a damaged object still
    // fails to inflate or parse, and `git fsck` is the check of hashes.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    return n;
  }();
  (void)initialized;
}

std::string lastError() {
  const git_error* e = git_error_last();
  return (e && e->message) ? std::string(e->message) : std::string();
}

std::string errorSuffix() {
  std::string m = lastError();
  return m.empty() ? std::string() : absl::StrCat(": ", m);
}

std::string oidHex(const git_oid* oid) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(GIT_OID_HEXSZ, '0');
  for (size_t i = 0; i < GIT_OID_RAWSZ; ++i) {
    hex[2 * i] = kDigits[oid->id[i] >> 4];
    hex[2 * i + 1] = kDigits[oid->id[i] & 0xf];
  }
  return hex;
}

std::string shortId(const std::string& id) { return id.substr(0, 7); }

}  // namespace impact::gitlib
