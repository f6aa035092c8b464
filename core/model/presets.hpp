// Presets as data (P5 §1, §2): models, GPUs and nodes the lecture's examples use.
// Every field can be overridden in a request (see ops that take "model", "gpu").
#pragma once
#include <string>
#include <vector>

namespace commlab {

struct ModelPreset {
  std::string id, label;
  int layers;
  int hidden;
  int q_heads, kv_heads, head_dim;
  int ffn;                  // intermediate size of the (expert) MLP
  int experts = 0;          // routed experts per MoE layer, 0 for dense
  int top_k = 0;
  double weight_bytes;      // all weights, at bytes_per_param
  double bytes_per_param;   // 2 for BF16, 1 for FP8
  double activation_bytes = 2;  // BF16 activations
  int dense_layers = 0;     // leading layers of a MoE model with a dense MLP (no all-to-all)
  int kv_latent = 0;        // MLA: values cached a token a layer (latent + RoPE key); 0: K and V per KV head
  const char* source = "";  // the published figures the fields come from
};

struct GpuPreset {
  std::string id, label;
  double hbm_bytes;
  double hbm_Bps;         // nominal
  double flops;           // dense BF16 FLOP/s, nominal
  std::string nvlink;     // link id
  const char* source = "";
};

struct NodePreset {
  std::string id, label;
  std::string gpu;
  int gpus;
  std::string intra_link;  // per GPU
  std::string nic_link;    // per NIC
  int nics;
  const char* source = "";
};

const std::vector<ModelPreset>& model_presets();
const std::vector<GpuPreset>& gpu_presets();
const std::vector<NodePreset>& node_presets();
const ModelPreset* find_model(const std::string& id);
const GpuPreset* find_gpu(const std::string& id);
const NodePreset* find_node(const std::string& id);

/// KV cache bytes a token in one layer: K and V of every KV head (Llama-3-70B: 4,096 B), or
/// MLA's compressed latent and RoPE key where the model caches that instead (DeepSeek-V3: 1,152 B).
inline double kv_bytes_per_token_layer(const ModelPreset& m) {
  return m.kv_latent > 0 ? m.kv_latent * m.activation_bytes : 2.0 * m.kv_heads * m.head_dim * m.activation_bytes;
}

/// KV cache bytes per token, every layer (P5 §11 ex. 8: 327,680 B).
inline double kv_bytes_per_token(const ModelPreset& m) { return m.layers * kv_bytes_per_token_layer(m); }

/// Layers whose MLP is routed to experts (each has a dispatch and a combine all-to-all, P5 §6.4).
inline int moe_layers(const ModelPreset& m) { return m.experts > 0 ? m.layers - m.dense_layers : 0; }

/// The name of a number format by its bytes a value, as the lecture writes it: 1 "FP8",
/// 2 "BF16" (its activations and weights), 4 "FP32"; "" for any other size.
const char* value_format_name(double bytes_per_value);

/// The first model preset of this shape (layers, hidden size, routed experts: 0 for a dense
/// model), or nullptr: a statement names a model only when its figures are that model's.
const ModelPreset* match_model(int layers, int hidden, int experts);

/// The lecture's compute efficiency: 70% of peak FLOP/s (gives §7.2's 1.32 ms a layer and
/// §6.5's 240 / 2,163-token thresholds).
constexpr double kDefaultMfu = 0.7;

}  // namespace commlab
