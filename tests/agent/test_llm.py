"""The LLM backend against a real HTTP server on 127.0.0.1 that replays canned OpenAI-style streams."""

from __future__ import annotations

import json
import socket
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sizer_agent.agent.events import AgentMessage, AnswerRecorded, QuestionAsked, ToolCalled, ToolReturned
from sizer_agent.agent.llm import LLMConfig, LLMEngine, make_engine, ungrounded_numbers
from sizer_agent.store import SessionStore
from sizer_agent.tools.registry import ToolRegistry


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def _helpers() -> Any:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("agent_conftest", Path(__file__).with_name("conftest.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


H = _helpers()
RECORD = json.dumps({"answers": {"customer": "Acme", "use_case": "online_serving", "model": "Llama-3.1-8B",
                                 "precision": "fp8", "concurrency": 32}})


def engine_for(server: Any, registry: ToolRegistry, **kwargs: Any) -> LLMEngine:
    return LLMEngine(LLMConfig(url=server.url, model="scripted", timeout_s=5), registry, lang="en", **kwargs)


def test_answers_recorded_through_the_tool_and_phrased_by_the_model(
    llm_server: Any, registry: ToolRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIZER_LLM_API_KEY", "secret-test-key")
    llm_server.script = [
        ("stream", H.tool_call_chunks("record_answers", RECORD)),
        ("stream", H.text_chunks("Noted: Llama-3.1-8B in fp8 for 32 users. How long are prompts and answers?")),
    ]
    streamed: list[str] = []
    engine = engine_for(llm_server, registry, on_text=streamed.append)
    engine.start()
    events = engine.handle("Acme here: chatbot on Llama 3.1 8B in fp8, 32 users")
    # the rules read the message first; the model's "Llama-3.1-8B" does not replace the registry id they found
    assert {e.field: e.value for e in of(events, AnswerRecorded) if e.field != "model_family"} == {
        "customer": "Acme", "use_case": "online_serving", "model": "meta-llama/Llama-3.1-8B-Instruct",
        "precision": "fp8", "concurrency": 32}
    (called,) = of(events, ToolCalled)
    (returned,) = of(events, ToolReturned)
    assert called.tool == returned.tool == "record_answers" and returned.ok
    kept = returned.result["kept_from_the_message"] if returned.result else {}
    assert kept == {"model": "meta-llama/Llama-3.1-8B-Instruct"}
    assert returned.result and returned.result["missing"][0] == "input_len"
    (question,) = of(events, QuestionAsked)
    assert question.question_id == "input_len" and question.text.startswith("Noted:")
    assert "".join(streamed) == question.text
    first = llm_server.requests[0]
    assert first["stream"] is True and first["model"] == "scripted"
    roles = [m["role"] for m in first["messages"]]
    assert roles.count("system") == 1 and roles[0] == "system"  # chat templates accept only a leading one
    assert '"next_question"' in first["messages"][0]["content"]
    assert {t["function"]["name"] for t in first["tools"]} == {"record_answers", "estimate_memory"}
    assert llm_server.headers[0]["Authorization"] == "Bearer secret-test-key"
    # the second request carries the tool result back to the model
    tool_messages = [m for m in llm_server.requests[1]["messages"] if m["role"] == "tool"]
    assert tool_messages and json.loads(tool_messages[0]["content"])["recorded"]
    assert engine.active


COMPLETE = json.dumps({"answers": {
    "customer": "Acme", "use_case": "online_serving", "model": "meta-llama/Llama-3.1-8B-Instruct",
    "precision": "fp8", "input_len": 2048, "output_len": 512, "context_len": 8192, "concurrency": 32,
    "growth_factor": 1.0, "ttft_ms": 500, "tpot_ms": 50, "framework": "vllm", "framework_version": "0.11",
    "num_gpus": 1, "deployment": "cloud", "ecc_required": False, "budget_eur": None}})


def test_a_complete_profile_is_sized_by_the_tools_whatever_the_model_does(
    llm_server: Any, registry: ToolRegistry
) -> None:
    llm_server.script = [
        ("stream", H.tool_call_chunks("record_answers", COMPLETE)),
        ("stream", H.text_chunks("Each GPU needs 83.4 GB: 70.6 GB of weights and 10.7 GB of KV cache.")),
    ]
    engine = engine_for(llm_server, registry)
    engine.start()
    events = engine.handle("everything at once")
    assert [e.tool for e in of(events, ToolCalled)] == ["record_answers", "estimate_memory"]
    sent_back = next(m for m in llm_server.requests[1]["messages"] if m["role"] == "tool")["content"]
    assert '"sizing_results"' in sent_back and "83400000000" in sent_back
    final = of(events, AgentMessage)[-1]
    assert final.tone == "info" and final.text.startswith("Each GPU needs 83.4 GB")  # grounded in the result


def test_malformed_tool_call_is_retried_with_the_validation_message(llm_server: Any, registry: ToolRegistry) -> None:
    llm_server.script = [
        ("stream", H.tool_call_chunks("record_answers", '{"answers": {"concurrency": ')),  # cut JSON
        ("stream", H.tool_call_chunks("record_answers", '{"answers": {"concurrency": 0}}')),  # invalid value
        ("stream", H.tool_call_chunks("record_answers", '{"answers": {"concurrency": 16}}')),
        ("stream", H.text_chunks("Recorded 16 concurrent requests.")),
    ]
    engine = engine_for(llm_server, registry)
    engine.start()
    events = engine.handle("the whole support desk")  # nothing the rules can read: the model's call decides
    returned = of(events, ToolReturned)
    assert [r.ok for r in returned] == [False, False, True]
    assert "not valid JSON" in (returned[0].error or "")
    assert "concurrency" in (returned[1].error or "")
    retry_prompt = [m for m in llm_server.requests[1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "not valid JSON" in retry_prompt
    assert engine.state.answers["concurrency"].value == 16
    assert engine.active


def test_the_model_adds_what_the_rules_missed_and_the_customers_words_win(
    llm_server: Any, registry: ToolRegistry
) -> None:
    """One tool call whose schema is the profile, merged with the rules' reading, validated the same way."""
    extraction = json.dumps({"answers": {"customer": "ACME Corp", "head_count": 40, "concurrency": 8,
                                         "precision": "int3"}})
    llm_server.script = [
        ("stream", H.tool_call_chunks("record_answers", extraction)),
        ("stream", H.text_chunks("Which precision do you serve in?")),
    ]
    engine = engine_for(llm_server, registry)
    engine.start()
    events = engine.handle("Acme here: a chatbot on Llama 3.1 8B for the whole sales team, maybe 8 at once")
    recorded = {e.field: e.value for e in of(events, AnswerRecorded)}
    assert recorded["customer"] == "Acme" and recorded["concurrency"] == 8  # read by the rules, kept
    assert recorded["head_count"] == 40  # only the model read it: added
    assert "precision" not in recorded  # validated like any answer: "int3" is refused
    (returned,) = of(events, ToolReturned)
    assert not returned.ok and "precision" in (returned.error or "")
    assert returned.result and returned.result["kept_from_the_message"] == {"customer": "Acme"}
    assert "head_count" in returned.result["recorded"]
    assert engine.state.answers["head_count"].raw_text.startswith("Acme here")


def test_the_stream_is_read_by_the_shared_sse_decoder(monkeypatch: pytest.MonkeyPatch, registry: ToolRegistry) -> None:
    """No second hand-written parser: every byte of the stream goes through tools.bench.sse.SSEDecoder."""
    from sizer_agent.tools.bench import sse

    fed: list[bytes] = []
    original = sse.SSEDecoder.feed

    def spy(self: sse.SSEDecoder, data: bytes) -> list[bytes]:
        fed.append(data)
        return original(self, data)

    monkeypatch.setattr(sse.SSEDecoder, "feed", spy)
    body = b"".join(f"data: {json.dumps(c)}\r\n\r\n".encode() for c in H.text_chunks("Which use case?"))
    body += b": keep-alive comment\n\ndata: [DONE]\n\n"
    client = httpx.Client(transport=httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)))
    engine = LLMEngine(LLMConfig(url="http://127.0.0.1:9/v1", model="m"), registry, lang="en", client=client)
    engine.start()
    events = engine.handle("hello")
    assert of(events, QuestionAsked)[-1].text == "Which use case?" and engine.active
    assert b"".join(fed) == body


def test_tool_calls_still_malformed_after_retries_fall_back(llm_server: Any, registry: ToolRegistry) -> None:
    bad = ("stream", H.tool_call_chunks("estimate_memory", '{"model": 12, "concurrency": "many"}'))
    llm_server.script = [bad, bad, bad, bad]
    engine = engine_for(llm_server, registry)
    engine.start()
    events = engine.handle("Acme")
    errors = [m for m in of(events, AgentMessage) if m.tone == "error"]
    assert errors and "built-in engine" in errors[0].text and "malformed" in errors[0].text
    # the deterministic engine answered the same message
    assert engine.state.answers["customer"].value == "Acme"
    assert of(events, QuestionAsked)[-1].question_id == "use_case"
    assert not engine.active


def test_dropped_connection_falls_back_without_losing_the_session(
    llm_server: Any, registry: ToolRegistry, store: SessionStore
) -> None:
    sid = store.create_session(lang="en")
    llm_server.script = [
        ("stream", H.tool_call_chunks("record_answers", RECORD)),
        ("stream", H.text_chunks("Noted. Prompt and answer lengths?")),
        ("drop", H.text_chunks("Thanks, so 2k")),
    ]
    engine = engine_for(llm_server, registry, on_event=store.recorder(sid))
    engine.start()
    engine.handle("Acme, chatbot, Llama 3.1 8B fp8, 32 users")
    events = engine.handle("2k / 512")
    error = next(m for m in of(events, AgentMessage) if m.tone == "error")
    assert "built-in engine" in error.text
    assert {e.field: e.value for e in of(events, AnswerRecorded)} == {"input_len": 2048, "output_len": 512}
    assert not engine.active
    requests = len(llm_server.requests)
    engine.handle("x2")  # offline from now on: no more HTTP
    assert len(llm_server.requests) == requests
    stored = store.answers(sid)
    assert stored["concurrency"].value == 32 and stored["input_len"].value == 2048
    assert stored["growth_factor"].value == 2.0


def test_server_error_falls_back(llm_server: Any, registry: ToolRegistry) -> None:
    llm_server.script = [("status", 503)]
    engine = engine_for(llm_server, registry)
    engine.start()
    events = engine.handle("Acme")
    assert "HTTP 503" in next(m for m in of(events, AgentMessage) if m.tone == "error").text
    assert engine.state.answers["customer"].value == "Acme"


def test_connection_refused_falls_back(registry: ToolRegistry) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    engine = LLMEngine(LLMConfig(url=f"http://127.0.0.1:{port}/v1", model="m", timeout_s=2), registry, lang="en")
    engine.start()
    events = engine.handle("Acme")
    assert not engine.active and "ConnectError" in (engine.failure or "")
    assert of(events, QuestionAsked)[-1].question_id == "use_case"


def test_non_streaming_json_reply_is_accepted(llm_server: Any, registry: ToolRegistry) -> None:
    llm_server.script = [("json", {"choices": [{"message": {"role": "assistant", "content": "Which use case?"}}]})]
    engine = engine_for(llm_server, registry)
    engine.start()
    events = engine.handle("hello")
    assert of(events, QuestionAsked)[0].text == "Which use case?"


def test_figures_not_from_a_tool_are_removed(llm_server: Any, registry: ToolRegistry) -> None:
    llm_server.script = [("stream", H.text_chunks("You will need 97 GB and 3 cards worth 41000 euros."))]
    engine = engine_for(llm_server, registry)
    engine.start()
    events = engine.handle("hello")
    message = of(events, AgentMessage)[-1]
    assert message.tone == "error" and "97" in message.text and "41000" in message.text
    assert "removed" in message.text
    assert not of(events, QuestionAsked)


def test_grounding_accepts_unit_conversions() -> None:
    result = {"per_gpu": {"total_bytes": 83_400_000_000}, "kv": 163840}
    assert ungrounded_numbers("Memory per GPU: 83.4 GB, KV 160 KiB per token", [result]) == []
    assert ungrounded_numbers("about 90 GB", [result]) == ["90"]


def test_make_engine_picks_the_backend(registry: ToolRegistry) -> None:
    assert type(make_engine(None, None, registry=registry)).__name__ == "DeterministicEngine"
    assert isinstance(make_engine("http://127.0.0.1:9/v1", "m", registry=registry), LLMEngine)


chunk = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(
        st.sampled_from(["choices", "delta", "content", "tool_calls", "index", "id", "function", "name",
                         "arguments", "error", "message"]), inner, max_size=4)),
    max_leaves=12,
)
sse_line = st.one_of(chunk.map(lambda c: "data: " + json.dumps(c)), st.just("data: [DONE]"), st.text(max_size=20))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(sse_line, max_size=6))
def test_any_stream_gives_events_never_an_exception(registry: ToolRegistry, lines: list[str]) -> None:
    body = "\n\n".join(lines).encode()

    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    client = httpx.Client(transport=httpx.MockTransport(reply))
    engine = LLMEngine(LLMConfig(url="http://127.0.0.1:9/v1", model="m"), registry, lang="en", client=client)
    engine.start()
    assert engine.handle("Acme")


def test_language_switch_reaches_the_prompt(llm_server: Any, registry: ToolRegistry) -> None:
    llm_server.script = [("stream", H.text_chunks("Quel usage ?"))]
    engine = engine_for(llm_server, registry)
    engine.start()
    engine.set_lang("fr")
    engine.handle("bonjour")
    assert "Speak French" in llm_server.requests[0]["messages"][0]["content"]
    assert engine.lang == "fr" and engine.missing()[0] == "customer" and not engine.complete
