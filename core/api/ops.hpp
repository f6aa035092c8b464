// Op handlers of the request API, one per op name; api.cpp holds the table that routes to them.
// A handler reads every field through Request (which rejects unknown fields on finish()).
#pragma once
#include <nlohmann/json.hpp>

#include "base/request.hpp"

namespace commlab {

class JsonWriter;
struct ModelPreset;
struct GpuPreset;
struct NodePreset;
enum class AllreduceAlgorithm;
using OpHandler = json (*)(Request&);
/// An op that writes its answer's members (no tree to build for a text answer; api.cpp).
using OpWriter = void (*)(Request&, JsonWriter&);

struct OpInfo {
  const char* name;
  OpHandler handler;  // answers with a tree, or null when `writer` writes the answer
  const char* summary;
  OpWriter writer = nullptr;
};

/// Every op, in the order `{"op":"ops"}` lists them: the built-in ones, then the added ones.
const std::vector<OpInfo>& op_table();
/// Adds an op from a layer above the api (the native CLI's demo tables); a name already known
/// is left as it is.
void add_op(const OpInfo& info);

// ops_cost.cpp: links, the alpha-beta model, collectives, all-reduce algorithms, NCCL.
void op_links(Request& r, JsonWriter& w);
void op_transfer(Request& r, JsonWriter& w);
void op_allreduce(Request& r, JsonWriter& w);
void op_collective(Request& r, JsonWriter& w);
void op_nccl(Request& r, JsonWriter& w);
void op_nccl_protocols(Request& r, JsonWriter& w);
void op_crossover(Request& r, JsonWriter& w);
/// The all-reduce algorithms' names: the flat ones, or with "hierarchical" and "auto".
const std::vector<std::string>& allreduce_names(bool with_extra);
// ops_simulate.cpp: the collective-step engine (schedule, executor, topology).
void op_simulate(Request& r, JsonWriter& w);
// ops_presets.cpp: models, GPUs and nodes, each by id with any field overridden (§1-2).
void op_presets(Request& r, JsonWriter& w);
void op_model_match(Request& r, JsonWriter& w);
/// A preset field ("model", "gpu", "node"): an id, or {"id", field overrides}; `fallback`'s
/// preset when the field is absent.
ModelPreset read_model(Request& r, const std::string& fallback);
GpuPreset read_gpu(Request& r, const std::string& fallback);
NodePreset read_node(Request& r, const std::string& fallback);
/// "mfu", at least 1%.
double read_mfu(Request& r);
/// A preset as an answer's object (a model with its KV bytes a token and active params a layer).
void write_model(JsonWriter& w, const ModelPreset& m);
void write_gpu(JsonWriter& w, const GpuPreset& g);
// ops_parallel.cpp: tensor, sequence, expert and context parallelism (P5 §6).
void op_tp(Request& r, JsonWriter& w);
void op_sharding_check(Request& r, JsonWriter& w);
void op_moe(Request& r, JsonWriter& w);
void op_parallelisms(Request& r, JsonWriter& w);
void op_ring_attention(Request& r, JsonWriter& w);
void op_ring_attention_check(Request& r, JsonWriter& w);
/// "algorithm": a flat all-reduce algorithm (§5), ring when absent.
AllreduceAlgorithm read_algorithm(Request& r);
// ops_memory.cpp, P5 §1, §6.1: fits or not, GPUs needed, KV room, decode lower bound, replicas.
void op_memory(Request& r, JsonWriter& w);
// ops_overlap.cpp: pipelines and overlap as timelines (P5 §6.3, §7).
void op_pipeline(Request& r, JsonWriter& w);
void op_overlap(Request& r, JsonWriter& w);
void op_kv_transfer(Request& r, JsonWriter& w);
// ops_gpudirect.cpp: one message between nodes through host memory or by GPUDirect RDMA (§2.4).
void op_gpudirect(Request& r, JsonWriter& w);
// ops_ladder.cpp: the bandwidth ladder of P5 §2.1 with its ratios (links and a node preset).
void op_ladder(Request& r, JsonWriter& w);
// ops_exercise.cpp: the exercises of P5 §11 (list, get, solve, check, variant).
json op_exercise_list(Request& r);
json op_exercise_get(Request& r);
json op_exercise_solve(Request& r);
json op_exercise_check(Request& r);
json op_exercise_variant(Request& r);
json op_exercise_load(Request& r);
json op_exercise_install(Request& r);
json op_exercise_lint(Request& r);
void op_link_match(Request& r, JsonWriter& w);
// ops_fit.cpp: nccl-tests logs fitted to the ring model (core/README.md "Measured against the model").
void op_fit(Request& r, JsonWriter& w);
// ops_topology.cpp: NCCL's rings, trees and transports read from its INFO lines, and the model on them.
void op_nccl_topology(Request& r, JsonWriter& w);

/// A collective cost, shared by the ops that report one: its members in an object the caller
/// opens, or an object of its own.
void write_cost_members(JsonWriter& w, const struct CollectiveCost& c);
void write_cost(JsonWriter& w, const CollectiveCost& c);
/// A link's {alpha_s, beta_Bps, id} as member `key`.
void write_link(JsonWriter& w, const char* key, const struct Link& l);

}  // namespace commlab
