#include "cli/HugePages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

// The sanitizers own the heap: under them nothing here runs (GCC's and clang's tests).
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define IMPACT_SANITIZED_HEAP 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IMPACT_SANITIZED_HEAP 1
#endif

namespace impact::cli {

#if !defined(IMPACT_SANITIZED_HEAP)
namespace {

// kFirst: the main heap's first growth, below glibc's largest mmap threshold (32 MiB), so that the
// block that makes it comes from the heap.
constexpr uintptr_t kHuge = 2u << 20, kGrowth = 32u << 20, kFirst = 24u << 20;
// A thread's malloc arena is a heap glibc maps aligned to its maximum size (twice the largest
// mmap threshold: 64 MiB on 64-bit systems), its header and first chunks at the start.
constexpr uintptr_t kArenaHeap = 64u << 20;
// What a chunk costs beyond its bytes (glibc: size field and alignment), rounded up.
constexpr uintptr_t kChunkSlack = 64;

uintptr_t up(uintptr_t p) { return (p + kHuge - 1) & ~(kHuge - 1); }

// Huge pages only where no page was touched yet: a 2 MiB range that already has a 4 KiB page
// stays on 4 KiB pages. So the range is advised before anything lands in it, and a filler block
// (never freed, never touched but for its header) takes the rest of the partly used 2 MiB range,
// so that the next blocks start on a fresh one.
void advise(uintptr_t from, uintptr_t to) {
  if (to > from + kHuge) madvise(reinterpret_cast<void*>(from), (to - from) & ~(kHuge - 1), MADV_HUGEPAGE);
}

void fillTo(uintptr_t boundary) {
  void* volatile probe = std::malloc(1);
  const uintptr_t at = reinterpret_cast<uintptr_t>(probe);
  std::free(probe);
  if (boundary > at + 2 * kChunkSlack) {
    void* volatile filler = std::malloc(boundary - at - kChunkSlack);
    (void)filler;  // kept for the process's life
  }
}

}  // namespace
#endif

void heapOnHugePages() {
#if defined(IMPACT_SANITIZED_HEAP)  // the sanitizers own the heap
  return;
#else
  // Requests up to the growth come from the heap, which is never trimmed back (the process is
  // short-lived).
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kGrowth));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(4 * kGrowth));
  mallopt(M_TOP_PAD, 0);
  // The main heap grows now by a block that ends where the new heap ends (its only touched page
  // beyond the old end is the last); advised, freed, then filled up to the first 2 MiB boundary.
  const uintptr_t before = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t aligned = up(before);
  void* volatile grow = std::malloc(aligned + kFirst - before - kChunkSlack);
  advise(aligned, reinterpret_cast<uintptr_t>(sbrk(0)) - kHuge);
  std::free(grow);
  fillTo(aligned);
  mallopt(M_TOP_PAD, static_cast<int>(kGrowth));  // later growth in large steps
  // The threads' arenas: made now, one per other core, each advised past its first 2 MiB and
  // filled up to it; a thread that ends leaves its arena to the next thread that allocates (the
  // analysis' worker threads).
  const unsigned others = std::min(7u, std::max(1u, std::thread::hardware_concurrency()) - 1);
  std::atomic<unsigned> made{0};
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < others; ++i)
    threads.emplace_back([&made, others] {
      void* volatile p = std::malloc(64);  // the arena this thread is given, made with the top pad
      const uintptr_t heap = reinterpret_cast<uintptr_t>(p) & ~(kArenaHeap - 1);
      advise(heap + kHuge, heap + kArenaHeap);
      fillTo(heap + kHuge);
      made.fetch_add(1);
      while (made.load() < others) std::this_thread::yield();  // each a distinct arena
      std::free(p);
    });
  for (auto& t : threads) t.join();
#endif
}

}  // namespace impact::cli
