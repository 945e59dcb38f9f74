"""The plan: one configuration an expert would sign, and every number the documents print about it.

`tools.recommend.recommend` returns a `RecommendResult` whose `plan` is the recommendation; the agent, the
app and the proposal import these models and read their numbers from them, nothing else. Every sentence
is a `Msg` (catalogue id + parameters), rendered in the reader's language at the edge.

Units: bytes, seconds or milliseconds as the field name says, euros excluding VAT, watts.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_spec import LongContext
from sizer_agent.tools.vision.estimate import VisionRequest

UnitKind = Literal["workstation", "server", "node", "rack", "cloud"]
KnobCode = Literal[
    # practitioner defaults (turned on without changing what was asked)
    "gradient_checkpointing", "chunked_loss", "zero", "engine_vllm", "assumed_slo_met", "assumed_slo_floor",
    "assumed_slo_floor_prefill",
    # workload changes, each with a cost stated in the document
    "kv_fp8", "weights_fp8", "weights_int4", "shorter_context", "fewer_users", "micro_batch", "optimizer_8bit",
    "lora_instead_of_full", "qlora_instead_of_lora", "cpu_offload", "weights_offload",
    # serving: the latency target is what gives, not the load (the budget buys slower answers)
    "slower_response",
    # vision: checkpointing is a practitioner default where the library has it; a smaller batch is a change
    "vision_checkpointing", "vision_batch",
    # vision: a batch nobody gave is chosen to fit the card (a practitioner default, not a change)
    "vision_batch_fit",
    # language-model training: a micro-batch nobody gave is halved to fit the card, accumulation keeping the global
    # batch (a practitioner default, not a change)
    "micro_batch_fit",
    # vision: the epochs nobody gave (one counted), beside what a detector's training usually runs
    "vision_epochs",
]
Status = Literal["recommended", "over_budget", "no_fit"]


class Knob(BaseModel):
    """One setting turned by the search, and whether it changes what the customer asked for."""

    code: KnobCode
    changes_workload: bool = Field(description="False for a practitioner default (same job, same result)")
    text: Msg = Field(description="the assumption as the document states it")


class Purchase(BaseModel):
    """How the configuration is bought or rented, in whole units."""

    how: Literal["buy", "rent", "quote"]
    unit: UnitKind
    units: int = Field(ge=1)
    gpus_per_unit: int = Field(ge=1)
    price_kind: Literal["list", "estimate"] | None = Field(description="None when on quote")
    price_eur: float | None = Field(None, description="buy: the whole configuration")
    hourly_eur: float | None = Field(
        None, description="rent: all GPUs per hour; buy: amortised price + energy per hour (the cost basis)")
    price_date: str | None = None
    cards_eur: float | None = Field(
        None, description="quote: the GPU cards alone at their public price — a lower bound, the server is on quote")
    to_confirm: bool = Field(False, description="a configuration the vendor does not list as such")
    sources: list[str] = Field(default_factory=list, description="catalogue source keys of the price")


class Parallelism(BaseModel):
    num_gpus: int = Field(ge=1)
    tensor_parallel: int = Field(ge=1)
    pipeline_parallel: int = Field(ge=1)
    data_parallel: int = Field(ge=1)
    expert_parallel: int = Field(1, ge=1, description="experts sharded by TP in this model; 1 = no separate EP")
    zero: int = Field(0, ge=0, le=3, description="training: ZeRO stage / FSDP sharding over the data-parallel GPUs")
    notes: list[Msg] = Field(default_factory=list)


class MemoryPlan(BaseModel):
    """What one GPU holds under the plan's split (the most loaded GPU)."""

    weights_bytes: int
    kv_cache_bytes: int
    activations_bytes: int
    gradients_bytes: int
    optimizer_bytes: int
    runtime_bytes: int
    total_bytes: int = Field(description="what the GPU holds: for vLLM its whole reservation (KV pool included)")
    load_bytes: int = Field(description="what the stated load needs on the GPU: weights, the load's KV cache, "
                                        "activations, gradients, optimizer states, runtime")
    gpu_memory_bytes: int = Field(description="usable memory of one card, as the driver reports it")
    headroom_pct: float = Field(description="free share of the card at this load")
    engine: Literal["generic", "vllm"]
    gpu_memory_utilization: float | None = Field(None, description="vLLM: share of the card it reserves")
    engine_reserved_bytes: int | None = Field(
        None, description="vLLM: everything it holds per GPU (its budget + CUDA graphs + context)")
    kv_cache_tokens: int | None = Field(None, description="vLLM: tokens its KV pool holds per replica")
    required_kv_tokens: int | None = Field(None, description="the stated load's tokens in flight per replica")
    offloaded_bytes: int = Field(0, description="per GPU, kept in host RAM: training offload (optimizer states, "
                                 "parameters, gradients, activations) or inference weights (--cpu-offload-gb)")
    kv_cache_bytes_per_token: int = 0


