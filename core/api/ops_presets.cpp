// Presets by id, any field overridden: "model": "llama3_70b" or {"id": "llama3_70b", "layers": 40};
// the presets op, model.match, and the preset fields the ops of P5 §1-7 read and answer with.
#include <algorithm>

#include "api/ops.hpp"
#include "base/concat.hpp"
#include "base/json_writer.hpp"
#include "model/links.hpp"
#include "model/presets.hpp"
#include "parallel/parallel.hpp"

namespace commlab {

namespace {

template <class T>
std::vector<std::string> ids_of(const std::vector<T>& list) {
  std::vector<std::string> ids;
  for (const T& x : list) ids.push_back(x.id);
  return ids;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// A preset field: its id as a string, or an object {"id", overrides...}. `apply` reads the
// overrides from the nested Request.
template <class T, class Apply>
T read_preset(Request& r, const std::string& field, const std::string& fallback,
              const std::vector<T>& list, const char* kind, Apply apply) {
  const std::vector<std::string> ids = ids_of(list);
  auto find = [&](const std::string& id) {
    for (const T& x : list)
      if (x.id == id) return x;
    return list.front();
  };
  if (!r.has(field)) return find(r.name_or(field, fallback, ids));
  const json& v = r.raw(field);
  if (v.is_string()) return find(r.name(field, ids));
  if (!v.is_object())
    refuse("invalid_type", {"field '", r.path(field), "': value ", show_value(v), " is not allowed; allowed: a ", kind,
                            " id (", joined(ids), ") or an object {\"id\", field overrides}"});
  Request o(v, r.path(field) + ".");
  T x = find(o.name_or("id", fallback, ids));
  apply(o, x);
  o.finish();
  return x;
}

void write_node(JsonWriter& w, const NodePreset& n) {
  w.begin_object();
  w.member("id", n.id).member("label", n.label).member("gpu", n.gpu).member("gpus", n.gpus)
      .member("intra_link", n.intra_link).member("nic_link", n.nic_link).member("nics", n.nics);
  w.end_object();
}

}  // namespace

ModelPreset read_model(Request& r, const std::string& fallback) {
  return read_preset(r, "model", fallback, model_presets(), "model", [](Request& o, ModelPreset& m) {
    m.layers = o.integer_or("layers", m.layers, 1, 100000);
    m.hidden = o.integer_or("hidden", m.hidden, 1, 1 << 24);
    m.q_heads = o.integer_or("q_heads", m.q_heads, 1, 1 << 16);
    m.kv_heads = o.integer_or("kv_heads", m.kv_heads, 1, 1 << 16);
    m.head_dim = o.integer_or("head_dim", m.head_dim, 1, 1 << 16);
    m.ffn = o.integer_or("ffn", m.ffn, 1, 1 << 24);
    m.experts = o.integer_or("experts", m.experts, 0, 1 << 16);
    m.top_k = o.integer_or("top_k", m.top_k, 0, 1 << 16);
    m.weight_bytes = o.bytes_or("weight_bytes", m.weight_bytes);
    m.bytes_per_param = o.number_or("bytes_per_param", m.bytes_per_param, Range{0, 16, true, "bytes"});
    m.activation_bytes = o.number_or("activation_bytes", m.activation_bytes, Range{0, 16, true, "bytes"});
    m.dense_layers = o.integer_or("dense_layers", std::min(m.dense_layers, m.layers - 1), 0, m.layers - 1);
    m.kv_latent = o.integer_or("kv_latent", m.kv_latent, 0, 1 << 20);
    if (m.top_k > m.experts)
      refuse("invalid_value", {"field '", o.path("top_k"), "': value ", std::to_string(m.top_k),
                               " is not allowed; allowed: at most experts (", std::to_string(m.experts), ")"});
  });
}

GpuPreset read_gpu(Request& r, const std::string& fallback) {
  return read_preset(r, "gpu", fallback, gpu_presets(), "GPU", [](Request& o, GpuPreset& g) {
    g.hbm_bytes = o.bytes_or("hbm_bytes", g.hbm_bytes);
    g.hbm_Bps = o.number_or("hbm_Bps", g.hbm_Bps, Range{1e6, 1e15, false, "bytes per second"});
    g.flops = o.number_or("flops", g.flops, Range{1e6, 1e18, false, "FLOP/s"});
    if (o.has("nvlink")) {
      g.nvlink = o.name("nvlink", ids_of(link_catalogue()));
    }
  });
}

NodePreset read_node(Request& r, const std::string& fallback) {
  return read_preset(r, "node", fallback, node_presets(), "node", [](Request& o, NodePreset& n) {
    const std::vector<std::string> links = ids_of(link_catalogue());
    n.gpu = o.name_or("gpu", n.gpu, ids_of(gpu_presets()));
    n.gpus = o.integer_or("gpus", n.gpus, 1, 1 << 16);
    n.intra_link = o.name_or("intra_link", n.intra_link, links);
    n.nic_link = o.name_or("nic_link", n.nic_link, links);
    n.nics = o.integer_or("nics", n.nics, 1, 1 << 16);
  });
}

// Rates, efficiencies and bandwidths have a floor (1%, 1 MFLOP/s, 1 MB/s): near zero they make
// times infinite, and the answer must name the field rather than print null.
double read_mfu(Request& r) { return r.number_or("mfu", kDefaultMfu, Range{0.01, 1, false, ""}); }

void write_model(JsonWriter& w, const ModelPreset& m) {
  w.begin_object();
  w.member("id", m.id).member("label", m.label).member("layers", m.layers).member("hidden", m.hidden)
      .member("q_heads", m.q_heads).member("kv_heads", m.kv_heads).member("head_dim", m.head_dim)
      .member("ffn", m.ffn).member("experts", m.experts).member("top_k", m.top_k)
      .member("weight_bytes", m.weight_bytes).member("bytes_per_param", m.bytes_per_param)
      .member("activation_bytes", m.activation_bytes).member("dense_layers", m.dense_layers)
      .member("moe_layers", moe_layers(m)).member("kv_latent", m.kv_latent).member("kv_bytes_per_token", kv_bytes_per_token(m))
      .member("active_params_per_layer", active_params_per_layer(m));
  w.end_object();
}

void write_gpu(JsonWriter& w, const GpuPreset& g) {
  w.begin_object();
  w.member("id", g.id).member("label", g.label).member("hbm_bytes", g.hbm_bytes).member("hbm_Bps", g.hbm_Bps)
      .member("flops", g.flops).member("nvlink", g.nvlink);
  w.end_object();
}

void op_presets(Request& r, JsonWriter& w) {
  r.finish();
  w.key("models");
  w.begin_array();
  for (const ModelPreset& m : model_presets()) write_model(w, m);
  w.end_array();
  w.key("gpus");
  w.begin_array();
  for (const GpuPreset& g : gpu_presets()) write_gpu(w, g);
  w.end_array();
  w.key("nodes");
  w.begin_array();
  for (const NodePreset& n : node_presets()) write_node(w, n);
  w.end_array();
  // Where each preset's figures come from, by id (the calculators' answers carry the figures only).
  w.key("sources");
  w.begin_object();
  for (const ModelPreset& m : model_presets()) w.member(m.id, m.source);
  for (const GpuPreset& g : gpu_presets()) w.member(g.id, g.source);
  for (const NodePreset& n : node_presets()) w.member(n.id, n.source);
  w.end_object();
  w.member("mfu", kDefaultMfu).member("efficiency", kDefaultEfficiency);
}

// A statement names a model only when the params are its shape (exercises/README.md "Variants"), as link.match
// names a link; exercises written as data ask this. Mixtral-8x7B has Llama-3-8B's layers and
// hidden size, so experts (0: dense) is part of the shape.
void op_model_match(Request& r, JsonWriter& w) {
  const int layers = r.integer("layers", 1, 100000);
  const int hidden = r.integer("hidden", 1, 1 << 24);
  const int experts = r.integer_or("experts", 0, 0, 1 << 16);
  const double bytes = r.number_or("bytes_per_value", 0, Range{0, 16, true, "bytes"});
  r.finish();
  const ModelPreset* m = match_model(layers, hidden, experts);
  // No null in an answer (README "Errors"): no match is said by "matched" and empty names.
  w.member("matched", m != nullptr).member("id", m ? m->id : "").member("label", m ? m->label : "")
      .member("precision", value_format_name(bytes));
}

}  // namespace commlab
