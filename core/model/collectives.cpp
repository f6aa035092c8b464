#include "model/collectives.hpp"

#include <algorithm>
#include <cmath>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/heap_sort.hpp"

namespace commlab {

int floor_log2(long long k) {
  int r = 0;
  while (k > 1) {
    k >>= 1;
    ++r;
  }
  return r;
}

int ceil_log2(long long k) {
  const int f = floor_log2(k);
  return (1LL << f) == k ? f : f + 1;
}

const std::vector<AllreduceAlgorithm>& allreduce_algorithms() {
  static const std::vector<AllreduceAlgorithm> all = {
      AllreduceAlgorithm::ring,        AllreduceAlgorithm::recursive_doubling,
      AllreduceAlgorithm::rabenseifner, AllreduceAlgorithm::binary_tree,
      AllreduceAlgorithm::double_binary_tree, AllreduceAlgorithm::in_switch};
  return all;
}

std::string algorithm_name(AllreduceAlgorithm a) {
  switch (a) {
    case AllreduceAlgorithm::ring: return "ring";
    case AllreduceAlgorithm::recursive_doubling: return "recursive_doubling";
    case AllreduceAlgorithm::rabenseifner: return "rabenseifner";
    case AllreduceAlgorithm::binary_tree: return "binary_tree";
    case AllreduceAlgorithm::double_binary_tree: return "double_binary_tree";
    case AllreduceAlgorithm::in_switch: return "in_switch";
  }
  return "ring";
}

bool parse_allreduce_algorithm(const std::string& name, AllreduceAlgorithm* out) {
  for (AllreduceAlgorithm a : allreduce_algorithms())
    if (algorithm_name(a) == name) {
      *out = a;
      return true;
    }
  return false;
}

int dtree_parent(int k, int rank, int tree) {
  // NCCL's ncclGetBtree: the parent flips the lowest set bit and sets the next one up, or
  // only flips it when that lands past the last rank.
  auto btree = [k](int r) {
    if (r == 0) return -1;
    const int bit = r & -r;
    const int up = (r ^ bit) | (bit << 1);
    return up < k ? up : (r ^ bit);
  };
  if (tree == 0) return btree(rank);
  if (k % 2 == 0) {  // mirror
    const int p = btree(k - 1 - rank);
    return p < 0 ? -1 : k - 1 - p;
  }
  const int p = btree((rank - 1 + k) % k);  // shift
  return p < 0 ? -1 : (p + 1) % k;
}

double allreduce_lower_bound_bytes(int devices, double bytes) {
  return 2.0 * (devices - 1) / devices * bytes;
}

namespace {

CollectiveCost make_cost(std::string algorithm, int steps, double alpha_s, double beta_time_s,
                         double bytes_sent) {
  CollectiveCost c;
  c.algorithm = std::move(algorithm);
  c.steps = steps;
  c.alpha_time_s = steps * alpha_s;
  c.time_s = c.alpha_time_s + beta_time_s;
  c.bytes_sent_per_device = bytes_sent;
  return c;
}

// Double binary tree, pipelined (NCCL; P5 §5.2), exactly as schedule.cpp runs it: half h of the
// buffer climbs tree h in C chunks of D/(2C) and comes back down. With L the trees' depth, a
// non-root device at depth delta reduces chunk c into its parent in step c + L - delta, and a
// device with children at depth delta copies chunk c down in step c + L + delta: 2L + C - 1
// steps. A step costs alpha + m D/(2C beta), m the chunks on its busiest directed port; in the
// steady state m = 4 (a device inside one tree and a leaf of the other: two chunks up from its
// children, one from its parent, one as a leaf), less while the pipeline fills and drains.
// L = ceil(log2 k): NCCL's root has a single child. The busiest device sends 2D (D/2 up and D
// to two children in one tree, D/2 up as a leaf of the other).
// Devices that hold the same (depth, children, has parent) in both trees load their ports
// alike, so m is a max over those few classes.
struct DtreeClass {
  int depth[2], children[2], has_parent[2];
};

struct DtreeShape {
  int devices = 0;
  int depth = 0;  // L
  std::vector<DtreeClass> classes;
};

const DtreeShape& dtree_shape(int k) {
  thread_local DtreeShape shape;
  if (shape.devices == k) return shape;
  shape = DtreeShape{};
  shape.devices = k;
  std::vector<int> depth[2], children[2], parent[2];
  for (int t = 0; t < 2; ++t) {
    parent[t].resize(k);
    depth[t].assign(k, -1);
    children[t].assign(k, 0);
    for (int r = 0; r < k; ++r) {
      parent[t][r] = dtree_parent(k, r, t);
      if (parent[t][r] >= 0) ++children[t][parent[t][r]];
    }
    for (int r = 0; r < k; ++r) {
      // Walk up to the first device of known depth; fill the path on the way back.
      std::vector<int> path;
      int v = r;
      while (v >= 0 && depth[t][v] < 0) {
        path.push_back(v);
        v = parent[t][v];
      }
      int d = v < 0 ? -1 : depth[t][v];
      for (auto it = path.rbegin(); it != path.rend(); ++it) depth[t][*it] = ++d;
    }
  }
  std::vector<long long> keys;
  keys.reserve(k);
  for (int r = 0; r < k; ++r) {
    shape.depth = std::max(shape.depth, depth[0][r]);
    long long key = 0;
    for (int t = 0; t < 2; ++t)
      key = ((key * 64 + depth[t][r]) * 4 + children[t][r]) * 2 + (parent[t][r] >= 0 ? 1 : 0);
    keys.push_back(key);
  }
  heap_sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (long long key : keys) {
    DtreeClass c{};
    for (int t = 1; t >= 0; --t) {
      c.has_parent[t] = static_cast<int>(key % 2);
      key /= 2;
      c.children[t] = static_cast<int>(key % 4);
      key /= 4;
      c.depth[t] = static_cast<int>(key % 64);
      key /= 64;
    }
    shape.classes.push_back(c);
  }
  return shape;
}

CollectiveCost double_binary_tree_cost(int k, double D, const Link& link, int chunks) {
  const DtreeShape& shape = dtree_shape(k);
  const int L = shape.depth;
  auto active = [](int x, int c) { return x >= 0 && x < c; };
  auto cost_for = [&](int c) {
    const int steps = 2 * L + c - 1;
    const double chunk_bytes = D / (2.0 * c);
    // Chunks on the busiest directed port in step s.
    auto busiest_at = [&](int s) {
      int m = 0;
      for (const DtreeClass& v : shape.classes) {
        int up = 0, down = 0;
        for (int t = 0; t < 2; ++t) {
          const int d = v.depth[t];
          if (v.has_parent[t] && active(s - L + d, c)) ++up;          // reduce to the parent
          if (active(s - L + d + 1, c)) down += v.children[t];        // children reduce into it
          if (active(s - L - d, c)) up += v.children[t];               // copy down to children
          if (v.has_parent[t] && active(s - L - d + 1, c)) ++down;    // the parent's copy
        }
        m = std::max({m, up, down});
      }
      return m;
    };
    // The tests above look at chunk indices s - 2L .. s + 1, so in steps 2L .. c - 2 all of
    // them hold: the steady state is counted once rather than step by step.
    const int steady_lo = 2 * L, steady_hi = c - 2;
    double busiest_chunks = 0;  // summed over steps
    for (int s = 0; s < steps; ++s) {
      if (s > steady_lo && s <= steady_hi) {
        busiest_chunks += static_cast<double>(steady_hi - s + 1) * busiest_at(steady_lo);
        s = steady_hi;
        continue;
      }
      busiest_chunks += busiest_at(s);
    }
    double sent = 0;
    for (const DtreeClass& v : shape.classes)
      sent = std::max(sent, (v.has_parent[0] + v.children[0] + v.has_parent[1] + v.children[1]) * D / 2);
    CollectiveCost cost = make_cost("double_binary_tree", steps, link.alpha_s,
                                    busiest_chunks * chunk_bytes / link.beta_Bps, sent);
    cost.chunks = c;
    return cost;
  };
  if (chunks > 0) return cost_for(chunks);
  // In the steady state T(C) ~ (2L - 1 + C)(alpha + 2D/(C beta)), smallest near
  // C* = sqrt((2L-1) 2D / (alpha beta)); the exact minimum is searched around it.
  const double best = std::sqrt(std::max(1, 2 * L - 1) * 2.0 * D / n_half_bytes(link));
  const int guess = static_cast<int>(std::clamp(std::floor(best), 1.0, 4096.0));
  CollectiveCost choice = cost_for(guess);
  for (int c = std::max(1, guess - 3); c <= std::min(4096, guess + 4); ++c) {
    if (c == guess) continue;
    CollectiveCost other = cost_for(c);
    if (other.time_s < choice.time_s) choice = other;
  }
  return choice;
}

}  // namespace

CollectiveCost allreduce_cost(AllreduceAlgorithm algorithm, int k, double D, const Link& link,
                              int chunks) {
  const double a = link.alpha_s, b = link.beta_Bps;
  const std::string name = algorithm_name(algorithm);
  if (k <= 1) return make_cost(name, 0, a, 0, 0);
  const int p = 1 << floor_log2(k);  // largest power of two <= k
  const bool folded = p != k;        // MPICH fold: two extra full-buffer steps
  const int lg = floor_log2(p);
  switch (algorithm) {
    case AllreduceAlgorithm::ring:  // P5 §5.1: 2(k-1) alpha + 2(k-1)/k D / beta
      return make_cost(name, 2 * (k - 1), a, 2.0 * (k - 1) / k * D / b,
                       allreduce_lower_bound_bytes(k, D));
    case AllreduceAlgorithm::recursive_doubling: {  // P5 §5.2: log2 k (alpha + D/beta)
      const int steps = lg + (folded ? 2 : 0);
      return make_cost(name, steps, a, steps * D / b, (lg + (folded ? 1 : 0)) * D);
    }
    case AllreduceAlgorithm::rabenseifner: {  // P5 §5.2: 2 log2 k alpha + 2(k-1)/k D / beta
      const double core_bytes = allreduce_lower_bound_bytes(p, D);
      const int steps = 2 * lg + (folded ? 2 : 0);
      return make_cost(name, steps, a, core_bytes / b + (folded ? 2 * D / b : 0),
                       core_bytes + (folded ? D : 0));
    }
    case AllreduceAlgorithm::binary_tree: {  // P5 §11 ex. 3: 2 ceil(log2 k)(alpha + D/beta)
      // Realised as a binomial tree: one message per receiver per step, so each step is
      // exactly alpha + D/beta; the root sends D to ceil(log2 k) children on the way down.
      const int depth = ceil_log2(k);
      return make_cost(name, 2 * depth, a, 2 * depth * D / b, depth * D);
    }
    case AllreduceAlgorithm::double_binary_tree:
      return double_binary_tree_cost(k, D, link, chunks);
    case AllreduceAlgorithm::in_switch:  // P5 §5.4: send D to the switch once, receive once
      return make_cost(name, 2, a, D / b, D);
  }
  return make_cost(name, 0, a, 0, 0);
}

HierarchicalCost hierarchical_allreduce_cost(int N, int G, double D, const Link& intra,
                                             const Link& inter,
                                             AllreduceAlgorithm inter_algorithm) {
  HierarchicalCost h;
  // Ring reduce-scatter and all-gather in the node: (G-1)(alpha + D/(G beta)) each.
  const double rs_bytes = (G - 1.0) / G * D;
  h.intra_reduce_scatter =
      make_cost("ring_reduce_scatter", G - 1, intra.alpha_s, rs_bytes / intra.beta_Bps, rs_bytes);
  h.intra_allgather = h.intra_reduce_scatter;
  h.intra_allgather.algorithm = "ring_allgather";
  h.inter_allreduce = allreduce_cost(inter_algorithm, N, D / G, inter);
  h.total.algorithm = "hierarchical";
  for (const CollectiveCost* c : {&h.intra_reduce_scatter, &h.inter_allreduce, &h.intra_allgather}) {
    h.total.time_s += c->time_s;
    h.total.steps += c->steps;
    h.total.alpha_time_s += c->alpha_time_s;
    h.total.bytes_sent_per_device += c->bytes_sent_per_device;
  }
  return h;
}

AutoChoice allreduce_auto(int k, double D, const Link& link, bool in_switch_available) {
  AutoChoice choice{AllreduceAlgorithm::ring, {}, {}};
  bool first = true;
  for (AllreduceAlgorithm a : allreduce_algorithms()) {
    if (a == AllreduceAlgorithm::in_switch && !in_switch_available) continue;
    CollectiveCost c = allreduce_cost(a, k, D, link);
    choice.candidates.push_back(c);
    if (first || c.time_s < choice.cost.time_s) {
      choice.algorithm = a;
      choice.cost = c;
      first = false;
    }
  }
  return choice;
}

const std::vector<Collective>& collectives() {
  static const std::vector<Collective> all = {
      Collective::broadcast, Collective::reduce,   Collective::allreduce, Collective::reduce_scatter,
      Collective::allgather, Collective::alltoall, Collective::sendrecv};
  return all;
}

std::string collective_name(Collective c) {
  switch (c) {
    case Collective::broadcast: return "broadcast";
    case Collective::reduce: return "reduce";
    case Collective::allreduce: return "allreduce";
    case Collective::reduce_scatter: return "reduce_scatter";
    case Collective::allgather: return "allgather";
    case Collective::alltoall: return "alltoall";
    case Collective::sendrecv: return "sendrecv";
  }
  return "allreduce";
}

bool parse_collective(const std::string& name, Collective* out) {
  for (Collective c : collectives())
    if (collective_name(c) == name) {
      *out = c;
      return true;
    }
  return false;
}

std::vector<std::string> collective_algorithms(Collective c) {
  switch (c) {
    case Collective::broadcast: return {"binomial_tree", "scatter_allgather"};
    case Collective::reduce: return {"binomial_tree", "reduce_scatter_gather"};
    case Collective::allreduce: {
      std::vector<std::string> names;
      for (AllreduceAlgorithm a : allreduce_algorithms()) names.push_back(algorithm_name(a));
      return names;
    }
    case Collective::reduce_scatter:
    case Collective::allgather: return {"ring"};
    case Collective::alltoall: return {"pairwise", "direct"};
    case Collective::sendrecv: return {"direct"};
  }
  return {};
}

double collective_lower_bound_bytes(Collective c, int k, double D) {
  switch (c) {
    case Collective::allreduce: return allreduce_lower_bound_bytes(k, D);
    case Collective::sendrecv: return D;
    default: return (k - 1.0) / k * D;  // every device receives (k-1)/k D, so sends as much
  }
}

CollectiveCost collective_cost(Collective c, const std::string& algorithm, int k, double D,
                               const Link& link) {
  const double a = link.alpha_s, b = link.beta_Bps;
  const int lg = ceil_log2(k);
  const double share = (k - 1.0) / k * D;  // all but one's own block
  switch (c) {
    case Collective::allreduce: {
      AllreduceAlgorithm algo;
      if (!parse_allreduce_algorithm(algorithm, &algo)) break;
      return allreduce_cost(algo, k, D, link);
    }
    case Collective::broadcast:
      if (algorithm == "binomial_tree")  // the root's buffer doubles its holders every step
        return make_cost(algorithm, lg, a, lg * D / b, lg * D);
      if (algorithm == "scatter_allgather")  // van de Geijn: binomial scatter, ring all-gather
        return make_cost(algorithm, lg + k - 1, a, 2 * share / b, 2 * share);
      break;
    case Collective::reduce:
      if (algorithm == "binomial_tree") return make_cost(algorithm, lg, a, lg * D / b, D);
      if (algorithm == "reduce_scatter_gather") {  // ring reduce-scatter, binomial gather
        // In the gather a device sends once, all it holds: at most max(k - 2^(lg-1), 2^(lg-2))
        // blocks of D/k (schedule.cpp), on top of its (k-1) blocks of the reduce-scatter.
        const long long top = lg >= 1 ? 1LL << (lg - 1) : 1;
        const double gather_blocks = lg >= 1 ? std::max<double>(k - top, lg >= 2 ? top / 2 : 0) : 0;
        return make_cost(algorithm, k - 1 + lg, a, 2 * share / b, share + gather_blocks / k * D);
      }
      break;
    case Collective::reduce_scatter:
    case Collective::allgather:
      if (algorithm == "ring") return make_cost(algorithm, k - 1, a, share / b, share);
      break;
    case Collective::alltoall:
      if (algorithm == "pairwise") return make_cost(algorithm, k - 1, a, share / b, share);
      if (algorithm == "direct")  // all k-1 messages at once share the receiver's port
        return make_cost(algorithm, 1, a, share / b, share);
      break;
    case Collective::sendrecv:
      if (algorithm == "direct") return make_cost(algorithm, 1, a, D / b, D);
      break;
  }
  refuse("unknown_value", {"field 'algorithm': unknown algorithm '", algorithm, "' for ", collective_name(c)});
}

}  // namespace commlab

