"""`bench train` through torchrun for real on CPU (gloo): two ranks with FSDP2, and two torchrun agents
("nodes") meeting at a c10d rendezvous on 127.0.0.1; each rank's sharded checkpoint (DCP) and its
bit-identical resume. A tiny Llama (2 layers, hidden 64) keeps each job to a few seconds."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from sizer_agent.tools.bench.compare import compare_results
from sizer_agent.tools.bench.vllm_launcher import free_port
from tests.bench.conftest import ROOT, run_cli

pytest.importorskip("torch")
pytest.importorskip("transformers")

TINY = ["--hidden-size", "64", "--layers", "2", "--heads", "4", "--vocab-size", "256", "--batch-size", "2",
        "--seq-len", "16", "--steps", "4", "--device", "cpu"]
# 2 layers: embed 256×64 + lm_head 64×256 + final norm 64; per layer 4 attention 64×64 + 3 MLP 64×176
# (intermediate = 8/3 × 64 = 170.7 rounded up to a multiple of 8) + 2 norms of 64.
TINY_PARAMS = 2 * 256 * 64 + 64 + 2 * (4 * 64 * 64 + 3 * 64 * 176 + 2 * 64)


def _check_resumed_on_every_rank(result: dict, world: int) -> None:
    assert result["world_size"] == world and len(result["ranks"]) == world
    ranks = sorted(result["ranks"], key=lambda r: r["rank"])
    assert [r["rank"] for r in ranks] == list(range(world))
    for rank in ranks:
        assert rank["optimizer_state_equal"] and rank["trainable_weights_equal"], rank["rank"]
        assert rank["resumed_losses"] == rank["uninterrupted_losses"] == rank["losses"][2:]
        assert rank["shard_bytes"] > 0 and f"__{rank['rank']}_0.distcp" in result["checkpoint_files"]
    assert ".metadata" in result["checkpoint_files"]  # DCP: rank 0 writes the index of every shard
    # each rank trains on its own batches: the same model sees different data, so the losses differ
    assert ranks[0]["losses"] != ranks[1]["losses"]
    assert result["resume_ok"] is True


def test_two_ranks_fsdp2_resume_bit_identical_on_both(tmp_path: Path) -> None:
    out = tmp_path / "train.json"
    done = run_cli("bench", "train", *TINY, "--nproc-per-node", "2", "--strategy", "fsdp", "--json",
                   "--out", str(out), timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result == json.loads(out.read_text())
    assert result["kind"] == "train_distributed" and result["distributed"]["strategy"] == "fsdp"
    _check_resumed_on_every_rank(result, 2)
    assert result["architecture"] == "LlamaForCausalLM"
    # FSDP2 built the model on the meta device and initialised only each rank's shards: initialised weights
    # (std 0.02) give near-uniform predictions at the first step, a loss of about ln(vocab) = ln 256 = 5.55
    for rank in result["ranks"]:
        assert abs(rank["losses"][0] - math.log(256)) < 0.3
    # FSDP2 shards every parameter (DTensor); their global sizes still add up to the whole model
    assert result["total_parameters"] == result["trainable_parameters"] == TINY_PARAMS
    tokens = 2 * 2 * 16  # two ranks × batch 2 × 16 tokens
    assert result["tokens_per_step"] == tokens
    assert result["tokens_per_s"] == pytest.approx(tokens / (result["step_time_mean_ms"] / 1e3))
    assert result["tokens_per_s_per_chip"] == pytest.approx(result["tokens_per_s"] / 2)
    assert result["mfu"] is None  # no peak for a CPU
    # the step time is the slowest rank's at each step after the warm-up step
    slowest = [max(r["step_times_ms"][i] for r in result["ranks"]) for i in range(1, 4)]
    assert result["step_time_mean_ms"] == pytest.approx(sum(slowest) / 3)
    # bench compare: the same trial side by side; DDP instead of FSDP2 is a different trial
    same = compare_results(result, result)
    assert same.comparable and any(row.label == "tokens/s per chip" and row.ratio == 1.0 for row in same.rows)
    ddp = compare_results(result, {**result, "distributed": {**result["distributed"], "strategy": "ddp"}})
    assert [d.field for d in ddp.differences] == ["distributed.strategy"]


def test_two_nodes_on_loopback_meet_at_a_rendezvous_and_resume(tmp_path: Path) -> None:
    endpoint = f"127.0.0.1:{free_port()}"
    shared = tmp_path / "shared-checkpoints"  # what a shared file system is to real nodes
    args = [sys.executable, "-m", "sizer_agent", "bench", "train", *TINY, "--method", "lora", "--lora-rank", "4",
            "--nproc-per-node", "1", "--nnodes", "2", "--rdzv-endpoint", endpoint, "--rdzv-id", "loopback-test",
            "--checkpoint-dir", str(shared), "--quiet"]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    import os

    env = {**os.environ, **env}
    nodes = [subprocess.Popen([*args, "--out", str(tmp_path / f"node{i}.json")], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env) for i in range(2)]
    outputs = [node.communicate(timeout=180) for node in nodes]
    for node, (_, err) in zip(nodes, outputs, strict=True):
        assert node.returncode == 0, err[-3000:]
    written = [p for p in (tmp_path / "node0.json", tmp_path / "node1.json") if p.exists()]
    assert len(written) == 1, "exactly the agent holding rank 0 writes the result"
    others = [out for out, _ in outputs if "result is on the node that held rank 0" in out]
    assert len(others) == 1
    result = json.loads(written[0].read_text())
    assert result["nnodes"] == 2 and result["distributed"]["nnodes"] == 2
    _check_resumed_on_every_rank(result, 2)
    # LoRA: only adapters train (rank 4 on q_proj and v_proj of 2 layers: 2 × 2 × 4 × (64 + 64))
    assert result["trainable_parameters"] == 2 * 2 * 4 * (64 + 64)


def test_bad_rendezvous_is_one_line_exit_2() -> None:
    done = run_cli("bench", "train", *TINY, "--nnodes", "2", "--rdzv-endpoint", "node0")
    assert done.returncode == 2 and "--rdzv-endpoint" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    done = run_cli("bench", "train", *TINY, "--nnodes", "2", "--rdzv-endpoint", "127.0.0.1:29400")
    assert done.returncode == 2 and "--checkpoint-dir" in done.stderr
