// Decimal SI units, as the lecture uses them (P5 §0.4): 1 KB = 1e3 B, 1 Gb/s = 1.25e8 B/s.
#pragma once

namespace commlab::units {

constexpr double kB = 1e3;
constexpr double MB = 1e6;
constexpr double GB = 1e9;
constexpr double TB = 1e12;
constexpr double KiB = 1024.0;
constexpr double MiB = 1024.0 * 1024.0;
constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
constexpr double Gbps = 1.25e8;  // bytes per second in one Gb/s
constexpr double us = 1e-6;
constexpr double ms = 1e-3;
constexpr double TFLOPS = 1e12;

}  // namespace commlab::units
