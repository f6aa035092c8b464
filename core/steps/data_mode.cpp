// The executor's data mode: inputs, moving numbers between buffers, checking the result (P5
// §0.5, "made executable"). A file of its own so that the wasm build compiles these loops for
// speed and the rest of the executor for size (CMakeLists.txt).
#include <algorithm>
#include <cstring>
#include <utility>

#include "base/heap_sort.hpp"
#include "steps/executor.hpp"

namespace commlab {

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// floor(block * elements / den) without overflow: den is at most devices x 2 x 4096 chunks
// (< 2^25) and elements stay below 2^30 in data mode, so the remainder's product fits.
int64_t position(int64_t block, int64_t den, int64_t elements) {
  return block / den * elements + block % den * elements / den;
}

}  // namespace

double input_value(uint64_t seed, int device, int64_t element) {
  const uint64_t h = splitmix64(seed * 0xD1B54A32D192ED03ULL ^ (static_cast<uint64_t>(device) << 40) ^
                                static_cast<uint64_t>(element));
  return static_cast<double>(static_cast<int64_t>(h % 2001) - 1000);
}

double* Executor::buffer(int node, bool output) {
  if (node == spec_.devices) return switch_buf_.data();
  if (output && !out_.empty()) return out_[node].data();
  return in_[node].data();
}

double Executor::input(int d, int64_t e) const {
  return opt_.inputs ? (*opt_.inputs)[d][e] : input_value(opt_.seed, d, e);
}

void Executor::fill_inputs() {
  const int k = spec_.devices;
  const int64_t n = result_.elements;
  in_.resize(k);
  for (int d = 0; d < k; ++d) {
    in_[d].resize(n);
    for (int64_t e = 0; e < n; ++e) in_[d][e] = input(d, e);
  }
}

// Messages of one step leave together: each reads its sender's buffer as it was when the step
// began. A read that a write of the same step overlaps is staged first.
void Executor::apply_data(const Step& step) {
  const int64_t n = result_.elements;
  const size_t count = step.messages.size();
  std::vector<char> staged(count, 0);
  std::vector<int64_t> stage_at(count, 0);
  if (out_.empty()) {
    struct Write {
      int32_t node;
      int64_t lo, hi;
    };
    std::vector<Write> writes;
    writes.reserve(count);
    for (const Message& m : step.messages)
      writes.push_back({m.dst, position(m.dst_begin, m.den, n), position(m.dst_begin + m.len, m.den, n)});
    // Ties (one node, one lo) in any order: max_hi at the end of their run is the same.
    heap_sort(writes.begin(), writes.end(), [](const Write& a, const Write& b) {
      return a.node != b.node ? a.node < b.node : a.lo < b.lo;
    });
    std::vector<int64_t> max_hi(writes.size());
    for (size_t i = 0; i < writes.size(); ++i)
      max_hi[i] = (i > 0 && writes[i - 1].node == writes[i].node) ? std::max(max_hi[i - 1], writes[i].hi)
                                                                   : writes[i].hi;
    int64_t stage_size = 0;
    for (size_t j = 0; j < count; ++j) {
      const Message& m = step.messages[j];
      const int64_t lo = position(m.src_begin, m.den, n), hi = position(m.src_begin + m.len, m.den, n);
      if (lo == hi) continue;
      // Writes to m.src starting before hi; does any of them end after lo?
      auto first = std::lower_bound(writes.begin(), writes.end(), m.src,
                                    [](const Write& w, int32_t node) { return w.node < node; });
      auto last = std::lower_bound(first, writes.end(), std::make_pair(m.src, hi),
                                   [](const Write& w, const std::pair<int32_t, int64_t>& key) {
                                     return w.node < key.first || (w.node == key.first && w.lo < key.second);
                                   });
      if (last != first && max_hi[(last - writes.begin()) - 1] > lo) {
        staged[j] = 1;
        stage_at[j] = stage_size;
        stage_size += hi - lo;
      }
    }
    if (stage_size > 0) {
      if (static_cast<int64_t>(staging_.size()) < stage_size) staging_.resize(stage_size);
      for (size_t j = 0; j < count; ++j)
        if (staged[j]) {
          const Message& m = step.messages[j];
          const int64_t lo = position(m.src_begin, m.den, n), hi = position(m.src_begin + m.len, m.den, n);
          std::memcpy(staging_.data() + stage_at[j], buffer(m.src, false) + lo, (hi - lo) * sizeof(double));
        }
    }
  }
  for (size_t j = 0; j < count; ++j) {
    const Message& m = step.messages[j];
    const int64_t slo = position(m.src_begin, m.den, n), shi = position(m.src_begin + m.len, m.den, n);
    const int64_t dlo = position(m.dst_begin, m.den, n);
    const int64_t len = shi - slo;
    const double* __restrict src = staged[j] ? staging_.data() + stage_at[j] : buffer(m.src, false) + slo;
    double* __restrict dst = buffer(m.dst, true) + dlo;
    if (m.op == MsgOp::copy) {
      std::memcpy(dst, src, len * sizeof(double));
    } else {
      for (int64_t i = 0; i < len; ++i) dst[i] += src[i];
    }
  }
}

