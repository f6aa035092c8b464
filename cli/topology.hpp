// commlab topology: the nccl.topology op on NCCL_DEBUG=INFO logs, printed as a short summary.
#pragma once

namespace commlab {

/// `commlab topology [options] FILE...` (argv[first] on): 0, 1 when a file failed, 2 on a bad
/// argument.
int topology_files(int argc, char** argv, int first);

}  // namespace commlab
