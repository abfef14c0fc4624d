// impactd: the language server. Until the server lands it answers --version only.
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("impactd %s\n", IMPACT_VERSION);
    return 0;
  }
  std::fprintf(stderr, "impactd: the language server is not implemented yet; try --version\n");
  return 2;
}