namespace commlab {

namespace {
// Grid sizes of cheapest_changes: `n` intervals, ends exact.
int grid_intervals(double from, double to, int per_decade) {
  return std::max(1, static_cast<int>(std::ceil(std::log10(to / from) * per_decade - 1e-9)));
}
// Bisection steps that take a bracket of ratio `ratio` within `rel_tol`.
int bisection_steps(double ratio, double rel_tol) {
  return std::max(1, static_cast<int>(std::ceil(std::log2(std::log(ratio) / std::log1p(rel_tol)))) + 1);
}
constexpr int kChangesPerCandidate = 4;  // a cap: concave costs change winner at most n - 1 times
}  // namespace

long long cheapest_changes_evaluations(int candidates, double from, double to, int per_decade) {
  const int n = grid_intervals(from, to, per_decade);
  const double ratio = std::pow(to / from, 1.0 / n);
  return n + 1 + static_cast<long long>(kChangesPerCandidate) * candidates * (bisection_steps(ratio, 1e-9) + 1);
}

CheapestMap cheapest_changes(int candidates, const std::function<double(int, double)>& cost,
                             double from, double to, double rel_tol, int per_decade) {
  CheapestMap map;
  auto winner = [&](double x) {
    ++map.evaluations;
    int best = 0;
    double best_t = cost(0, x);
    for (int i = 1; i < candidates; ++i) {
      const double t = cost(i, x);
      if (t < best_t) {
        best_t = t;
        best = i;
      }
    }
    return best;
  };
  const int n = grid_intervals(from, to, per_decade);
  const double ratio = std::pow(to / from, 1.0 / n);
  auto grid = [&](int j) { return j == n ? to : from * std::pow(ratio, j); };
  const int max_changes = kChangesPerCandidate * candidates;
  int w_lo = winner(from);
  map.bands.push_back({w_lo, from, to});
  for (int j = 0; j < n; ++j) {
    double lo = grid(j), hi = grid(j + 1);
    const int w_hi = winner(hi);
    int cur = w_lo;
    // Each pass finds where `cur` stops being cheapest; a bracket may hold several changes.
    while (cur != w_hi && static_cast<int>(map.changes.size()) < max_changes) {
      double b_lo = lo, b_hi = hi;
      while (b_hi / b_lo - 1 > rel_tol) {
        const double mid = std::sqrt(b_lo * b_hi);
        if (mid <= b_lo || mid >= b_hi) break;  // no double between them
        if (winner(mid) == cur) b_lo = mid;
        else b_hi = mid;
      }
      const int next = b_hi == hi ? w_hi : winner(b_hi);
      const double at = std::sqrt(b_lo * b_hi);
      map.changes.push_back({at, cur, next});
      map.bands.back().to_bytes = at;
      map.bands.push_back({next, at, to});
      cur = next;
      lo = b_hi;
    }
    w_lo = w_hi;
  }
  return map;
}

double allreduce_cost_work(AllreduceAlgorithm algorithm, int devices) {
  if (algorithm != AllreduceAlgorithm::double_binary_tree) return 1;
  // About 8 chunk counts, each walking ~4L + 4 pipeline steps over the devices' classes (a
  // few per depth: ~L).
  const double L = ceil_log2(std::max(2, devices));
  return 8 * (4 * L + 4) * (L + 1);
}

}  // namespace commlab