class RooflinePoint(BaseModel):
    phase: str
    operational_intensity: float = Field(description="FLOP per byte moved")
    attainable_tflops: float
    peak_tflops: float
    bandwidth_tb_s: float
    ridge_flops_per_byte: float
    bound: str
    time_ms: float


class ServingPerf(BaseModel):
    concurrency: int
    input_len: int
    output_len: int
    max_model_len: int
    long_context: LongContext | None = Field(None, description="YaRN the engine is started with for this context")
    percentile: float
    ttft_ms: float
    ttft_mean_ms: float
    tpot_ms: float
    e2e_ms: float | None = None
    output_tokens_per_s: float = Field(description="all replicas, at the stated concurrency")
    max_concurrency_memory: int = Field(description="requests of input + output length whose KV cache fits")
    max_concurrency_under_slo: int | None = None
    slo_ttft_ms: float | None = Field(None, description="what the plan was sized against (a relaxed floor when "
                                      "the target was assumed)")
    slo_tpot_ms: float | None = None
    target_ttft_ms: float | None = Field(None, description="the latency target: the customer's, or the method's "
                                         "default when none was given (see target_assumed)")
    target_tpot_ms: float | None = None
    target_assumed: list[Literal["ttft", "tpot"]] = Field(default_factory=list)
    sla_met: bool | None = None
    sustained_output_tokens_per_s: float = Field(
        description="at the operating point: the SLA limit when an SLA is given, else the memory limit")
    bound: str
    roofline: list[RooflinePoint] = Field(default_factory=list)
    weight_offload_bytes_per_gpu: int = Field(0, description="weights read from host RAM every step "
                                              "(vLLM --cpu-offload-gb); 0 when everything is on the GPU")
    host_link_gbs: float | None = Field(None, description="effective host-link bandwidth those weights cross")
    tpot_ms_without_offload: float | None = Field(None, description="the same load were the weights all resident")
    output_tokens_per_s_without_offload: float | None = None


class TrainingPerf(BaseModel):
    method: Literal["full", "lora", "qlora"]
    optimizer: str
    batch_size: int = Field(description="sequences per GPU per optimizer step (micro-batch x accumulation)")
    micro_batch_size: int
    gradient_accumulation_steps: int
    seq_len: int
    tokens_per_step: int = Field(description="all data-parallel GPUs together")
    step_time_s: float
    tokens_per_s: float
    mfu: float
    bound: str
    dataset_bytes: int | None = None
    dataset_tokens: int | None = Field(None, description="the training set as the customer counted it, in tokens")
    bytes_per_token: float = Field(description="assumed text bytes per token to turn the dataset into tokens")
    tokens_per_epoch: int | None = None
    epoch_hours: float | None = None
    epochs: int = Field(1, ge=1, description="passes over the dataset the customer asked for (the job is that many "
                                              "epochs)")
    checkpoint_bytes: int = Field(description="what a resumable checkpoint writes (weights or adapters + states)")
    storage_write_gbs: float
    checkpoint_write_s: float
    checkpoint_interval_min: float
    goodput: float = Field(description="useful training time / wall time with checkpoint writes")


