"""What a trace measures is linear in the batch: two traced batches predict a third exactly.

Storages are keyed by address; a block input freed during the forward once let a later storage at the same
address merge into it, so checkpoint bytes depended on the allocator (ConvNeXt bf16 at 64 px: 12 204 096
predicted for batch 8 against 12 228 672 traced). Phases also run several batches through one fake model
now, which must give what a fresh model per batch gave. (Live-set peaks are not asserted: the peak can move
to another kernel as the batch grows, which is why they are kept as an envelope of lines.)
"""

from __future__ import annotations

import pytest

pytest.importorskip("timm")

from sizer_agent.tools.vision import trace
from sizer_agent.tools.vision.models import resolve

FIELDS = ("forward_flops", "saved", "saved_cuda", "checkpoint_saved", "checkpoint_recompute", "inference_flops")


@pytest.mark.parametrize("model", ["timm/convnext_tiny", "torchvision/resnet18"])
def test_a_third_batch_lies_on_the_line_of_the_first_two(model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    library, name = resolve(model)
    monkeypatch.setattr(trace, "TRACE_BATCHES", (2, 4, 8))
    steps = trace._trace_batches(library, name, 1000, 64, "bfloat16")
    for field in FIELDS:
        two, four, eight = (getattr(step, field) for step in steps)
        assert eight == four + 2 * (four - two), field