bool Executor::verify() {
  result_.verified = false;
  if (!opt_.data) {
    result_.verification = "accounting mode: no data moved";
    return false;
  }
  const int k = spec_.devices;
  const int64_t n = result_.elements;
  // Reference sums a tile of elements at a time, so each device's buffer streams in order.
  constexpr int64_t kTile = 4096;
  std::vector<double> tile(kTile);
  int64_t tile_lo = -1;
  auto sum_at = [&](int64_t e) {
    if (tile_lo < 0 || e < tile_lo || e >= tile_lo + kTile) {
      tile_lo = e - e % kTile;
      const int64_t hi = std::min(n, tile_lo + kTile);
      std::fill(tile.begin(), tile.end(), 0.0);
      for (int d = 0; d < k; ++d)
        for (int64_t x = tile_lo; x < hi; ++x) tile[x - tile_lo] += input(d, x);
    }
    return tile[e - tile_lo];
  };
  auto block = [&](int b) { return position(b, k, n); };
  switch (spec_.collective) {
    case Collective::allreduce:
      for (int64_t lo = 0; lo < n; lo += kTile)
        for (int d = 0; d < k; ++d)
          for (int64_t e = lo; e < std::min(n, lo + kTile); ++e)
            if (in_[d][e] != sum_at(e)) return mismatch(d, e, in_[d][e], sum_at(e));
      result_.verification = "every device holds the elementwise sum of all inputs";
      break;
    case Collective::reduce:
      for (int64_t e = 0; e < n; ++e) {
        const double s = sum_at(e);
        if (in_[spec_.root][e] != s) return mismatch(spec_.root, e, in_[spec_.root][e], s);
      }
      result_.verification = "the root holds the elementwise sum of all inputs";
      break;
    case Collective::reduce_scatter:
      for (int d = 0; d < k; ++d)
        for (int64_t e = block(d); e < block(d + 1); ++e) {
          const double s = sum_at(e);
          if (in_[d][e] != s) return mismatch(d, e, in_[d][e], s);
        }
      result_.verification = "device i holds block i of the elementwise sum";
      break;
    case Collective::allgather:
      for (int d = 0; d < k; ++d)
        for (int b = 0; b < k; ++b)
          for (int64_t e = block(b); e < block(b + 1); ++e) {
            const double want = input(b, e);
            if (in_[d][e] != want) return mismatch(d, e, in_[d][e], want);
          }
      result_.verification = "every device holds block j of device j's input, for every j";
      break;
    case Collective::broadcast:
      for (int d = 0; d < k; ++d)
        for (int64_t e = 0; e < n; ++e) {
          const double want = input(spec_.root, e);
          if (in_[d][e] != want) return mismatch(d, e, in_[d][e], want);
        }
      result_.verification = "every device holds the root's input";
      break;
    case Collective::alltoall:
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j)
          for (int64_t t = 0; t < block(j + 1) - block(j); ++t) {
            const double want = input(j, block(i) + t);
            if (out_[i][block(j) + t] != want) return mismatch(i, block(j) + t, out_[i][block(j) + t], want);
          }
      result_.verification = "block j of device i is block i of device j's input (a transpose)";
      break;
    case Collective::sendrecv:
      for (int64_t e = 0; e < n; ++e) {
        const double want = input(spec_.root, e);
        if (in_[spec_.peer][e] != want) return mismatch(spec_.peer, e, in_[spec_.peer][e], want);
      }
      result_.verification = "the receiver holds the sender's buffer";
      break;
  }
  result_.verified = true;
  return true;
}

}  // namespace commlab