class VisionPerf(BaseModel):
    """A vision job on this configuration: data parallel, each GPU with its batch (tools.vision)."""

    request: VisionRequest = Field(description="the job as this configuration runs it (gpus, gpu, checkpointing)")
    library: str = Field(description="yolo (our YOLOv8 code), torchvision or timm")
    params_total: int
    mode: Literal["training", "inference"]
    forward_gflops_per_image: float
    images_per_s: float = Field(description="all GPUs, in the job's mode")
    images_per_s_per_gpu: float
    step_time_s: float = Field(description="one step at the per-GPU batch")
    bound: str = Field(description="compute, memory or overhead: where most of the step time goes")
    tensor_precision: str = Field(description="tensor-core precision the speed model uses: tf32, bf16, fp16")
    inference_images_per_s: float = Field(description="the same model served (no-grad forward), all GPUs")
    dataset_images: int | None = None
    epoch_hours: float | None = None
    epochs: int = Field(1, ge=1, description="training: passes over the images asked for")
    checkpoint_bytes: int | None = Field(None, description="training: fp32 weights + optimizer states")
    storage_write_gbs: float | None = None
    checkpoint_write_s: float | None = None
    checkpoint_interval_min: float | None = None
    goodput: float | None = None
    warnings: list[Msg] = Field(default_factory=list)


class HostRequirement(BaseModel):
    name: str
    value: float | str | bool
    unit: str = ""
    reason: Msg


class Costs(BaseModel):
    power_w: float = Field(description="GPUs at their TDP + host, whole configuration")
    amortisation_years: float
    utilisation: float
    eur_per_kwh: float
    pue: float
    energy_kwh_per_year: float
    energy_eur_per_year: float = Field(description="owned hardware; 0 for rented (in the hourly price)")
    hourly_eur: float | None = Field(None, description="cost of one hour of the whole configuration")
    tco_eur: float | None = Field(None, description="over the amortisation period: purchase + energy, or rent")
    eur_per_million_tokens: float | None = Field(None, description="serving: output tokens at the operating point")
    eur_per_epoch: float | None = Field(None, description="training: one pass over the dataset")
    job_hours: float | None = Field(None, description="batch inference of a stated number of requests: the whole job "
                                    "at the plan's output rate; a one-off training run: its epoch")
    eur_per_job: float | None = Field(None, description="that job's cost: hours x the hourly cost")
    runs_per_year: int | None = Field(None, description="a recurring job's runs a year, when said ('par jour', "
                                      "'monthly'): a rental is paid for their hours only")
    paid_per_job: bool = Field(False, description="a one-off job (batch or training run): rented, only its hours are "
                               "paid, so rentals are compared by the job's cost")
    eur_per_million_images: float | None = Field(None, description="vision inference: at the plan's images/s")
    tokens_per_s_per_kw: float | None = Field(None, description="None where the accelerator's power is not "
                                                                  "published (TPU, Trainium): the ratio would count "
                                                                  "the host alone")
    accelerator_power_published: bool = Field(True, description="False: power_w is the host's alone (a rented "
                                                                "chip without a published TDP)")


