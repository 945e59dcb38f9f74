"""`bench launch`: start vLLM's OpenAI server as a subprocess, wait for it, benchmark it, stop it cleanly.

vLLM is never imported here: it runs in its own interpreter (`--vllm-python`, e.g. a dedicated venv), as
`python -m vllm.entrypoints.openai.api_server` (the `vllm` console script of some builds cannot find its
own distribution). The server gets its own process group, so a Ctrl-C in the terminal reaches only us and
we stop it in order: SIGINT (vLLM's graceful shutdown), then SIGTERM, then SIGKILL.
Across nodes (`ray_address`): the Ray cluster is checked first (tools.bench.ray_cluster), then vLLM runs on
it with `--distributed-executor-backend ray`; its workers are Ray actors owned by the server, which Ray
ends with it. The cluster itself is the operator's and stays up.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import httpx
from pydantic import BaseModel, Field

from sizer_agent.tools.bench.results import LaunchInfo, ServeResult, ServeSettings, VllmStartupMemory
from sizer_agent.tools.bench.serve import run_serve
from sizer_agent.tools.bench.vllm_log import parse_startup_memory
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.input_files import write_atomic


def _default_sigint() -> None:
    """In the server's process, before exec: SIGINT back to its default. A process started with SIGINT
    ignored (nohup, some job runners) passes that on, and the server would never see the SIGINT that asks
    it to shut down gracefully."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

class LaunchError(RuntimeError):
    """vLLM did not come up (the message carries the tail of its log)."""


class LaunchSettings(BaseModel):
    model: str = Field(description="Hub id or local directory")
    revision: str | None = None
    served_model_name: str | None = None
    dtype: str | None = Field(None, description="vLLM --dtype: auto, bfloat16, float16, float32")
    quantization: str | None = Field(None, description="vLLM --quantization, e.g. fp8, awq, gptq")
    tensor_parallel_size: int = Field(1, ge=1)
    pipeline_parallel_size: int = Field(1, ge=1, description="stages, one per node of a Ray cluster")
    ray_address: str | None = Field(None, description="HEAD:PORT of the Ray cluster vLLM spans (multi-node)")
    max_model_len: int | None = Field(None, ge=1)
    gpu_memory_utilization: float | None = Field(None, gt=0, le=1)
    kv_cache_memory_bytes: str | None = Field(None, description="vLLM --kv-cache-memory-bytes, e.g. 64M")
    enforce_eager: bool = False
    python: str = Field(default_factory=lambda: sys.executable, description="interpreter that has vLLM")
    host: str = "127.0.0.1"
    port: int | None = Field(None, description="None = a free port")
    extra_args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    startup_timeout_s: float = 1800.0
    log_file: Path | None = None

    def command(self, port: int) -> list[str]:
        args = [self.python, "-m", "vllm.entrypoints.openai.api_server", "--model", self.model]
        args += ["--host", self.host, "--port", str(port)]
        optional: list[tuple[str, object]] = [
            ("--revision", self.revision),
            ("--served-model-name", self.served_model_name),
            ("--dtype", self.dtype),
            ("--quantization", self.quantization),
            ("--max-model-len", self.max_model_len),
            ("--gpu-memory-utilization", self.gpu_memory_utilization),
            ("--kv-cache-memory-bytes", self.kv_cache_memory_bytes),
        ]
        for flag, value in optional:
            if value is not None:
                args += [flag, str(value)]
        if self.tensor_parallel_size != 1:
            args += ["--tensor-parallel-size", str(self.tensor_parallel_size)]
        if self.pipeline_parallel_size != 1:
            args += ["--pipeline-parallel-size", str(self.pipeline_parallel_size)]
        if self.ray_address is not None:
            args += ["--distributed-executor-backend", "ray"]
        if self.enforce_eager:
            args.append("--enforce-eager")
        return args + self.extra_args


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


