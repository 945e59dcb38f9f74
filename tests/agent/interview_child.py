"""A whole interview in its own process, through the app's store backend, for the kill -9 tests.

`python interview_child.py DB new|SESSION_ID PAUSE_AT`: prints `SESSION id` (a new one: when its first answer
is stored), then `EVENT n kind tool` once each
event is stored (the recorder stores before it forwards), answers every question from ANSWERS, and prints
`DONE` when no question is left. With PAUSE_AT = n it stops after the n-th event, so that the parent's
SIGKILL lands exactly there (stored, and nothing after it).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from sizer_agent.agent.events import AnswerRecorded
from sizer_agent.app.production import StoreBackend

ANSWERS = {  # one serving interview, answered as a consultant would
    "customer": "Acme", "use_case": "online serving", "model": "Llama 3.1 8B", "precision": "bf16",
    "context_len": "8k", "concurrency": "16 users", "input_len": "2k", "output_len": "512",
    "growth_factor": "x1", "ttft_ms": "500 ms", "tpot_ms": "50 ms", "framework": "vLLM",
    "framework_version": "0.11", "num_gpus": "1", "deployment": "server", "rendering_cad": "no",
    "budget_eur": "no budget", "ecc_required": "no", "power_limit_w": "no limit", "rack_units": "no limit",
}


def main() -> int:
    db, which, pause_at = sys.argv[1], sys.argv[2], int(sys.argv[3])
    backend = StoreBackend(db)
    count = 0
    told = which != "new"

    def on_event(event: Any) -> None:
        nonlocal count, told
        if not told:  # a new session has its id once its first answer is stored
            print(f"SESSION {opened.id}", flush=True)
            told = True
        count += 1
        tool = getattr(event, "tool", "") or (event.field if isinstance(event, AnswerRecorded) else "")
        print(f"EVENT {count} {event.kind} {tool}", flush=True)
        if count == pause_at:
            time.sleep(120)  # the parent kills us here

    if which == "new":
        opened, _ = backend.create_session("en")
    else:
        opened = backend.open_session(which, "en")
    if which != "new":
        print(f"SESSION {opened.id}", flush=True)
    engine = opened.engine
    while engine.state.current_question is not None:
        question = engine.state.current_question
        backend.answer(opened, ANSWERS[question], emit=on_event)
    print("DONE", flush=True)
    backend.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
