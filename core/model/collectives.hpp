// Closed-form costs of the collectives (P5 §4) and the all-reduce algorithms (P5 §5),
// in the alpha-beta model. The step engine (schedule.hpp) checks these by executing them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "model/links.hpp"

namespace commlab {

/// Cost of one collective call on k devices.
struct CollectiveCost {
  std::string algorithm;
  double time_s = 0;
  int steps = 0;                      // rounds of messages, each paying one alpha
  double bytes_sent_per_device = 0;   // the busiest device
  double alpha_time_s = 0;            // the latency part of time_s
  int chunks = 1;                     // pipeline chunks (double binary tree)
};

enum class AllreduceAlgorithm {
  ring,
  recursive_doubling,
  rabenseifner,
  binary_tree,
  double_binary_tree,
  in_switch,
};

/// Request names of the flat algorithms, in the lecture's order.
const std::vector<AllreduceAlgorithm>& allreduce_algorithms();
std::string algorithm_name(AllreduceAlgorithm a);
/// Parses a request name; false when unknown.
bool parse_allreduce_algorithm(const std::string& name, AllreduceAlgorithm* out);

/// floor(log2 k) and ceil(log2 k) for k >= 1, exact on integers.
int floor_log2(long long k);
int ceil_log2(long long k);

/// Every device must send at least 2(k-1)/k D bytes in an all-reduce (P5 §4.2).
double allreduce_lower_bound_bytes(int devices, double bytes);

/// NCCL's double binary tree (P5 §5.2): tree 0 is NCCL's btree (root 0 with one child, then a
/// binary tree on the bits of the rank); tree 1 mirrors it (rank r -> k-1-r) for even k and
/// shifts it (r -> r+1) for odd k, so a device inside one tree is a leaf of the other.
/// Parent of `rank` in tree t (0 or 1), -1 for the root.
int dtree_parent(int devices, int rank, int tree);

/// Flat all-reduce of D bytes on k devices over one link type (P5 §5.1-5.4).
/// Non-powers of two: recursive doubling and Rabenseifner fold the k - 2^floor(log2 k)
/// surplus ranks into partners first and hand them the result last (MPICH, Thakur et al.
/// 2005): two extra steps of alpha + D/beta.
/// `chunks` (double binary tree only): 0 picks the count that minimises time.
CollectiveCost allreduce_cost(AllreduceAlgorithm algorithm, int devices, double bytes,
                              const Link& link, int chunks = 0);

/// Hierarchical all-reduce on N nodes x G GPUs (P5 §5.5): reduce-scatter in the node,
/// all-reduce of D/G across nodes between GPUs of the same local rank, all-gather in the node.
struct HierarchicalCost {
  CollectiveCost total;
  CollectiveCost intra_reduce_scatter, inter_allreduce, intra_allgather;
};
HierarchicalCost hierarchical_allreduce_cost(int nodes, int gpus_per_node, double bytes,
                                             const Link& intra, const Link& inter,
                                             AllreduceAlgorithm inter_algorithm =
                                                 AllreduceAlgorithm::ring);

/// The cheapest flat algorithm for a size, device count and link (P5 §5.3). In-switch
/// reduction only competes when the switch can reduce.
struct AutoChoice {
  AllreduceAlgorithm algorithm;
  CollectiveCost cost;
  std::vector<CollectiveCost> candidates;
};
AutoChoice allreduce_auto(int devices, double bytes, const Link& link, bool in_switch_available);

/// The six operations and point-to-point (P5 §4.1). `bytes` is each device's buffer: the input
/// of broadcast / reduce / all-reduce / reduce-scatter / all-to-all, the output of all-gather.
enum class Collective { broadcast, reduce, allreduce, reduce_scatter, allgather, alltoall, sendrecv };
const std::vector<Collective>& collectives();
std::string collective_name(Collective c);
bool parse_collective(const std::string& name, Collective* out);
/// Valid algorithm names for a collective, the default first.
std::vector<std::string> collective_algorithms(Collective c);
/// Bytes a device must send on average, whatever the algorithm.
double collective_lower_bound_bytes(Collective c, int devices, double bytes);
/// Cost of a collective by algorithm name (one of collective_algorithms(c)).
CollectiveCost collective_cost(Collective c, const std::string& algorithm, int devices,
                               double bytes, const Link& link);

/// Where the cheapest of several candidates changes over a byte range (P5 §5.3, §5.6: the
/// crossover sizes). `cost(i, bytes)` is candidate i's time; the cheapest is the lowest, a tie
/// going to the lower index (as `allreduce_auto` and exercise 3 break ties).
struct CheapestChange {
  double bytes;  // the geometric middle of the final bracket
  int from, to;  // candidate indices: cheapest just below and just above `bytes`
};
struct CheapestBand {
  int winner;
  double from_bytes, to_bytes;
};
struct CheapestMap {
  std::vector<CheapestChange> changes;
  std::vector<CheapestBand> bands;
  int evaluations = 0;  // sizes at which every candidate was costed
};
/// Brackets each change on a grid of `per_decade` sizes a decade and bisects it (in log size)
/// until the bracket's ends are within `rel_tol` of each other. A change between two grid sizes
/// with the same winner cannot be missed when, for each pair, one time minus the other changes
/// sign at most once between grid sizes: true of the alpha-beta lines and of their lower
/// envelopes (the double binary tree's best chunk count), which are concave in the size.
CheapestMap cheapest_changes(int candidates, const std::function<double(int, double)>& cost,
                             double from_bytes, double to_bytes, double rel_tol = 1e-9,
                             int per_decade = 16);
/// Cost evaluations `cheapest_changes` may make at most, for its work budget.
long long cheapest_changes_evaluations(int candidates, double from_bytes, double to_bytes,
                                       int per_decade = 16);
/// Relative work of one `allreduce_cost` call, for budgets (the double binary tree walks its
/// pipeline for several chunk counts; the others are a formula).
double allreduce_cost_work(AllreduceAlgorithm algorithm, int devices);

}  // namespace commlab
