"""Benchmark tools: serving load test, NVML probe, vLLM launcher, microbenchmarks, training step, comparison.

Public entry points (each returns a pydantic result model):
- `run_serve(ServeSettings, out=...)`      tools.bench.serve
- `probe()`                                tools.bench.probe
- `launch_and_serve(LaunchSettings, ...)`  tools.bench.vllm_launcher
- `run_micro(MicroSettings)`               tools.bench.micro
- `run_train(TrainSettings)`               tools.bench.train
- `compare_results(a, b)`                  tools.bench.compare
Heavy imports (torch, pynvml) happen inside the functions that need them.
"""
