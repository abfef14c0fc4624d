#include "git/Libgit2.h"

#include <atomic>

#include "absl/strings/str_cat.h"

namespace {
std::atomic<int> gCaLoadsSkipped{0};
}  // namespace

// impact and impactd read local repositories only: no libgit2 transport of theirs ever opens a
// TLS connection. Yet libgit2 1.5 as Debian builds it (with mbedTLS) parses the whole system CA
// bundle (/etc/ssl/certs/ca-certificates.crt, ~140 certificates) inside git_libgit2_init: 28-34 ms
// of every process start, a third of a warm `impact report` (callgrind: 56 M of 170 M
// instructions). These two definitions, exported from the executable, are the ones libgit2's
// calls resolve to (ELF symbol interposition: the executable comes first in the lookup): no
// certificate is read, and the trust store libgit2 configures is empty, so a TLS connection, were
// one ever made, would trust no server (it fails closed). Where libgit2 uses another TLS library,
// they are never called and nothing changes (GitInit.CaBundleIsNotParsed says which).
extern "C" int mbedtls_x509_crt_parse_file(void* /*chain*/, const char* /*path*/) {
  gCaLoadsSkipped.fetch_add(1, std::memory_order_relaxed);
  return 0;
}
extern "C" int mbedtls_x509_crt_parse_path(void* /*chain*/, const char* /*path*/) {
  gCaLoadsSkipped.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

namespace impact::gitlib {

int caBundleLoadsSkipped() { return gCaLoadsSkipped.load(std::memory_order_relaxed); }

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
