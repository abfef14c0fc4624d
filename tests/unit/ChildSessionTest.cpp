// Ending a child the instant it was started (a cancel that arrives while the emitter forks its
// next child): the child may not have run its setsid() yet, so it has no process group of its
// own and a kill of the group misses it. The session must still end it, not wait for a child
// that goes on to exec and serve (this hung a cancelled run and impactd's shutdown: CI's
// LspEmitter.ManualRunIsCancelledByTheClient).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>

#include "process/Sandbox.h"
#include "process/Session.h"

namespace impact::emitter {
namespace {

using namespace std::chrono_literals;

ChildRequest serving() {
  ChildRequest req;
  // Serves forever: reads its socket and never answers.
  req.argv = {"/bin/sh", "-c", "while read line; do :; done"};
  req.env = {{"PATH", "/usr/bin:/bin"}};
  req.cwd = "/";
  return req;
}

TEST(ChildSession, EndedTheInstantItStartedNeverHangs) {
  // Each round starts a session and ends it at once; without the direct kill some rounds wait
  // forever. Run on a thread so that a hang is a failure, not a stuck test program.
  auto rounds = std::async(std::launch::async, [] {
    for (int i = 0; i < 300; ++i) {
      std::string error;
      auto s = ChildSession::start(serving(), &error);
      if (!s) return "round " + std::to_string(i) + ": " + error;
      s.reset();  // kills and reaps it
    }
    return std::string();
  });
  if (rounds.wait_for(60s) != std::future_status::ready) {
    new std::future<std::string>(std::move(rounds));  // never joined: the program still ends
    FAIL() << "ending a just-started child hung";
  }
  EXPECT_EQ(rounds.get(), "");
}

TEST(ChildSession, ACallCancelledBeforeItBeginsEndsTheChild) {
  std::atomic<bool> cancel{true};
  for (int i = 0; i < 100; ++i) {
    std::string error;
    auto s = ChildSession::start(serving(), &error);
    ASSERT_TRUE(s) << error;
    auto t0 = std::chrono::steady_clock::now();
    SessionReply r = s->call("{}", std::chrono::steady_clock::now() + 30s, &cancel);
    EXPECT_TRUE(r.timedOut);
    EXPECT_FALSE(r.answered);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s) << "round " << i;
    EXPECT_FALSE(s->alive());
  }
}

TEST(RunChild, CancelledAtOnceEndsTheChild) {
  std::atomic<bool> cancel{true};
  for (int i = 0; i < 100; ++i) {
    ChildRequest req = serving();
    req.argv = {"/bin/sh", "-c", "sleep 100"};
    req.deadline = std::chrono::steady_clock::now() + 30s;
    req.cancel = &cancel;
    auto t0 = std::chrono::steady_clock::now();
    ChildResult r = runChild(req);
    EXPECT_TRUE(r.started) << r.spawnError;
    EXPECT_TRUE(r.timedOut);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s) << "round " << i;
  }
}

}  // namespace
}  // namespace impact::emitter
