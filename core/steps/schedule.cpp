#include "steps/schedule.hpp"

#include <algorithm>

#include "base/concat.hpp"
#include "base/error.hpp"

namespace commlab {

namespace {

/// Blocks [begin, end) of a buffer split into den equal blocks.
struct Span {
  int64_t begin = 0, end = 1, den = 1;
  int64_t len() const { return end - begin; }
  /// Parts [a, b) of this span split into m equal parts (den grows so the parts are exact).
  Span parts(int64_t a, int64_t b, int64_t m) const {
    return {begin * m + a * len(), begin * m + b * len(), den * m};
  }
  Span part(int64_t j, int64_t m) const { return parts(j, j + 1, m); }
};

/// Devices taking part (local rank -> device id) and the part of the buffer they work on.
/// Builders run several equal groups at once, in the same steps (hierarchical, P5 §5.5).
struct Group {
  std::vector<int> ranks;
  Span span;
};

class Emitter {
 public:
  Emitter(const StepSink& sink, double bytes) : sink_(sink), bytes_(bytes) {}
  void send(int src, int dst, MsgOp op, const Span& from, const Span& to, double bytes = -1) {
    Message m;
    m.src = src;
    m.dst = dst;
    m.op = op;
    m.src_begin = from.begin;
    m.dst_begin = to.begin;
    m.len = from.len();
    m.den = from.den;
    m.bytes = bytes >= 0 ? bytes : bytes_ * static_cast<double>(m.len) / static_cast<double>(m.den);
    step_.messages.push_back(m);
  }
  void send(int src, int dst, MsgOp op, const Span& s) { send(src, dst, op, s, s); }
  /// A step of known size allocates once (the memory estimate counts it once, not doubled).
  void reserve(size_t messages) { step_.messages.reserve(messages); }
  /// Steps emitted while set are named `outer`, with the builder's own name as their detail.
  void set_outer(const char* outer) { outer_ = outer; }
  void end_step(const char* phase, bool cut_through = false) {
    if (!step_.messages.empty()) {
      step_.phase = outer_ ? outer_ : phase;
      step_.detail = outer_ ? phase : "";
      step_.cut_through = cut_through;
      sink_(step_);
    }
    step_.messages.clear();
  }