class VllmServer:
    """Context manager around one vLLM server process."""

    def __init__(self, settings: LaunchSettings, progress: Callable[[str], None] | None = None) -> None:
        self.settings = settings
        self.progress = progress
        self.port = settings.port or free_port(settings.host)
        self.base_url = f"http://{settings.host}:{self.port}"
        self.command = settings.command(self.port)
        self.log_path = settings.log_file or Path(f"vllm-{self.port}.log")
        self.process: subprocess.Popen[bytes] | None = None
        self.startup_s = 0.0
        self.exit_code: int | None = None
        self.stop_signal: str | None = None

    def __enter__(self) -> VllmServer:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()

    def start(self) -> None:
        env = {
            **os.environ,
            # Dev endpoints include POST /reset_prefix_cache, used between benchmark levels.
            "VLLM_SERVER_DEV_MODE": "1",
            "VLLM_NO_USAGE_STATS": "1",
            **({"RAY_ADDRESS": self.settings.ray_address} if self.settings.ray_address else {}),
            **self.settings.env,
        }
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")
        try:
            self.process = subprocess.Popen(
                self.command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
                preexec_fn=_default_sigint,
            )
        except OSError as error:
            python = self.settings.python
            raise InputError("--vllm-python", f"cannot run {python!r}: {error}", "a Python path") from None
        finally:
            log.close()
        self._wait_ready()

    def _say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    def _wait_ready(self) -> None:
        assert self.process is not None
        start = time.monotonic()
        last_report = 0.0
        with httpx.Client(timeout=2.0) as client:
            while True:
                elapsed = time.monotonic() - start
                code = self.process.poll()
                if code is not None:
                    self.exit_code = code
                    raise LaunchError(f"vLLM exited with code {code} during start-up:\n{self.log_tail()}")
                if elapsed > self.settings.startup_timeout_s:
                    self.stop()
                    raise LaunchError(
                        f"vLLM not healthy after {self.settings.startup_timeout_s:g} s:\n{self.log_tail()}"
                    )
                with contextlib.suppress(httpx.HTTPError):
                    if client.get(self.base_url + "/health").status_code == 200:
                        self.startup_s = elapsed
                        self._say(f"vLLM ready after {elapsed:.1f} s at {self.base_url}")
                        return
                if elapsed - last_report >= 5.0:
                    last_report = elapsed
                    last = self.log_tail(1).strip()
                    self._say(f"waiting for vLLM /health ({elapsed:.0f} s): {last[-150:]}")
                time.sleep(0.5)

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def startup_memory(self) -> VllmStartupMemory:
        try:
            with self.log_path.open(errors="replace") as log:
                return parse_startup_memory(log)
        except OSError:
            return VllmStartupMemory()

    def stop(self, grace_s: float = 20.0) -> None:
        """SIGINT, then SIGTERM, then SIGKILL to the server's process group; records what it took."""
        process = self.process
        if process is None or process.poll() is not None:
            if process is not None:
                self.exit_code = process.returncode
            return
        for sig, wait_s in ((signal.SIGINT, grace_s), (signal.SIGTERM, 10.0), (signal.SIGKILL, 10.0)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
            try:
                self.exit_code = process.wait(timeout=wait_s)
                self.stop_signal = sig.name
                break
            except subprocess.TimeoutExpired:
                continue
        # Children (e.g. the engine core) share the group: make sure none outlives the server.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)

    def launch_info(self) -> LaunchInfo:
        return LaunchInfo(
            command=self.command,
            startup_s=self.startup_s,
            startup_memory=self.startup_memory(),
            exit_code=self.exit_code,
            stop_signal=self.stop_signal,
            log_file=str(self.log_path),
        )


def launch_and_serve(
    launch: LaunchSettings,
    serve: ServeSettings,
    out: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> ServeResult:
    """Start vLLM, run `bench serve` against it, stop it; the result carries the launch and memory lines.

    Ctrl-C during start-up or the benchmark stops the server and keeps what was measured.
    """
    cluster = None
    if launch.ray_address is not None:
        from sizer_agent.tools.bench.ray_cluster import RayClusterError, preflight

        try:
            cluster = preflight(launch.python, launch.ray_address, launch.tensor_parallel_size,
                                launch.pipeline_parallel_size)
        except RayClusterError as error:
            raise LaunchError(str(error)) from None
        if progress is not None:
            progress(f"Ray cluster at {cluster.address}: {cluster.alive_nodes} node(s), {cluster.total_gpus:g} GPU(s), "
                     f"Ray {cluster.ray_version}: room for TP {launch.tensor_parallel_size} x PP "
                     f"{launch.pipeline_parallel_size}")
    server = VllmServer(launch, progress)
    if out is not None and launch.log_file is None:
        server.log_path = out.with_suffix(".vllm.log")
    try:
        server.start()
        serve.base_url = server.base_url
        serve.model = serve.model or launch.served_model_name or launch.model
        serve.revision = serve.revision or launch.revision
        serve.precision = serve.precision or launch.quantization or launch.dtype
        serve.engine = "vllm"
        result = run_serve(serve, out=out, progress=progress)
    finally:
        server.stop()
    result.launch = server.launch_info()
    if cluster is not None:
        result.launch.ray_cluster = cluster.model_dump(mode="json")
    if out is not None:
        write_atomic(out, result.model_dump_json(indent=2), "--out")
    return result
