// DeclEval::trace (DeclEval.h): a function run whole, as callWithDefaults runs it, every call of a
// function of the tree shown to a watcher before and after it runs.
#include "extract/python/DeclEvalImpl.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

AV DeclEval::Impl::traced(const AV& fn, std::vector<AV> pos, std::vector<std::pair<std::string, AV>> kw, TSNode at,
                          DFrame& f, DPath& p, int d) {
  const CallTrace& w = *watcher;
  if (w.skip && w.skip(fn, pos, kw)) {
    AV v = AV::unknown(fn.s + " is watched, not run");
    v.lib = true;  // what a builder returns: a kernel of rocKE's IR library
    if (w.seen) w.seen(fn, pos, kw, v, rangeOf(at));
    return v;
  }
  watched = true;
  AV v = invoke(fn, pos, kw, at, f, p, d);
  if (w.seen) w.seen(fn, pos, kw, v, rangeOf(at));
  return v;
}

CallResult DeclEval::trace(const std::string& name, const CallTrace& t) {
  impl_->watcher = &t;
  impl_->watched = false;
  CallResult out;
  try {
    out = callWithDefaults(name);
  } catch (...) {
    impl_->watcher = nullptr;
    throw;
  }
  impl_->watcher = nullptr;
  return out;
}

}  // namespace impact::pyextract