 private:
  const StepSink& sink_;
  double bytes_;
  const char* outer_ = nullptr;
  Step step_;
};

int mod(long long a, long long m) { return static_cast<int>(((a % m) + m) % m); }

// P5 §5.1: in step s of the reduce-scatter, rank i adds block i-s-1 into rank i+1, so rank i
// ends holding block i summed over the ring.
void ring_reduce_scatter(const std::vector<Group>& groups, Emitter& e, const char* phase = "reduce-scatter") {
  const int g = static_cast<int>(groups.front().ranks.size());
  for (int s = 0; s + 1 < g; ++s) {
    for (const Group& gr : groups)
      for (int i = 0; i < g; ++i)
        e.send(gr.ranks[i], gr.ranks[(i + 1) % g], MsgOp::reduce, gr.span.part(mod(i - s - 1, g), g));
    e.end_step(phase);
  }
}

// All-gather: rank i starts with block i and forwards in step s the block i-s it got last.
void ring_allgather(const std::vector<Group>& groups, Emitter& e, const char* phase = "all-gather") {
  const int g = static_cast<int>(groups.front().ranks.size());
  for (int s = 0; s + 1 < g; ++s) {
    for (const Group& gr : groups)
      for (int i = 0; i < g; ++i)
        e.send(gr.ranks[i], gr.ranks[(i + 1) % g], MsgOp::copy, gr.span.part(mod(i - s, g), g));
    e.end_step(phase);
  }
}

// MPICH's fold for k not a power of two (Thakur et al. 2005): of the first 2r ranks, the even
// ones add their whole buffer into the odd ones and sit out; p = k - r ranks remain.
struct Fold {
  int p = 1, r = 0;
  explicit Fold(int g) {
    while (2 * p <= g) p *= 2;
    r = g - p;
  }
  int real(int newrank) const { return newrank < r ? 2 * newrank + 1 : newrank + r; }
};

void fold(const std::vector<Group>& groups, const Fold& f, Emitter& e) {
  for (const Group& gr : groups)
    for (int i = 0; i < 2 * f.r; i += 2) e.send(gr.ranks[i], gr.ranks[i + 1], MsgOp::reduce, gr.span);
  e.end_step("fold surplus ranks in");
}

void unfold(const std::vector<Group>& groups, const Fold& f, Emitter& e) {
  for (const Group& gr : groups)
    for (int i = 0; i < 2 * f.r; i += 2) e.send(gr.ranks[i + 1], gr.ranks[i], MsgOp::copy, gr.span);
  e.end_step("send result to surplus ranks");
}

// P5 §5.2: in step s every rank exchanges its whole buffer with the rank differing in bit s.
void recursive_doubling(const std::vector<Group>& groups, Emitter& e) {
  const Fold f(static_cast<int>(groups.front().ranks.size()));
  fold(groups, f, e);
  for (int mask = 1; mask < f.p; mask <<= 1) {
    for (const Group& gr : groups)
      for (int nr = 0; nr < f.p; ++nr)
        e.send(gr.ranks[f.real(nr)], gr.ranks[f.real(nr ^ mask)], MsgOp::reduce, gr.span);
    e.end_step("recursive doubling");
  }
  unfold(groups, f, e);
}

// P5 §5.2: recursive halving (partner at distance p/2 first, each sends the half the partner
// keeps) leaves rank nr with block nr; recursive doubling gathers the blocks back.
void rabenseifner(const std::vector<Group>& groups, Emitter& e) {
  const Fold f(static_cast<int>(groups.front().ranks.size()));
  const int p = f.p;
  fold(groups, f, e);
  for (int mask = p / 2; mask >= 1; mask /= 2) {
    for (const Group& gr : groups)
      for (int nr = 0; nr < p; ++nr) {
        const int lo = nr & ~(2 * mask - 1);
        const int send_lo = (nr & mask) ? lo : lo + mask;
        e.send(gr.ranks[f.real(nr)], gr.ranks[f.real(nr ^ mask)], MsgOp::reduce,
               gr.span.parts(send_lo, send_lo + mask, p));
      }
    e.end_step("reduce-scatter (recursive halving)");
  }
  for (int mask = 1; mask < p; mask *= 2) {
    for (const Group& gr : groups)
      for (int nr = 0; nr < p; ++nr) {
        const int lo = nr & ~(mask - 1);
        e.send(gr.ranks[f.real(nr)], gr.ranks[f.real(nr ^ mask)], MsgOp::copy,
               gr.span.parts(lo, lo + mask, p));
      }
    e.end_step("all-gather (recursive doubling)");
  }
  unfold(groups, f, e);
}

// Binomial tree rooted at virtual rank 0 (real rank = ranks[v]): one message per receiver
// per step, so each step costs alpha + D/beta (P5 §11 ex. 3).
void binomial_reduce(const std::vector<Group>& groups, Emitter& e) {
  const int g = static_cast<int>(groups.front().ranks.size());
  for (int m = 1; m < g; m *= 2) {
    for (const Group& gr : groups)
      for (int v = m; v < g; v += 2 * m) e.send(gr.ranks[v], gr.ranks[v - m], MsgOp::reduce, gr.span);
    e.end_step("reduce up the tree");
  }
}

void binomial_broadcast(const std::vector<Group>& groups, Emitter& e) {
  const int g = static_cast<int>(groups.front().ranks.size());
  int top = 1;
  while (top < g) top *= 2;
  for (int m = top / 2; m >= 1; m /= 2) {
    for (const Group& gr : groups)
      for (int v = 0; v + m < g; v += 2 * m) e.send(gr.ranks[v], gr.ranks[v + m], MsgOp::copy, gr.span);
    e.end_step("broadcast down the tree");
  }
}

// See double_binary_tree_cost in collectives.cpp for the timing this schedule realises.
void double_binary_tree(const std::vector<Group>& groups, int chunks, Emitter& e) {
  const int g = static_cast<int>(groups.front().ranks.size());
  if (g < 2) return;
  std::vector<int> parent[2], depth[2];
  int L = 0;
  for (int t = 0; t < 2; ++t) {
    parent[t].resize(g);
    depth[t].assign(g, 0);
    for (int v = 0; v < g; ++v) parent[t][v] = dtree_parent(g, v, t);
    for (int v = 0; v < g; ++v) {
      int d = 0;
      for (int u = v; parent[t][u] >= 0; u = parent[t][u]) ++d;
      depth[t][v] = d;
      if (t == 0) L = std::max(L, d);
    }
  }
  const int C = chunks;
  for (int s = 0; s < 2 * L + C - 1; ++s) {
    for (const Group& gr : groups)
      for (int t = 0; t < 2; ++t)
        for (int v = 0; v < g; ++v) {
          const int u = parent[t][v];
          if (u < 0) continue;
          const int up = s - L + depth[t][v];        // v adds chunk `up` into its parent
          if (up >= 0 && up < C)
            e.send(gr.ranks[v], gr.ranks[u], MsgOp::reduce, gr.span.part(t * C + up, 2 * C));
          const int down = s - L - depth[t][u];      // the parent copies chunk `down` to v
          if (down >= 0 && down < C)
            e.send(gr.ranks[u], gr.ranks[v], MsgOp::copy, gr.span.part(t * C + down, 2 * C));
        }
    e.end_step("double binary tree (up and down, pipelined)");
  }
}

void flat_allreduce(AllreduceAlgorithm a, const std::vector<Group>& groups, int chunks, int sw,
                    Emitter& e) {
  switch (a) {
    case AllreduceAlgorithm::ring:
      ring_reduce_scatter(groups, e);
      ring_allgather(groups, e);
      return;
    case AllreduceAlgorithm::recursive_doubling: return recursive_doubling(groups, e);
    case AllreduceAlgorithm::rabenseifner: return rabenseifner(groups, e);
    case AllreduceAlgorithm::binary_tree:
      binomial_reduce(groups, e);
      binomial_broadcast(groups, e);
      return;
    case AllreduceAlgorithm::double_binary_tree: return double_binary_tree(groups, chunks, e);
    case AllreduceAlgorithm::in_switch:
      // P5 §5.4: every device adds its buffer into the switch (node `sw`) once; the sum leaves
      // through the switch's downlinks, cut-through, while the uplinks are still busy.
      for (const Group& gr : groups)
        for (int r : gr.ranks) e.send(r, sw, MsgOp::reduce, gr.span);
      e.end_step("reduce in the switch");
      for (const Group& gr : groups)
        for (int r : gr.ranks) e.send(sw, r, MsgOp::copy, gr.span);
      e.end_step("multicast from the switch", true);
      return;
  }
}

Group whole(int k, int root = 0) {
  Group g;
  g.ranks.resize(k);
  for (int v = 0; v < k; ++v) g.ranks[v] = (v + root) % k;  // virtual rank v -> device
  return g;
}

COMMLAB_RARE void bad_algorithm(const ScheduleSpec& spec) {
  std::string list;
  for (const std::string& a : schedule_algorithms(spec.collective)) list += (list.empty() ? "" : ", ") + a;
  refuse("unknown_value", {"field 'algorithm': unknown value \"", spec.algorithm, "\" for ",
                           collective_name(spec.collective), "; allowed: one of ", list});
}

}  // namespace

std::vector<std::string> schedule_algorithms(Collective c) {
  std::vector<std::string> names = collective_algorithms(c);
  if (c == Collective::allreduce) names.push_back("hierarchical");
  return names;
}

void build_schedule(const ScheduleSpec& spec, const StepSink& sink) {
  const int k = spec.devices;
  Emitter e(sink, spec.bytes);
  const std::string& a = spec.algorithm;
  switch (spec.collective) {
    case Collective::allreduce: {
      if (a == "hierarchical") {
        // P5 §5.5: reduce-scatter in each node, all-reduce of block g across the nodes among
        // the GPUs of local rank g (G NICs at once), all-gather in each node.
        const int G = spec.gpus_per_node, N = k / G;
        std::vector<Group> nodes(N), rails(G);
        for (int n = 0; n < N; ++n)
          for (int g = 0; g < G; ++g) {
            nodes[n].ranks.push_back(n * G + g);
            rails[g].ranks.push_back(n * G + g);
          }
        for (int g = 0; g < G; ++g) rails[g].span = Span{}.part(g, G);
        ring_reduce_scatter(nodes, e, "intra-node reduce-scatter");
        e.set_outer("inter-node all-reduce");  // among the GPUs of one local rank
        flat_allreduce(spec.inter_algorithm, rails, spec.chunks, k, e);
        e.set_outer(nullptr);
        ring_allgather(nodes, e, "intra-node all-gather");
        return;
      }
      AllreduceAlgorithm algo;
      if (!parse_allreduce_algorithm(a, &algo)) bad_algorithm(spec);
      flat_allreduce(algo, {whole(k)}, spec.chunks, k, e);
      return;
    }
    case Collective::broadcast: {
      const std::vector<Group> g = {whole(k, spec.root)};
      if (a == "binomial_tree") return binomial_broadcast(g, e);
      if (a == "scatter_allgather") {
        // van de Geijn: a binomial scatter leaves virtual rank v with block v, a ring gathers.
        int top = 1;
        while (top < k) top *= 2;
        for (int m = top / 2; m >= 1; m /= 2) {
          for (int v = 0; v + m < k; v += 2 * m)
            e.send(g[0].ranks[v], g[0].ranks[v + m], MsgOp::copy,
                   g[0].span.parts(v + m, std::min(v + 2 * m, k), k));
          e.end_step("scatter");
        }
        return ring_allgather(g, e);
      }
      break;
    }
    case Collective::reduce: {
      const std::vector<Group> g = {whole(k, spec.root)};
      if (a == "binomial_tree") return binomial_reduce(g, e);
      if (a == "reduce_scatter_gather") {
        // Ring reduce-scatter, then a binomial gather of the summed blocks to the root.
        ring_reduce_scatter(g, e);
        for (int m = 1; m < k; m *= 2) {
          for (int v = m; v < k; v += 2 * m)
            e.send(g[0].ranks[v], g[0].ranks[v - m], MsgOp::copy,
                   g[0].span.parts(v, std::min(v + m, k), k));
          e.end_step("gather");
        }
        return;
      }
      break;
    }
    case Collective::reduce_scatter:
      if (a == "ring") return ring_reduce_scatter({whole(k)}, e);
      break;
    case Collective::allgather:
      if (a == "ring") return ring_allgather({whole(k)}, e);
      break;
    case Collective::alltoall: {
      // Block j of device i goes to block i of device j (P5 §4.3).
      const Span all;
      const bool uneven = !spec.pair_bytes.empty();
      auto pair = [&](int i, int j) {
        if (!uneven) return e.send(i, j, MsgOp::copy, all.part(j, k), all.part(i, k));
        const double b = spec.pair_bytes[static_cast<size_t>(i) * k + j];
        if (b > 0) e.send(i, j, MsgOp::copy, all.part(j, k), all.part(i, k), b);
      };
      if (a == "pairwise") {
        for (int s = 1; s < k; ++s) {
          for (int i = 0; i < k; ++i) {
            const int j = (i + s) % k;
            pair(i, j);
          }
          e.end_step("pairwise exchange");
        }
        return;
      }
      if (a == "direct") {
        e.reserve(static_cast<size_t>(k) * (k - 1));
        for (int i = 0; i < k; ++i)
          for (int j = 0; j < k; ++j)
            if (i != j) pair(i, j);
        e.end_step("all at once");
        return;
      }
      break;
    }
    case Collective::sendrecv:
      if (a == "direct") {
        e.send(spec.root, spec.peer, MsgOp::copy, Span{});
        e.end_step("send / recv");
        return;
      }
      break;
  }
  bad_algorithm(spec);
}

double schedule_message_bound(const ScheduleSpec& spec) {
  const double k = spec.devices;
  const double lg = ceil_log2(spec.devices);
  const double all_pairs = k * (k - 1);
  const std::string& a = spec.algorithm;
  switch (spec.collective) {
    case Collective::allreduce: {
      if (a == "hierarchical") {
        const double G = spec.gpus_per_node, N = k / G;
        ScheduleSpec inter = spec;
        inter.devices = static_cast<int>(N);
        inter.algorithm = algorithm_name(spec.inter_algorithm);
        return 2 * N * G * (G - 1) + G * schedule_message_bound(inter);
      }
      if (a == "ring") return 2 * all_pairs;
      if (a == "recursive_doubling" || a == "rabenseifner") return (2 * lg + 2) * k;
      if (a == "double_binary_tree") return 4 * k * std::max(1, spec.chunks);
      return 2 * k;
    }
    case Collective::broadcast:
    case Collective::reduce: return k + all_pairs;
    case Collective::reduce_scatter:
    case Collective::allgather:
    case Collective::alltoall: return all_pairs;
    case Collective::sendrecv: return 1;
  }
  return all_pairs;
}

}  // namespace commlab
