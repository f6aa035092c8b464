// Why several GPUs (P5 §1) and data-parallel replicas (P5 §6.1): whether a model's weights and
// its KV cache fit a GPU's memory, how many GPUs its weights need, and batch-1 decode's lower
// bound when the weights are split over n GPUs.
#pragma once

#include "model/presets.hpp"

namespace commlab {

struct MemoryPlan {
  int gpus = 1;             // the split of one replica
  double context_tokens = 0;
  double batch = 1;
  int replicas = 1;
  double weight_bytes = 0;
  double weight_bytes_per_gpu = 0;
  double kv_bytes_per_token = 0;
  double kv_bytes = 0;                // context x batch x kv_bytes_per_token, one replica
  double kv_bytes_per_gpu = 0;        // split evenly with the weights
  double used_bytes_per_gpu = 0;      // weights + KV
  double hbm_bytes = 0;
  double used_fraction = 0;           // used / hbm
  bool weights_fit = false;           // weights alone
  bool fits = false;                  // weights + KV
  double kv_room_bytes_per_gpu = 0;   // hbm - weights: negative means the weights do not fit
  double min_gpus = 1;                // least n with weights / n <= hbm
  double min_gpus_with_kv = 1;        // least n with (weights + KV) / n <= hbm
  // The least power of two >= min_gpus_with_kv: one tensor-parallel group splits the heads
  // evenly over a power of two (§6.2), which is why §1 deploys DeepSeek-V3 on 8 H200, not 5.
  double min_gpus_power_of_two = 1;
  double max_context_tokens = 0;      // the longest context of `batch` sequences that fits
  double decode_time_s = 0;           // weights per GPU / hbm_Bps (nominal)
  double decode_time_effective_s = 0; // ... / (hbm_Bps x efficiency)
  bool one_gpu_fits = false;          // weights + KV on one GPU
  double one_gpu_decode_time_s = 0;
  double one_gpu_decode_time_effective_s = 0;
  double speedup = 1;                 // one GPU's decode time / n GPUs'
  int total_gpus = 1;                 // replicas x gpus
  double tokens_per_s = 0;            // replicas / decode_time_s: batch 1, every replica
  double tokens_per_s_effective = 0;
  double traffic_bytes_between_replicas = 0;  // P5 §6.1: replicas do not talk at inference
};

/// One replica split over `gpus` GPUs serving `batch` sequences of `context_tokens` each, and
/// `replicas` such replicas (P5 §1, §6.1).
MemoryPlan memory_plan(const ModelPreset& m, const GpuPreset& g, int gpus, double context_tokens,
                       double batch, int replicas, double efficiency);

}  // namespace commlab
