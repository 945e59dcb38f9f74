"""The rules, in the order they read a message. Order matters where words could be read twice: the
customer's name and model names first ("Acme Cloud" is a name, "Mixtral 8x7B" a model), GPUs before the
growth factor ("8x H200" is not "x8"), the optimizer before the precision ("AdamW 8-bit"), the use case
before the framework ("fine-tuned with Unsloth, served with vLLM")."""

from __future__ import annotations

from sizer_agent.agent.understanding import (
    batch_job,
    compared,
    customer,
    dollar_budget,
    exclusions,
    gpus,
    latency,
    lengths,
    load,
    machines,
    model_size,
    models,
    ownership,
    page_lengths,
    periodic_budget,
    platform,
    software,
    training,
    usecase,
    vision,
)
from sizer_agent.agent.understanding.rules import Rule

RULES: tuple[Rule, ...] = (
    customer.CUSTOMER,
    vision.VISION_MODEL,  # before numbers: "ResNet-50" names a network, not 50 of anything
    models.MODEL,
    models.REVISION,
    model_size.MODEL_SIZE,  # reads without claiming, only when no model was named
    software.SERVER_URL,
    gpus.GPUS,
    load.IMAGE_RESOLUTION,  # before lengths: "512x512 inputs" is a resolution
    training.OPTIMIZER,
    software.PRECISION,
    training.COUNT_TIMES_TOKENS,  # before the lengths, reading without claiming: examples x tokens each
    lengths.PAIR,
    lengths.CONTEXT,
    lengths.INPUT,
    lengths.OUTPUT,
    page_lengths.INPUT_PAGES,  # after the lengths in tokens, which win
    page_lengths.OUTPUT_PAGES,
    latency.TTFT,
    latency.TPOT,
    latency.SLO_PERCENTILE,  # reads without claiming: the percentile the targets are said at
    training.BATCH_SIZE,  # before the load: "des batchs de 128 requêtes" is a batch, not 128 users
    load.LOAD,
    training.CHECKPOINT,
    training.TRAINED_SIZE,  # before the general size: the cleaned size beside a raw one
    training.DATASET,
    training.DATASET_TOKENS,  # reads without claiming: a training set counted in tokens
    training.EPOCHS,  # reads without claiming: passes over it
    dollar_budget.BUDGET_USD,  # before the budgets: '$60k' is no euro figure, but a budget all the same
    periodic_budget.BUDGET_PER_MONTH,  # before the budget: '€15k per month' is no total
    platform.BUDGET,
    platform.POWER,
    platform.RACK_UNITS,
    load.GROWTH,
    usecase.USE_CASE,
    usecase.USE_CASE_INFERRED,  # after every said workload and the load: only when nothing says one
    software.FRAMEWORK,  # after the use case: a serving engine for serving, a training stack for training
    platform.DEPLOYMENT,
    exclusions.CLOUD_EXCLUDED,
    platform.RENDERING_CAD,
    platform.ECC,
    batch_job.JOB_REQUESTS,  # last, reading without claiming: a count of documents only
    batch_job.ONE_OFF,  # after the job's count, which also says whether it recurs
    batch_job.DEADLINE,
    batch_job.RETRAIN_RUNS,  # after the use case: a training rerun on a schedule
    ownership.GPUS_OWNED,  # after the GPUs: whose cards they are
    compared.COMPARED_GPUS,  # reads the customer's words: cards weighed against each other
    machines.WORKSTATIONS,  # reads without claiming: identical seats bought together
)
