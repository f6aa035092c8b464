// Small dense matrices in double and a portable random source, for the numerical checks of
// the sharding and ring-attention demos (P5 §6.2, §6.5). Header-only, internal to core.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace commlab::dense {

/// Row-major matrix of doubles.
struct Mat {
  int rows = 0, cols = 0;
  std::vector<double> v;
  Mat() = default;
  Mat(int r, int c) : rows(r), cols(c), v(static_cast<size_t>(r) * c, 0.0) {}
  double& operator()(int i, int j) { return v[static_cast<size_t>(i) * cols + j]; }
  double operator()(int i, int j) const { return v[static_cast<size_t>(i) * cols + j]; }
};

/// splitmix64: the same numbers natively and in wasm (std distributions are not portable).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [-scale, scale).
  double uniform(double scale) { return scale * (2.0 * (next() >> 11) * 0x1.0p-53 - 1.0); }

 private:
  std::uint64_t s_;
};

inline Mat random(int r, int c, Rng& rng, double scale) {
  Mat m(r, c);
  for (double& x : m.v) x = rng.uniform(scale);
  return m;
}

inline Mat matmul(const Mat& a, const Mat& b) {
  Mat c(a.rows, b.cols);
  const int n = b.cols, m = a.cols;
  for (int i = 0; i < a.rows; ++i) {
    // Row pointers that cannot alias: the inner loops then keep no reload of c between steps
    // (a wasm engine does not do that analysis itself).
    double* __restrict ci = c.v.data() + static_cast<size_t>(i) * n;
    const double* ai = a.v.data() + static_cast<size_t>(i) * m;
    // Four rows of b a pass: c(i, j) is loaded and stored once for four products instead of each
    // time (without SIMD that traffic was most of a wasm engine's time). The adds keep their
    // order, c(i, j) + a(i, k) b(k, j) for k ascending: the same sums, bit for bit.
    int k = 0;
    for (; k + 4 <= m; k += 4) {
      const double x0 = ai[k], x1 = ai[k + 1], x2 = ai[k + 2], x3 = ai[k + 3];
      const double* __restrict b0 = b.v.data() + static_cast<size_t>(k) * n;
      const double* __restrict b1 = b0 + n;
      const double* __restrict b2 = b1 + n;
      const double* __restrict b3 = b2 + n;
      for (int j = 0; j < n; ++j) ci[j] = ci[j] + x0 * b0[j] + x1 * b1[j] + x2 * b2[j] + x3 * b3[j];
    }
    for (; k < m; ++k) {
      const double x = ai[k];
      const double* __restrict bk = b.v.data() + static_cast<size_t>(k) * n;
      for (int j = 0; j < n; ++j) ci[j] += x * bk[j];
    }
  }
  return c;
}

/// Columns [c0, c1) of m.
inline Mat cols(const Mat& m, int c0, int c1) {
  Mat out(m.rows, c1 - c0);
  for (int i = 0; i < m.rows; ++i)
    for (int j = c0; j < c1; ++j) out(i, j - c0) = m(i, j);
  return out;
}

/// Rows [r0, r1) of m.
inline Mat rows(const Mat& m, int r0, int r1) {
  Mat out(r1 - r0, m.cols);
  for (int i = r0; i < r1; ++i)
    for (int j = 0; j < m.cols; ++j) out(i - r0, j) = m(i, j);
  return out;
}

inline void add_into(Mat& acc, const Mat& x) {
  for (size_t i = 0; i < acc.v.size(); ++i) acc.v[i] += x.v[i];
}

inline double max_abs_diff(const Mat& a, const Mat& b) {
  double e = 0;
  for (size_t i = 0; i < a.v.size(); ++i) e = std::fmax(e, std::fabs(a.v[i] - b.v[i]));
  return e;
}

}  // namespace commlab::dense
