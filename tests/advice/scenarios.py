"""Customer scenarios and what an expert would sign for each, written before the tool was run on them.

Each scenario is an ordinary brief (the answers an interview collects) with expectations derived from
domain knowledge only: the sizing guidance of docs/method.md (catalogue ACD-006/009/014 and their prices,
VRAM tiers, ECC and CAD rules), vendor specifications (memory per card) and the memory arithmetic of
docs/design.md §4 (weights = params × bytes; KV per token = 2 × layers × KV heads × head_dim × bytes). The
arithmetic behind each expectation is in its comment, so a reader can check it without running anything.

Expectations name what must hold, not the tool's exact output: the kind of purchase, the card class, the
budget verdict, the knobs a practitioner would turn. tests/advice/test_advice.py runs every scenario
through intake -> recommendation -> proposal, in French and English, and checks these plus the document
invariants (one language, no placeholder section, commands that parse, limits the hardware can meet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

IDK = "je ne sais pas"


@dataclass(frozen=True)
class Expect:
    mode: str  # "inference" | "training"
    buy: tuple[str, ...] = ()  # allowed unit kinds of the recommended plan: workstation, server, node, rack, cloud
    gpus: tuple[str, ...] = ()  # allowed catalogue GPU ids of the recommended plan (empty: any)
    min_gpu_memory_gib: float = 0.0  # the recommended card must hold at least this (per GPU)
    # allowed budget verdicts: "within", "over"; for a server on quote "cards_under" / "cards_over" (empty: not
    # checked)
    budget: tuple[str, ...] = ()
    status: tuple[str, ...] = ("recommended",)  # allowed statuses: "recommended", "over_budget", "no_fit"
    knobs: tuple[str, ...] = ()  # knob codes the plan must have turned (practitioner defaults included)
    min_total_gpus: int = 1
    max_total_gpus: int = 10_000
    changes_within_budget: bool = False  # the document lists at least one change that fits the budget


@dataclass(frozen=True)
class Scenario:
    id: str
    answers: dict[str, Any]
    expect: Expect
    why: str = ""
    langs: tuple[str, ...] = ("fr", "en")
    extra: dict[str, Any] = field(default_factory=dict)


def _serving(**answers: Any) -> dict[str, Any]:
    base = {"use_case": "online_serving", "framework": IDK, "framework_version": IDK, "growth_factor": IDK,
            "ttft_ms": IDK, "tpot_ms": IDK, "num_gpus": IDK, "power_limit_w": IDK, "rack_units": IDK,
            "context_len": IDK, "rendering_cad": IDK, "ecc_required": IDK, "budget_eur": IDK}
    return base | answers


def _vision(**answers: Any) -> dict[str, Any]:
    base = {"use_case": "vision", "framework": IDK, "framework_version": IDK, "num_gpus": IDK,
            "power_limit_w": IDK, "rack_units": IDK, "rendering_cad": IDK, "ecc_required": IDK, "budget_eur": IDK,
            "dataset_size_bytes": IDK, "checkpoint_interval_min": IDK, "optimizer": IDK, "dataset_images": IDK}
    return base | answers


def _training(**answers: Any) -> dict[str, Any]:
    base = {"framework": IDK, "framework_version": IDK, "num_gpus": IDK, "power_limit_w": IDK,
            "rack_units": IDK, "rendering_cad": IDK, "ecc_required": IDK, "budget_eur": IDK,
            "dataset_size_bytes": IDK, "checkpoint_interval_min": IDK, "optimizer": IDK}
    return base | answers


SCENARIOS: tuple[Scenario, ...] = (
    # Llama 3.1 70B in FP8: weights 70.6 B × 1 byte ≈ 71 GB; KV 80 layers × 8 heads × 128 × 2 × 2 bytes =
    # 320 KiB/token, × 50 users × 2 304 tokens ≈ 38 GB. ≈ 110 GB in all: one 141 GB H200, or two 96 GB
    # RTX PRO 6000 with TP 2 — never a slice of a 72-GPU rack. Server + ECC + 60 000 €: an 8-GPU HGX node
    # costs several hundred thousand euros, so the answer is a PCIe-card server that fits the budget, or an
    # honest "over budget" with the gap. Either way a whole unit. The catalogue sells PCIe servers on quote only:
    # two RTX PRO 6000 cards cost 14 732 EUR, far under the budget, so the server on quote is the answer when its
    # cards stay under the budget ("cards_under"); a server whose cards alone pass the budget would not be.
    Scenario("llama70b-fp8-50users-server-60k", _serving(
        customer="Exemple SARL", model="Llama 3.1 70B Instruct", precision="fp8", input_len=2048, output_len=256,
        concurrency=50, deployment="serveur", ecc_required="oui", budget_eur="60 000 €"),
        Expect(mode="inference", buy=("server", "node"), max_total_gpus=8, budget=("within", "over", "cards_under"),
               status=("recommended", "over_budget")),
        why="issue #10, first example"),
    # LoRA of Qwen2.5-7B (7.6 B params): bf16 base 15.2 GB frozen; adapters tiny. With gradient checkpointing
    # and a chunked loss (what practitioners run), activations are about one layer input per layer:
    # 28 layers × 3 584 × 2 bytes × 8 × 1 024 tokens ≈ 1.6 GB, plus the loss. The customer does CAD on the
    # same workstation: GeForce cards are not ISV-certified (docs/method.md seed 002 / NVIDIA), so an RTX PRO
    # card is the one an expert signs for CAD + training. About 21 GiB in all (15.2 GB of weights, activations,
    # runtime): the 24 GB RTX PRO 4000 Blackwell holds it, the cheapest certified card that does (its Pro
    # workstation, 7 591 €), or the 32 GB RTX PRO 4500 for more room; no need for the 96 GB RTX PRO 6000 (55 480 €).
    Scenario("qwen7b-lora-cad-workstation", _training(
        customer="Atelier Dupont", use_case="affinage LoRA", model="Qwen/Qwen2.5-7B-Instruct", precision="bf16",
        context_len=1024, batch_size=8, dataset_size_bytes="2 Go", checkpoint_interval_min="30 min",
        deployment="station de travail", rendering_cad="oui", budget_eur="60 000 €", num_gpus=1),
        Expect(mode="training", buy=("workstation",), gpus=("rtx-pro-4000", "rtx-pro-4500"),
               budget=("within",), knobs=("gradient_checkpointing", "chunked_loss")),
        why="issue #10, second example: activations were 176 GiB without checkpointing"),
    # DeepSeek-V3 (671 B params, FP8 as published): ≈ 671 GB of weights + MLA KV (61 layers × 576 × 2 bytes
    # ≈ 70 KB/token). It needs a whole 8-GPU node of ≥ 141 GB cards (8 × 141 = 1 128 GB) or more; 80 GB
    # cards (8 × 80 = 640 GB) cannot hold it in one node.
    Scenario("deepseek-v3-200users-server", _serving(
        customer="Banque Exemple", model="DeepSeek V3", precision="fp8", input_len=2048, output_len=512,
        concurrency=200, deployment="serveur"),
        Expect(mode="inference", buy=("node",), min_total_gpus=8),
        why="issue #10, third example"),
    # Llama 3.1 8B in bf16 for one developer: 8.03 B × 2 = 16.1 GB of weights alone, more than the RTX
    # 5080's 16 GB (ACD-006, 7 160 €); the 24 GB RTX PRO 4000 in the same Pro tower (7 591 €) holds them with
    # a one-user KV cache, within 10 000 € (ACD-009's 32 GB RTX 5090 is 22 670 €). Workstation asked: never a
    # cloud GPU.
    Scenario("llama8b-bf16-dev-workstation-10k", _serving(
        customer="Solo Dev", model="Llama 3.1 8B Instruct", precision="bf16", input_len=1024, output_len=256,
        concurrency=1, deployment="station de travail", budget_eur="10 000 €"),
        Expect(mode="inference", buy=("workstation",), gpus=("rtx-pro-4000",), budget=("within",),
               status=("recommended",)),
        why="issue #10, fourth example (recommended a cloud MI300X)"),
    # Gemma 3 27B bf16: 27.4 B × 2 = 55 GB of weights; with CAD on the same machine only the RTX PRO 6000
    # (96 GB, certified drivers) is fit for purpose: ACD-014 at 55 480 € is within 60 000 €.
    Scenario("gemma27b-cad-workstation-60k", _serving(
        customer="Bureau d'études Martin", model="Gemma 3 27B", precision="bf16", input_len=1024, output_len=512,
        concurrency=5, deployment="station de travail", rendering_cad="oui", budget_eur="60 000 €"),
        Expect(mode="inference", buy=("workstation",), gpus=("rtx-pro-6000-ws", "rtx-pro-6000-maxq"),
               budget=("within",))),
    # QLoRA of Llama 3.1 70B: NF4 base ≈ 70.6 B × 4.13 bits ≈ 36 GB (+ 16-bit embeddings/head ≈ 2 GB) before
    # activations: more than a 32 GB RTX 5090; within one 48 GB card, the QLoRA paper's own setting (Dettmers et
    # al. 2023: a 65B model on a single 48 GB GPU) — the RTX PRO 5000 Blackwell in the Pro tower (11 717 €),
    # within 25 000 €. Without a 48 GB card the other answers are FSDP + QLoRA over two 24–32 GB cards
    # (Answer.AI, March 2024) or the 96 GB RTX PRO 6000 over budget; a single card under 48 GB never holds it.
    Scenario("llama70b-qlora-workstation-25k", _training(
        customer="Labo IA", use_case="affinage QLoRA", model="Llama 3.1 70B Instruct", precision=IDK, context_len=2048,
        batch_size=1, deployment="station de travail", budget_eur="25 000 €"),
        Expect(mode="training", buy=("workstation",), budget=("over", "within"),
               status=("over_budget", "recommended")),
        extra={"within_budget_needs_sharding_below_gib": 44}),
    # Full fine-tuning of Llama 3.1 8B with AdamW: 16 bytes/param of weights, gradients and fp32 states
    # (docs/design.md §4) = 128 GB before activations: no single card holds it; sharded over 8 GPUs (ZeRO-3/FSDP)
    # it is 16 GB per GPU + activations. 50 GB of text ≈ 12.5 B tokens at ~4 bytes per token.
    Scenario("llama8b-full-ft-8gpu-server", _training(
        customer="Retail Analytics", use_case="affinage complet", model="Llama 3.1 8B Instruct", precision="bf16",
        context_len=4096, batch_size=4, dataset_size_bytes="50 Go", checkpoint_interval_min="60 min",
        optimizer="AdamW", deployment="serveur", num_gpus=8),
        Expect(mode="training", buy=("server", "node"), min_total_gpus=2,
               knobs=("gradient_checkpointing", "zero")),
        langs=("en", "fr")),
    # Batch inference of Mistral 7B (7.25 B × 2 = 14.5 GB) with 64 sequences of 2 048 + 256 tokens: KV
    # 32 layers × 8 × 128 × 2 × 2 bytes = 128 KiB/token × 64 × 2 304 ≈ 19.3 GB: ≈ 34 GB with runtime — just
    # over a 32 GB RTX 5090, so an expert turns on the FP8 KV cache (≈ 9.7 GB) or runs fewer sequences at
    # once; the RTX PRO 6000 is over 25 000 €.
    Scenario("mistral7b-batch-workstation-25k", {
        "customer": "Presse Régionale", "use_case": "inférence par lots", "model": "Mistral 7B", "precision": "bf16",
        "input_len": 2048, "output_len": 256, "batch_size": 64, "deployment": "station de travail",
        "budget_eur": "25 000 €", "framework": IDK, "framework_version": IDK, "num_gpus": IDK,
        "power_limit_w": IDK, "rendering_cad": "non", "ecc_required": IDK, "context_len": IDK,
        "dataset_size_bytes": IDK},
        Expect(mode="inference", buy=("workstation",), budget=("within",))),
    # Qwen3-30B-A3B (MoE, 30.5 B total, 3 B active) in bf16 for a coding assistant, 100 users, rented:
    # 61 GB of weights: one 80 GB H100 is tight with 100 users' KV (48 layers × 4 KV heads × 128 × 2 × 2 =
    # 96 KiB/token × 100 × 2 560 ≈ 25 GB), so two GPUs or a 96–141 GB card; a cloud instance of 1, 2, 4 or 8.
    Scenario("qwen3-moe-coding-cloud", _serving(
        customer="DevTools Inc", model="Qwen3 30B A3B", precision="bf16", input_len=2048, output_len=512,
        concurrency=100, deployment="cloud"),
        Expect(mode="inference", buy=("cloud",)), langs=("en", "fr")),
    # gpt-oss-120b as published (MXFP4 experts): ≈ 63 GB of weights; 20 users fit one 96 GB or 141 GB card.
    # A rack server with one or two PCIe cards is what a 40 000 € server budget buys — or an honest gap.
    # Two 48 GB cards are such a server too (revised 2026-12-02, when a 2U server of 2-4 cards entered the
    # catalogue): tensor parallel 2 splits the 64 query and 8 KV heads evenly, ≈ 31.5 GB of weights per card and
    # 20 × 2 560 tokens × 36 KiB ≈ 1.9 GB of KV, under a 48 GB card's 43 GB vLLM reservation. Each card holds
    # at least 44 GiB as the driver reports it (an L40S shows 45.0 GiB), not necessarily the whole model.
    Scenario("gptoss120b-server-40k", _serving(
        customer="Cabinet Juridique", model="gpt-oss-120b", precision="mxfp4", input_len=2048, output_len=512,
        concurrency=20, deployment="serveur", budget_eur="40 000 €"),
        Expect(mode="inference", buy=("server", "node"), min_gpu_memory_gib=44,
               status=("recommended", "over_budget"))),
    # The customer's own words (2026-12-02): "un serveur en baie, 2U max, 2 kW max, mémoire ECC obligatoire",
    # Gemma 3 27B for ~50 sessions, 80 000 €. 27.4 B × 2 bytes ≈ 55 GB of 16-bit weights: two or more cards,
    # of 48 GB at least. A 2U server of two to four double-width cards (Dell R760xa class) holds two 350 W
    # cards (1,400 W with its host) under 2 kW; an 8-GPU node (10 kW and more) or a 4U server of eight cards
    # does not fit the rack or the circuit. So: a rack server of two to four cards, not "nothing fits".
    Scenario("gemma27b-2u-2kw-ecc-80k", _serving(
        customer="Clinique Exemple", model="Gemma 3 27B", precision=IDK, input_len=IDK, output_len=IDK,
        concurrency=50, deployment="un serveur en baie", rack_units="2U max", power_limit_w="2 kW max",
        ecc_required="oui, mémoire ECC obligatoire", budget_eur="80 000 €"),
        Expect(mode="inference", buy=("server",), min_total_gpus=2, max_total_gpus=4)),
    # Llama 3.1 405B in FP8: 405.9 B × 1 byte ≈ 406 GB of weights: an 8-GPU node of 141 GB+ cards
    # (1 128 GB) with TP 8; nothing smaller than a node.
    Scenario("llama405b-fp8-server", _serving(
        customer="Ministère Exemple", model="Llama 3.1 405B", precision="fp8", input_len=4096, output_len=512,
        concurrency=32, deployment="serveur"),
        Expect(mode="inference", buy=("node",), min_total_gpus=8)),
    # Pretraining a 3 B model (Llama 3.2 3B shape) on 100 GB of text (≈ 25 B tokens): a multi-GPU node; the
    # document gives tokens per epoch, time per epoch and checkpoint cost, no serving words.
    Scenario("llama3b-pretraining-server", _training(
        customer="Université Exemple", use_case="entraînement à partir de zéro", model="Llama 3.2 3B",
        precision="bf16", context_len=4096, batch_size=8, dataset_size_bytes="100 Go",
        checkpoint_interval_min="60 min", deployment="serveur", num_gpus=8),
        Expect(mode="training", buy=("server", "node"), min_total_gpus=2, knobs=("gradient_checkpointing",)),
        langs=("en", "fr")),
    # Mixtral 8x7B in 4-bit (AWQ): 46.7 B × ≈ 4.25 bits ≈ 25 GB (+ 16-bit embeddings and router), KV 128 KiB
    # per token × 16 × 2 304 ≈ 4.8 GB: ≈ 31 GB — too close to a 32 GB card's limit with 10 % kept free,
    # comfortable on 96 GB. Workstation, 30 000 €.
    # Revised on 2026-12-01, after the MoE prefill was calibrated (issue #13), and said so: the first version
    # argued memory only and expected a plan within budget. Latency decides it: 16 prompts of 2 048 tokens
    # × 12.9 B active parameters × 2 FLOP ≈ 850 TFLOP when they arrive together; 2 × RTX 5090 (≈ 2 × 210
    # TFLOPS dense FP16, NVIDIA's Blackwell GeForce datasheet) at ~50 % of peak takes ≈ 4 s for the last one,
    # over the 2 s P99 TTFT assumed for interactive use. So within 30 000 € the honest answers are a plan
    # that holds it or an over-budget verdict with a costed workload change (fewer users) inside the budget.
    Scenario("mixtral-int4-workstation-30k", _serving(
        customer="Agence Web", model="Mixtral 8x7B", precision="int4", input_len=2048, output_len=256,
        concurrency=16, deployment="station de travail", budget_eur="30 000 €"),
        Expect(mode="inference", buy=("workstation",), status=("recommended", "over_budget")),
        langs=("en", "fr")),
    # --- vision (issue #12) -----------------------------------------------------------------------------
    # YOLOv8x trains at 640 px with batch 16 in about 12 GB (ultralytics' own logs); activations grow with
    # pixels × batch: 1024 px (×2.56) and batch 32 (×2) is about ×5, 55-60 GB. Never a 16 or 32 GB card
    # (the issue's own bar); a 96 GB RTX PRO 6000 workstation holds it.
    Scenario("yolov8x-1024-training-workstation", _vision(
        customer="Atelier Dupin", vision_model="YOLOv8x", vision_mode="entraînement", precision="bf16",
        image_resolution=1024, batch_size=32, dataset_images="118 287", deployment="station de travail"),
        Expect(mode="training", buy=("workstation",), min_gpu_memory_gib=48)),
    # ResNet-50 inference, batch 32 at 224 px in bf16: 25.6 M parameters × 2 B = 51 MB, and the largest live
    # activation of one forward (the stem's 112×112×64 maps × 32 images × 2 B ≈ 51 MB) — well under 1 GB:
    # the cheapest workstation is the expert's answer: ACD-006 (RTX 5080, 7 160 €) to buy, or its Pro tower
    # with the 145 W RTX PRO 4000 (7 591 €), the cheaper over 3 years at the catalogue's full-load energy
    # (360 W vs 145 W: about 1 100 € of electricity at 0.20 €/kWh).
    Scenario("resnet50-inference-workstation", _vision(
        customer="Tri Postal", vision_model="ResNet-50", vision_mode="inférence", precision="bf16",
        image_resolution=224, batch_size=32, deployment="station de travail"),
        Expect(mode="inference", buy=("workstation",), gpus=("rtx-5080", "rtx-pro-4000")), langs=("en", "fr")),
    # ViT-B/16 training at 224 px, batch 256 per GPU, AdamW, bf16 autocast: 197 tokens × 768 × 12 layers ×
    # 34 B per token per layer (Korthikanti et al. 2022, with flash attention) × 256 ≈ 15.8 GB of activations,
    # + 86 M × 16 B of weights, gradients and AdamW ≈ 1.4 GB: about 17-18 GB — a 24 GB+ card; rented.
    Scenario("vit-b16-training-cloud", _vision(
        customer="Lab Imagerie", vision_model="ViT-B/16", vision_mode="training", precision="bf16",
        image_resolution=224, batch_size=256, optimizer="AdamW", dataset_images="1 281 167", deployment="cloud"),
        Expect(mode="training", buy=("cloud",), min_gpu_memory_gib=20)),
    # Qwen3 14B in bf16 for one developer: 14.8 B × 2 = 29.5 GB of weights, more than a 32 GB card keeps for
    # them under vLLM's 90 % reservation with a 40 960-token context; the 48 GB RTX PRO 5000 tower (11 717 €)
    # holds it, over 10 000 €. 8-bit or 4-bit weights fit the 24-32 GB RTX PRO cards (7 591-8 709 €) within it.
    Scenario("qwen14b-bf16-dev-workstation-10k", _serving(
        customer="Solo Dev", model="Qwen3 14B", precision="bf16", input_len=1024, output_len=256,
        concurrency=1, deployment="station de travail", budget_eur="10 000 €"),
        Expect(mode="inference", buy=("workstation",), budget=("over",), status=("over_budget",),
               changes_within_budget=True),
        why="the over-budget case of issue #10's fourth example, once a 24 GB card holds the 8B within budget"),
)
