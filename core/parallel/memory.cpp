#include "parallel/memory.hpp"

#include <algorithm>
#include <cmath>

namespace commlab {

namespace {
// The least whole n with bytes / n <= capacity (at least 1).
double least_gpus(double bytes, double capacity_bytes) {
  return std::max(1.0, std::ceil(bytes / capacity_bytes));
}
}  // namespace

MemoryPlan memory_plan(const ModelPreset& m, const GpuPreset& g, int gpus, double context_tokens,
                       double batch, int replicas, double efficiency) {
  MemoryPlan p;
  p.gpus = gpus;
  p.context_tokens = context_tokens;
  p.batch = batch;
  p.replicas = replicas;
  p.hbm_bytes = g.hbm_bytes;
  // P5 §1 (1): the weights and the KV cache share the GPU's memory; split over n GPUs
  // each holds 1/n of both.
  p.weight_bytes = m.weight_bytes;
  p.weight_bytes_per_gpu = m.weight_bytes / gpus;
  p.kv_bytes_per_token = kv_bytes_per_token(m);
  p.kv_bytes = context_tokens * batch * p.kv_bytes_per_token;
  p.kv_bytes_per_gpu = p.kv_bytes / gpus;
  p.used_bytes_per_gpu = p.weight_bytes_per_gpu + p.kv_bytes_per_gpu;
  p.used_fraction = p.used_bytes_per_gpu / g.hbm_bytes;
  p.weights_fit = p.weight_bytes_per_gpu <= g.hbm_bytes;
  p.fits = p.used_bytes_per_gpu <= g.hbm_bytes;
  p.kv_room_bytes_per_gpu = g.hbm_bytes - p.weight_bytes_per_gpu;
  p.min_gpus = least_gpus(m.weight_bytes, g.hbm_bytes);
  p.min_gpus_with_kv = least_gpus(m.weight_bytes + p.kv_bytes, g.hbm_bytes);
  p.min_gpus_power_of_two = 1;
  while (p.min_gpus_power_of_two < p.min_gpus_with_kv && p.min_gpus_power_of_two < 1e300) p.min_gpus_power_of_two *= 2;
  const double room_bytes = std::max(0.0, p.kv_room_bytes_per_gpu) * gpus;
  // A token count is exact up to 2^53; a near-zero KV size (an override) would pass it.
  p.max_context_tokens = std::min(std::floor(room_bytes / (batch * p.kv_bytes_per_token)), 9007199254740992.0);
  // P5 §1 (2): batch-1 decode reads every weight once a step, time = bytes / bandwidth; on n
  // GPUs each reads its 1/n at the same time. Nominal and effective (x 80%, P5 §5.7).
  p.decode_time_s = p.weight_bytes_per_gpu / g.hbm_Bps;
  p.decode_time_effective_s = p.weight_bytes_per_gpu / (g.hbm_Bps * efficiency);
  p.one_gpu_fits = m.weight_bytes + p.kv_bytes <= g.hbm_bytes;
  p.one_gpu_decode_time_s = m.weight_bytes / g.hbm_Bps;
  p.one_gpu_decode_time_effective_s = m.weight_bytes / (g.hbm_Bps * efficiency);
  p.speedup = p.one_gpu_decode_time_s / p.decode_time_s;
  // P5 §1 (3), §6.1: replicas multiply throughput, each holds all the weights, none talk.
  p.total_gpus = replicas * gpus;
  p.tokens_per_s = replicas / p.decode_time_s;
  p.tokens_per_s_effective = replicas / p.decode_time_effective_s;
  p.traffic_bytes_between_replicas = 0;
  return p;
}

}  // namespace commlab
