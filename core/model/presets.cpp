#include "model/presets.hpp"

#include "base/units.hpp"

namespace commlab {

using namespace units;

const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> models = {
      // P5 §1: BF16 weights 141 GB; 64 query / 8 KV heads of 128 (§6.5).
      {"llama3_70b", "Llama-3-70B", 80, 8192, 64, 8, 128, 28672, 0, 0, 141 * GB, 2, 2, 0, 0,
       "Meta Llama 3 70B config.json: 80 layers, hidden 8192, 64 heads and 8 KV heads of 128, MLP 28672; P5 §1: 141 GB in BF16"},
      // The shapes exercise 5's variants name (published configs; 8.03 B, 405 B, 13.0 B params).
      {"llama3_8b", "Llama-3-8B", 32, 4096, 32, 8, 128, 14336, 0, 0, 16.06 * GB, 2, 2, 0, 0,
       "Meta Llama 3 8B config.json: 32 layers, hidden 4096, 32 heads and 8 KV heads of 128, MLP 14336; 8.03 B parameters"},
      {"llama3_405b", "Llama-3-405B", 126, 16384, 128, 8, 128, 53248, 0, 0, 810 * GB, 2, 2, 0, 0,
       "Meta Llama 3.1 405B config.json: 126 layers, hidden 16384, 128 heads and 8 KV heads of 128, MLP 53248; 405 B parameters"},
      {"llama2_13b", "Llama-2-13B", 40, 5120, 40, 40, 128, 13824, 0, 0, 26.0 * GB, 2, 2, 0, 0,
       "Meta Llama 2 13B config.json: 40 layers, hidden 5120, 40 heads of 128 (no grouped KV), MLP 13824; 13.0 B parameters"},
      // 8 experts, top-2, 46.7 B parameters in BF16.
      {"mixtral_8x7b", "Mixtral-8x7B", 32, 4096, 32, 8, 128, 14336, 8, 2, 93.4 * GB, 2, 2, 0, 0,
       "Mistral AI Mixtral-8x7B config.json: 32 layers, hidden 4096, 32 heads and 8 KV heads of 128, 8 experts of 14336, top-2; 46.7 B parameters"},
      // P5 §1: FP8 weights 671 GB; 256 routed experts, top-8. The published config.json:
      // num_hidden_layers 61, first_k_dense_replace 3 (dense MLP), moe_intermediate_size 2048,
      // 128 heads of 128; MLA caches kv_lora_rank 512 + qk_rope_head_dim 64 values a token a layer.
      {"deepseek_v3", "DeepSeek-V3", 61, 7168, 128, 128, 128, 2048, 256, 8, 671 * GB, 1, 2, 3, 512 + 64,
       "DeepSeek-V3 config.json: 61 layers (the first 3 dense), hidden 7168, 128 heads of 128, 256 routed experts of 2048, top-8, "
       "MLA kv_lora_rank 512 + qk_rope_head_dim 64; P5 §1: 671 GB in FP8"},
  };
  return models;
}

const std::vector<GpuPreset>& gpu_presets() {
  static const std::vector<GpuPreset> gpus = {
      {"h100", "H100 SXM", 80 * GB, 3.35 * TB, 989 * TFLOPS, "nvlink4",
       "NVIDIA H100 SXM datasheet: 80 GB HBM3, 3.35 TB/s, 989 TFLOP/s dense BF16, NVLink 4 (P5 §1, §2.1)"},
      {"h200", "H200", 141 * GB, 4.8 * TB, 989 * TFLOPS, "nvlink4",
       "NVIDIA H200 SXM datasheet: 141 GB HBM3e, 4.8 TB/s, the H100's 989 TFLOP/s dense BF16, NVLink 4 (P5 §1)"},
      {"b200", "B200", 192 * GB, 8 * TB, 2250 * TFLOPS, "nvlink5",
       "NVIDIA Blackwell B200: 192 GB HBM3e, 8 TB/s, 2.25 PFLOP/s dense BF16, NVLink 5 (P5 §2.1)"},
  };
  return gpus;
}

const std::vector<NodePreset>& node_presets() {
  static const std::vector<NodePreset> nodes = {
      {"dgx_h100", "DGX H100", "h100", 8, "nvlink4", "ib_ndr", 8,
       "NVIDIA DGX H100: 8 H100 on NVSwitch (NVLink 4), 8 ConnectX-7 NICs of 400 Gb/s (P5 §2.3)"},
      {"gb200_nvl72", "GB200 NVL72", "b200", 72, "nvlink5", "ib_ndr", 72,
       "NVIDIA GB200 NVL72: 72 Blackwell GPUs in one NVLink 5 domain, a 400 Gb/s NIC each (P5 §2.2)"},
  };
  return nodes;
}

template <class T>
static const T* find_by_id(const std::vector<T>& list, const std::string& id) {
  for (const T& x : list)
    if (x.id == id) return &x;
  return nullptr;
}

const char* value_format_name(double bytes_per_value) {
  if (bytes_per_value == 1) return "FP8";
  if (bytes_per_value == 2) return "BF16";
  if (bytes_per_value == 4) return "FP32";
  return "";
}

const ModelPreset* match_model(int layers, int hidden, int experts) {
  for (const ModelPreset& m : model_presets())
    if (m.layers == layers && m.hidden == hidden && m.experts == experts) return &m;
  return nullptr;
}

const ModelPreset* find_model(const std::string& id) { return find_by_id(model_presets(), id); }
const GpuPreset* find_gpu(const std::string& id) { return find_by_id(gpu_presets(), id); }
const NodePreset* find_node(const std::string& id) { return find_by_id(node_presets(), id); }

}  // namespace commlab
