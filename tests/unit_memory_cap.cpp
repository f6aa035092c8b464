// The memory cap caps: the peak of everything a request allocates (counted by replacing the
// global operator new in this test binary) stays within kMaxDataBytes. Before, a data-mode
// all-to-all on 2,048 devices peaked at 712 MB against 512 MB (the message vectors were not
// counted). The sanitizer build skips it: ASan keeps its own allocator.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <regex>
#include <string>

#include "api/api.hpp"
#include "steps/executor.hpp"

namespace {
std::atomic<long long> g_live{0}, g_peak{0};
constexpr size_t kHeader = 16;  // keeps the allocation's size, and 16-byte alignment

void* counted_alloc(size_t n) {
  void* p = std::malloc(n + kHeader);
  if (!p) throw std::bad_alloc();
  *static_cast<size_t*>(p) = n;
  const long long live = g_live += static_cast<long long>(n);
  long long peak = g_peak.load();
  while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
  }
  return static_cast<char*>(p) + kHeader;
}

void counted_free(void* p) {
  if (!p) return;
  char* base = static_cast<char*>(p) - kHeader;
  g_live -= static_cast<long long>(*reinterpret_cast<size_t*>(base));
  std::free(base);
}
}  // namespace

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COMMLAB_ASAN 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(COMMLAB_ASAN)
void* operator new(size_t n) { return counted_alloc(n); }
void* operator new[](size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, size_t) noexcept { counted_free(p); }
void operator delete[](void* p, size_t) noexcept { counted_free(p); }
#define COMMLAB_COUNTING 1
#endif

namespace {

using nlohmann::json;

// The peak bytes allocated while answering `request`, and the answer.
long long peak_of(const std::string& request, json* out) {
  g_peak = g_live.load();
  const long long before = g_live.load();
  const std::string text = commlab::evaluate(request);
  const long long peak = g_peak.load() - before;
  *out = json::parse(text);
  return peak;
}

}  // namespace

TEST(MemoryCap, EveryAllocationCounts) {
#ifndef COMMLAB_COUNTING
  GTEST_SKIP() << "the sanitizer's allocator replaces operator new";
#else
  const double cap = commlab::kMaxDataBytes;
  json out;
  // Refused or within the cap.
  for (const char* request : {
           R"({"op":"simulate","collective":"alltoall","algorithm":"direct","devices":2048,"bytes":16384,"mode":"data"})",
           R"({"op":"simulate","collective":"alltoall","algorithm":"direct","devices":2048,"bytes":16384,"mode":"accounting","trace_limit":100000})",
           R"({"op":"simulate","collective":"alltoall","algorithm":"direct","devices":900,"bytes":7200,"mode":"data","trace_limit":100000})",
           R"({"op":"simulate","algorithm":"recursive_doubling","devices":16,"bytes":1.6e7,"mode":"data"})",
           R"({"op":"simulate","algorithm":"ring","devices":2000,"bytes":8,"mode":"accounting","trace_limit":100000})",
       }) {
    const long long peak = peak_of(request, &out);
    if (out.contains("error")) {
      EXPECT_EQ(out["error"]["code"], "too_large") << request;
      continue;
    }
    EXPECT_LE(static_cast<double>(peak), cap) << request << ": peak " << peak / 1e6 << " MB";
  }
  // The size a refusal names runs within the cap too.
  peak_of(R"({"op":"simulate","algorithm":"ring","devices":16,"bytes":1e9,"mode":"data"})", &out);
  ASSERT_TRUE(out.contains("error"));
  std::smatch m;
  const std::string msg = out["error"]["message"];
  ASSERT_TRUE(std::regex_search(msg, m, std::regex("the largest size that fits is ([0-9]+) bytes"))) << msg;
  const std::string fitting = R"({"op":"simulate","algorithm":"ring","devices":16,"mode":"data","bytes":)" +
                              std::string(m[1]) + "}";
  const long long peak = peak_of(fitting, &out);
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_LE(static_cast<double>(peak), cap) << fitting << ": peak " << peak / 1e6 << " MB";
#endif
}
