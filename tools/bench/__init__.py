"""Benchmark tools: serving load test, NVML probe, vLLM launcher, microbenchmarks, training step, comparison.

Public entry points (each returns a pydantic result model):
- `run_serve(ServeSettings, out=...)`      tools.bench.serve
- `probe()`                                tools.bench.probe
- `launch_and_serve(LaunchSettings, ...)`  tools.bench.vllm_launcher
- `run_micro(MicroSettings)`               tools.bench.micro
- `run_train(TrainSettings)`               tools.bench.train
- `run_dist_train(TrainSettings, DistSettings)`, `run_scale(...)`   tools.bench.dist_train (torchrun: DDP/FSDP2)
- `run_collectives(CollectiveSettings, Launch)`                    tools.bench.collectives (nccl-tests busbw)
- `run_sustain(SustainSettings, samples_file)`                     tools.bench.sustain (GEMM loop + NVML)
- `preflight(python, address, tp, pp)`                             tools.bench.ray_cluster (multi-node vLLM)
- `run_gpu_check(GpuCheckSettings)`                                tools.bench.gpu_check (`bench all`)
- `compare_results(a, b)`                  tools.bench.compare
Heavy imports (torch, pynvml) happen inside the functions that need them.
"""