class Plan(BaseModel):
    """One configuration: what to buy, how the model is split on it, and what it does at the stated load."""

    offer_id: str
    offer_name: str
    gpu_id: str
    gpu_name: str
    platform_id: str
    purchase: Purchase
    parallelism: Parallelism
    weight_precision: str = Field(description="weight format (bf16, fp8, awq-int4 ...)")
    kv_cache_precision: str
    memory: MemoryPlan | None = Field(description="None when the split itself is impossible")
    serving: ServingPerf | None = None
    training: TrainingPerf | None = None
    vision: VisionPerf | None = None
    host: list[HostRequirement] = Field(default_factory=list)
    costs: Costs
    knobs: list[Knob] = Field(default_factory=list, description="what the search turned, in order")
    fits: bool = Field(description="memory, parallelism, SLA, graphics and ECC all met (budget apart)")
    within_budget: bool | None = Field(None, description="None: no budget given")
    reasons: list[Msg] = Field(default_factory=list, description="why it does not fit")
    notes: list[Msg] = Field(default_factory=list, description="warnings that do not reject it")
    request: EstimateRequest | None = Field(
        description="the language-model workload evaluated (acceptance commands come from it); None for vision")
    sources: list[str] = Field(default_factory=list, description="catalogue source keys of GPU, platform, price")

    @model_validator(mode="after")
    def _language_model_plans_carry_their_workload(self) -> Plan:
        # the acceptance commands of a serving or training plan come from its workload: a plan without one is
        # a damaged session, refused where it is read rather than failing when the document is written
        if (self.serving is not None or self.training is not None) and self.request is None:
            raise ValueError("request: a language-model plan carries the workload it was evaluated for")
        return self

    def planned_gpus_note(self, planned: int | None) -> Msg | None:
        """Why the plan uses another GPU count than the customer planned; None when it uses that count."""
        used = self.parallelism.num_gpus
        if not planned or used == planned:
            return None
        key = "note.planned_gpus_fewer" if used < planned else "note.planned_gpus_more"
        return Msg(key, planned=planned, used=used)

    def speed_short(self) -> Msg | None:
        """The speed in a few words (a table cell, a plan weighed against another); None when not estimated."""
        if self.vision is not None:
            return Msg("advice.speed_short_vision", ips=self.vision.images_per_s)
        if self.serving is not None:
            s = self.serving
            return Msg("advice.speed_short_serving", p=s.percentile, ttft=s.ttft_ms, tpot=s.tpot_ms,
                       tps=s.output_tokens_per_s)
        if self.training is not None:
            return Msg("advice.speed_short_training", step=self.training.step_time_s, tps=self.training.tokens_per_s)
        return None


class BudgetVerdict(BaseModel):
    budget_eur: float | None
    basis: Literal["purchase", "rental_over_period", "rental_for_job"] | None = None
    period_years: float | None = Field(None, description="rental: the period compared with the budget")
    job_hours: float | None = Field(None, description="rental for a one-off job: its hours")
    cost_eur: float | None = None
    gap_eur: float | None = Field(None, description="cost - budget when over")
    status: Literal["none", "within", "over"]


class Change(BaseModel):
    """A change to the workload that brings a plan within budget (or within reach), with its effect."""

    knobs: list[Knob]
    plan: Plan


class OfferVerdict(BaseModel):
    offer_id: str
    name: str
    fits: bool
    in_scope: bool
    best_gpus: int | None = None
    reason: Msg = Field(description="how it serves the workload, or why it cannot")


class Scope(BaseModel):
    """What the customer's answers allow: how they buy, and the constraints every option must meet."""

    units: list[UnitKind] = Field(description="unit kinds in scope (from the deployment answer)")
    deployment: str | None = None
    budget_eur: float | None = None
    budget_eur_per_month: float | None = Field(None, description="the budget as the customer said it, per month; "
                                               "budget_eur is then its total over the amortisation period")
    ecc_required: bool = False
    ecc_assumed: bool = Field(False, description="the ECC requirement is a default, not said by the customer")
    needs_graphics: bool = False
    power_limit_w: float | None = None
    rack_units: int | None = None
    gpu_preference: str | None = None
    planned_gpus: int | None = None
    cloud_excluded: bool = Field(False, description="the customer refused the cloud: no rental is suggested, "
                                 "even as an option outside the scope")
    stacks: list[str] = Field(default_factory=lambda: ["cuda", "rocm"],
                              description="software stacks in scope: cuda, rocm, xla (TPU), neuron (Trainium)")

    def allows(self, unit: str | None) -> bool:
        """A way of buying the customer's answers admit (every one when the deployment was not said)."""
        return not self.units or unit in self.units


