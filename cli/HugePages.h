// The process's heap on transparent huge pages (impact's short-lived commands).
#pragma once

namespace impact::cli {

// On a machine whose transparent huge pages are "madvise" (Debian's default), every first touch
// of a 4 KiB heap page is a page fault; a warm `impact report` touched ~1,400 of them, measured at
// 13-16 us each in a virtual machine: a third of the run. This grows the main heap once by 32 MiB,
// aligned to 2 MiB, and advises it for huge pages (what glibc's `glibc.malloc.hugetlb=1` tunable
// does, which only the environment can set), with later growth in 32 MiB steps. Memory is only
// advised, never touched here. A no-op under the sanitizers (their allocator is not glibc's).
void heapOnHugePages();

}  // namespace impact::cli