class ServingAfter(BaseModel):
    """The serving that follows a fine-tune, sized as its own recommendation in the training's scope."""

    status: Status = Field(description="the serving recommendation's status (no budget: recommended or no_fit)")
    owned: Plan | None = Field(description="the training's cards (bought, not rented) at the serving load, nothing "
                               "priced again; None when the training is rented")
    plan: Plan | None = Field(description="the cheapest configuration in scope that serves the load")
    headline: Msg = Field(description="the serving recommendation's first sentence (said when nothing serves it)")
    people: int | None = Field(None, description="the people it is served to, when said")
    concurrency_assumed: bool = Field(False, description="the requests at once are a default for `people`")


class RecommendResult(BaseModel):
    model: str
    model_title: str | None = None
    params_total: int
    params_active: int
    mode: Literal["inference", "training"]
    status: Status
    recommended: str | None = Field(description="offer id of the plan (None when nothing fits)")
    plan: Plan | None
    headline: Msg = Field(description="the summary's first sentence")
    budget: BudgetVerdict
    scope: Scope
    alternatives: list[Plan] = Field(default_factory=list, description="other offers that fit, labelled in notes")
    changes: list[Change] = Field(default_factory=list, description="workload changes within budget, with effect")
    preference: Msg | None = Field(None, description="how the customer's GPU preference was honoured or not")
    compared: list[Plan] = Field(default_factory=list, description="the configurations the customer weighed "
                                 "against each other, each checked at the load, in the order said")
    compared_fp8: list[Plan] = Field(default_factory=list, description="with the weight format assumed, not said: "
                                     "a weighed configuration short of the load in 16-bit, in FP8 weights, when it "
                                     "holds it that way (same order, only those that do)")
    owned: Plan | None = Field(None, description="the customer's own cards (the preferred GPU, in the planned number), "
                               "checked as they are: whether they hold the load without buying anything")
    machines: int = Field(1, ge=1, description="identical workstations bought together; the plan is one of them")
    preference_change: Change | None = Field(None, description="the GPU asked for, short of the load: the first "
                                             "workload change (4-bit weights, LoRA...) with which it holds it")
    owned_change: Change | None = Field(None, description="the customer's own cards short of the load: the first "
                                        "workload change (LoRA, 8-bit AdamW, FP8...) with which they hold it")
    owned_fp8: Plan | None = Field(None, description="with the weight format assumed, not said, and the customer's own "
                                   "cards short of it in 16-bit: the same cards with FP8 weights, when they hold "
                                   "the load that way")
    cheaper_precision: Plan | None = Field(None, description="with the weight format assumed, not said: the cheapest "
                                           "plan in scope in FP8 weights when it costs less than the plan (an option "
                                           "to agree, its quality to validate)")
    faster: Plan | None = Field(None, description="a training job of more than a month on the plan: the same offer's "
                                "largest configuration, when it runs the job in half the time or less")
    deadline_hours: float | None = Field(None, description="the hours the job must end within, as asked")
    with_margin: Plan | None = Field(None, description="a plan that ends its job within its deadline with little to "
                                     "spare (over 4/5 of it): the cheapest that ends within 4/5 of it")
    options: list[Plan] = Field(description="every evaluated configuration, fitting first")
    offers: list[OfferVerdict]
    assumptions: list[Msg]
    evaluated: int = Field(description="configurations the search evaluated in all")
    serving_after: ServingAfter | None = Field(
        None, description="a fine-tune whose model is then served (RecommendRequest.serve_after): the training's "
        "configuration checked at the serving load, and what serves it")
