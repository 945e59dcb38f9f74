"""`sizer-agent sessions ...` and `sizer-agent intake ...` run as real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]

COMPLETE = {
    "customer": "Acme", "lang": "en", "use_case": "online_serving", "model": "Llama 3.1 8B Instruct",
    "precision": "fp8", "context_len": "8k", "input_len": "2k", "output_len": 512, "concurrency": 32,
    "growth_factor": "x2", "ttft_ms": "500 ms", "tpot_ms": "I don't know", "framework": "vllm",
    "framework_version": "0.11.0", "num_gpus": 1, "deployment": "server", "ecc_required": "yes",
    "budget_eur": "no limit", "power_limit_w": "3 kW", "rack_units": 4,
}


def cli(*args: str, db: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sizer_agent", *args], cwd=ROOT, capture_output=True, text=True, input=stdin,
        env={"PYTHONPATH": str(ROOT), "SIZER_AGENT_DB": str(db), "PATH": "/usr/bin:/bin"}, timeout=60,
    )


def proposal_md(db: Path, lang: str) -> str:
    """Session 1 of `db` written as a Markdown proposal in `lang`; the command must succeed."""
    out = db.with_suffix(".md")
    result = cli("propose", "1", "--lang", lang, "--format", "md", "-o", str(out), db=db)
    assert result.returncode == 0, result.stderr
    return out.read_text()


def test_intake_stores_a_session_and_sessions_commands_read_it(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    answers = tmp_path / "answers.yaml"
    answers.write_text(yaml.safe_dump(COMPLETE))
    result = cli("intake", "--answers", str(answers), "--json", db=db)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["ok"] and out["session_id"] == 1 and out["assumed"] == ["tpot_ms"]
    assert out["profile"]["context_len"] == 8192 and out["profile"]["budget_eur"] is None
    assert out["profile"]["power_limit_w"] == 3000.0

    second = tmp_path / "second.json"
    second.write_text(json.dumps({**COMPLETE, "customer": "Globex"}))
    assert cli("intake", "--answers", str(second), db=db).returncode == 0

    listing = json.loads(cli("sessions", "list", "--json", db=db).stdout)
    text = cli("sessions", "list", db=db).stdout.splitlines()  # a person is told which file was read
    assert str(db) in text[0] and len(text) == 3 and "Globex" in text[2]
    assert [(s["id"], s["title"]) for s in listing] == [(1, "Acme"), (2, "Globex")]
    assert all({"id", "created", "title"} <= set(s) for s in listing)
    assert listing[0]["created"] <= listing[1]["created"]

    shown = cli("sessions", "show", "1", db=db)
    assert shown.returncode == 0 and "8,192 tokens" in shown.stdout and "(assumed)" in shown.stdout

    exported = tmp_path / "one.json"
    assert cli("sessions", "export", "1", "-o", str(exported), db=db).returncode == 0
    data = json.loads(exported.read_text())
    assert data["format"] == "sizer-agent-session/1" and data["answers"]["tpot_ms"]["assumed"] is True

    other_db = tmp_path / "other.db"
    imported = cli("sessions", "import", str(exported), "--json", db=other_db)
    assert imported.returncode == 0 and json.loads(imported.stdout) == {"id": 1}
    again = json.loads(cli("sessions", "show", "1", "--json", db=other_db).stdout)
    assert again["answers"] == data["answers"]

    assert cli("sessions", "delete", "1", db=db).returncode == 0
    assert [s["id"] for s in json.loads(cli("sessions", "list", "--json", db=db).stdout)] == [2]
    missing = cli("sessions", "show", "1", db=db)
    assert missing.returncode == 2 and "no session 1" in missing.stderr and "Traceback" not in missing.stderr


def test_intake_lists_every_problem_at_once_and_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    answers = tmp_path / "bad.yaml"
    answers.write_text(yaml.safe_dump({"use_case": "finetune_lora", "model": "Mistral 7B", "concurrency": -3,
                                       "context_len": "beaucoup", "colour": "blue"}))
    result = cli("intake", "--answers", str(answers), db=db)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    for needle in ("context_len: invalid", "colour: unknown_field", "concurrency: invalid",
                   "optimizer: missing", "customer: missing", "nothing stored"):
        assert needle in result.stderr, needle
    listing = json.loads(cli("sessions", "list", "--json", db=db).stdout)
    assert listing == []

    as_json = json.loads(cli("intake", "--answers", str(answers), "--json", db=db).stdout)
    assert not as_json["ok"] and as_json["session_id"] is None
    assert {p["field"] for p in as_json["problems"]} >= {"context_len", "colour", "concurrency", "optimizer"}


def test_corrupted_database_is_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    db.write_bytes(b"this is not a database at all" * 100)
    result = cli("sessions", "list", db=db)
    assert result.returncode == 2  # bad input: nothing changed
    assert "unreadable" in result.stderr and "left untouched" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert db.read_bytes() == b"this is not a database at all" * 100


def test_bad_import_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}')
    result = cli("sessions", "import", str(bad), db=db)
    assert result.returncode == 2 and "not a session export" in result.stderr
    bad.write_text("{oops")
    assert cli("sessions", "import", str(bad), db=db).returncode == 2


def test_salvage_command(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.db"
    answers = tmp_path / "answers.yaml"
    answers.write_text(yaml.safe_dump(COMPLETE))
    assert cli("intake", "--answers", str(answers), db=damaged).returncode == 0
    raw = bytearray(damaged.read_bytes())
    raw[0:16] = b"not sqlite at al"
    damaged.write_bytes(bytes(raw))
    listed = cli("sessions", "list", db=damaged)
    assert listed.returncode == 2 and "sessions salvage" in listed.stderr
    raw[0:16] = b"SQLite format 3\x00"  # the header is back, the application id check still passes
    damaged.write_bytes(bytes(raw))
    fresh = tmp_path / "fresh.db"
    result = cli("sessions", "salvage", str(damaged), "--db", str(fresh), db=tmp_path / "unused.db")
    assert result.returncode == 0, result.stderr
    assert "-> session 1" in result.stdout
    assert json.loads(cli("sessions", "list", "--json", db=fresh).stdout)[0]["title"] == "Acme"


def test_a_stored_session_feeds_the_proposal(tmp_path: Path) -> None:
    """The contract with the proposal renderer: `propose ID --db` reads what `intake` stored."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("sizer_agent.proposal") is None:
        pytest.skip("the proposal renderer is not in this checkout")
    db = tmp_path / "s.db"
    answers = tmp_path / "answers.yaml"
    answers.write_text(yaml.safe_dump(COMPLETE))
    assert cli("intake", "--answers", str(answers), db=db).returncode == 0
    out = tmp_path / "proposal.md"
    result = cli("propose", "1", "--db", str(db), "-o", str(out), db=db)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert "Acme" in text and "8k" in text  # the answer as it was said


def test_cli_store_env_name_matches_the_store() -> None:
    """The CLI names the variable without importing the store (start-up time); both must agree."""
    from sizer_agent.cli.commands import _store_args
    from sizer_agent.store import ENV_DB

    assert _store_args.ENV_DB == ENV_DB


BRIEF = """Hi team,

We're Acme Robotics, a 40-person startup. We'd like to serve Qwen2.5 7B Instruct as an internal
assistant: roughly 10 people at the same time, prompts around 2k tokens, answers ~300 tokens.
Budget: €40k. Ideally two L40S in a tower under the desk.

Thanks,
Dana
"""


def test_intake_brief_prints_each_field_with_its_words_and_the_open_questions(tmp_path: Path) -> None:
    brief = tmp_path / "brief.txt"
    brief.write_text(BRIEF)
    result = cli("intake", "--brief", str(brief), db=tmp_path / "s.db")
    assert result.returncode == 0, result.stderr
    assert "Understood from the brief" in result.stdout
    assert "Acme Robotics" in result.stdout and "“two L40S”" in result.stdout
    assert "about" in result.stdout  # "roughly 10 people": approximate
    assert "Questions still open" in result.stdout and "What maximum time to first token" in result.stdout
    assert not (tmp_path / "s.db").exists()  # a brief alone stores nothing

    french = cli("intake", "--brief", "-", "--json", db=tmp_path / "s.db", stdin=(
        "Bonjour, pour la société Dupont Industrie on voudrait héberger Llama 3.1 70B en FP8, "
        "une vingtaine d'utilisateurs en même temps, budget autour de 60k€ HT."))
    out = json.loads(french.stdout)
    assert french.returncode == 0 and out["ok"] and out["lang"] == "fr" and out["source"] == "-"
    fields = {f["field"]: f for f in out["understood"]}
    assert fields["concurrency"]["value"] == 20 and fields["concurrency"]["approximate"] is True
    assert fields["customer"]["words"] == "Dupont Industrie" and fields["budget_eur"]["value"] == 60000
    assert out["profile"]["model"] == "meta-llama/Llama-3.1-70B-Instruct"
    assert "input_len" in [q["field"] for q in out["open"]] and "model" not in [q["field"] for q in out["open"]]


def test_intake_brief_and_answers_store_a_session_where_the_answers_win(tmp_path: Path) -> None:
    brief = tmp_path / "brief.txt"
    brief.write_text(BRIEF)
    answers = tmp_path / "answers.yaml"
    answers.write_text(yaml.safe_dump({
        "lang": "en", "customer": "Acme (EU branch)", "precision": "bf16", "context_len": "8k",
        "growth_factor": "I don't know", "ttft_ms": "500 ms", "tpot_ms": "I don't know", "framework": "vllm",
        "framework_version": "0.11", "rendering_cad": "no", "ecc_required": "no", "power_limit_w": "no limit"}))
    result = cli("intake", "--brief", str(brief), "--answers", str(answers), "--no-tools", "--json",
                 db=tmp_path / "s.db")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["ok"] and out["session_id"] == 1 and out["assumed"] == ["growth_factor", "tpot_ms"]
    profile = out["profile"]
    assert profile["customer"] == "Acme (EU branch)"  # the answers file wins
    assert profile["model"] == "Qwen/Qwen2.5-7B-Instruct" and profile["concurrency"] == 10
    assert profile["head_count"] == 40 and profile["gpu_preference"] == "l40s" and profile["num_gpus"] == 2
    stored = json.loads(cli("sessions", "export", "1", db=tmp_path / "s.db").stdout)
    assert stored["answers"]["gpu_preference"]["raw_text"] == "L40S"  # each field keeps the brief's words
    assert stored["answers"]["head_count"]["value"] == 40


def test_bad_briefs_get_one_line_and_exit_2(tmp_path: Path) -> None:
    cases = {
        "missing.txt": None,
        "binary.bin": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "empty.txt": b"  \n\t\n",
        "huge.txt": b"Llama 3.1 8B, 32 users. " * 5000,
        "latin1.txt": "Budget 25 000 €, modèle Llama".encode("latin-1", "replace"),
    }
    for name, content in cases.items():
        path = tmp_path / name
        if content is not None:
            path.write_bytes(content)
        result = cli("intake", "--brief", str(path), db=tmp_path / "s.db")
        assert result.returncode == 2, (name, result.stdout, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1 and "brief" in result.stderr, (name, result.stderr)
        assert "Traceback" not in result.stderr
    neither = cli("intake", db=tmp_path / "s.db")
    assert neither.returncode == 2 and "--brief" in neither.stderr


def test_a_brief_alone_is_sized_with_assume_defaults_and_the_proposal_quotes_its_words(tmp_path: Path) -> None:
    brief = tmp_path / "brief.txt"
    brief.write_text(BRIEF)
    result = cli("intake", "--brief", str(brief), "--assume-defaults", "--json", db=tmp_path / "s.db")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["ok"] and out["session_id"] == 1
    # what the brief did not say is assumed and listed as such; what it said is not
    assert {"ttft_ms", "tpot_ms", "context_len"} <= set(out["assumed"])
    assert not {"concurrency", "model", "budget_eur"} & set(out["assumed"])
    tools = [e["tool"] for e in out["events"] if e.get("kind") == "tool_result" and e.get("ok")]
    assert "recommend" in tools
    document = cli("propose", "1", "--format", "md", "--lang", "en", "--output", str(tmp_path / "p.md"),
                   db=tmp_path / "s.db")
    assert document.returncode == 0, document.stderr
    text = (tmp_path / "p.md").read_text()
    assert "roughly 10 people at the same time" in text or "10 people at the same time" in text
    assert "We're Acme Robotics, a 40-person startup" not in text  # a field quotes its words, not the e-mail


def test_assume_defaults_still_refuses_a_brief_without_a_model(tmp_path: Path) -> None:
    result = cli("intake", "--brief", "-", "--assume-defaults", db=tmp_path / "s.db",
                 stdin="Hello, we need a chatbot for 30 people at once, budget 50k€.")
    assert result.returncode == 2
    assert "model" in result.stderr and not (tmp_path / "s.db").exists()


def test_a_brief_that_asks_for_no_ai_is_told_what_the_tool_sizes(tmp_path: Path) -> None:
    # a VFX studio's rendering workstations, "no AI at all": the open questions are listed, and a line says the
    # brief is outside what the tool sizes rather than leaving the customer to guess why a model is asked
    result = cli("intake", "--brief", "-", "--assume-defaults", db=tmp_path / "s.db",
                 stdin="We need 8 workstations for Houdini and Redshift rendering, no AI at all. €10k per seat.")
    assert result.returncode == 2 and not (tmp_path / "s.db").exists()
    assert "the brief names no AI workload" in result.stderr
    plain = cli("intake", "--brief", "-", "--assume-defaults", db=tmp_path / "t.db",
                stdin="We need 8 workstations for Houdini and Redshift rendering. €10k per seat.")
    assert plain.returncode == 2 and "no AI workload" not in plain.stderr


def test_escape_sequences_in_stored_text_are_shown_not_run(tmp_path: Path) -> None:
    """A customer name is stored as given; the terminal gets its control bytes as visible text."""
    db = tmp_path / "s.db"
    hostile = "Acme\x1b]0;pwned\x07\x1b[2J\x9b31m"
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({**COMPLETE, "customer": hostile}))
    assert cli("intake", "--answers", str(answers), db=db).returncode == 0
    exported = json.loads(cli("sessions", "export", "1", db=db).stdout)
    assert exported["answers"]["customer"]["value"] == hostile  # stored byte for byte
    for args in (("sessions", "list"), ("sessions", "show", "1")):
        out = cli(*args, db=db).stdout
        assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out, args
        assert "Acme\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m" in out, args


def test_intake_offers_competing_values_in_the_catalogue_words(tmp_path: Path) -> None:
    # "vLLM ou SGLang" is a choice still open: shown back as the customer wrote the products, and kept as
    # ids for scripts
    brief = "Nous voulons servir Llama 3.1 8B avec vLLM ou SGLang, pas encore tranché, 20 utilisateurs."
    shown = cli("intake", "--brief", "-", db=tmp_path / "s.db", stdin=brief)
    assert shown.returncode == 0, shown.stderr
    assert "(vLLM ou SGLang)" in shown.stdout, shown.stdout
    scripted = cli("intake", "--brief", "-", "--json", db=tmp_path / "s.db", stdin=brief)
    out = json.loads(scripted.stdout)
    assert out["to_confirm"] == ["framework"] and out["candidates"]["framework"] == ["vllm", "sglang"]


def test_a_brief_that_refuses_the_cloud_is_never_answered_with_a_rental(tmp_path: Path) -> None:
    # a law firm's confidentiality rule (secret professionnel): no offer rented in the cloud may be recommended,
    # and the document says why the cloud rows are outside the scope
    brief = ("Cabinet Marceau Avocats : assistant RAG interne sur Mistral Small 3.1 24B, une quinzaine de "
             "personnes en simultané, questions de 3000 tokens, réponses de 400. Pas de cloud, données "
             "confidentielles. Budget autour de 35 000 € HT.")
    result = cli("intake", "--brief", "-", "--assume-defaults", "--json", db=tmp_path / "s.db", stdin=brief)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    fields = {f["field"]: f for f in out["brief"]["understood"]}
    assert fields["cloud_excluded"]["value"] is True and fields["cloud_excluded"]["words"] == "Pas de cloud"
    assert "deployment" in out["assumed"]
    text = proposal_md(tmp_path / "s.db", "fr")
    summary = text.split("## 1.")[0]
    assert "cloud (CLOUD-" not in summary.split("Autres")[0]  # the plan is bought, not rented
    assert "| Cloud exclu | oui | donné | Pas de cloud |" in text
    assert "le cloud étant exclu" in text


def test_a_one_off_overnight_fine_tune_rented_only_is_sized_on_its_tokens_and_priced_per_run(tmp_path: Path) -> None:
    # A law firm's LoRA of Mistral 7B on 40 million tokens, once, overnight, renting only: the plan is a rental
    # (nothing bought), its epoch is the 40 million tokens said, it ends within the night (8 h), and the run
    # costs a few euros (hours x hourly price), not three years of rental
    brief = ("Bonjour, on veut fine-tuner Mistral 7B en LoRA sur 20 000 exemples (environ 40 millions de tokens), "
             "une seule fois, et ça doit tourner en une nuit. Pas d'achat de matériel, location uniquement. "
             "Cabinet Verlaine.")
    result = cli("intake", "--brief", "-", "--assume-defaults", "--json", db=tmp_path / "s.db", stdin=brief)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    fields = {f["field"]: f for f in out["brief"]["understood"]}
    assert fields["deployment"]["value"] == "cloud" and fields["dataset_tokens"]["value"] == 40_000_000
    assert fields["job_recurring"]["value"] is False and fields["deadline_hours"]["value"] == 8.0
    assert "dataset_size_bytes" not in out["assumed"]  # the tokens answer the dataset question
    text = proposal_md(tmp_path / "s.db", "fr")
    summary = text.split("## 1.")[0]
    assert "instance cloud" in summary.split("Autres")[0]
    assert "Une époque de 40 000 000 tokens" in summary.replace("\u202f", " ")
    assert "40 000 000 tokens (tels qu'indiqués)" in text.replace("\u202f", " ")


def test_a_service_for_a_whole_organisation_is_assumed_to_need_ecc_and_gets_no_geforce_card(tmp_path: Path) -> None:
    # A hospital's RAG assistant for 2,000 staff, about 100 at once: a service that runs around the clock, which
    # an expert puts on ECC cards (seed 002, expert notes) — not on two GeForce RTX 5090 under a desk. Five
    # analysts sharing one workstation keep every card in the comparison.
    brief = ("Le CHU de Valmont souhaite déployer un assistant RAG interne sur Llama 3.1 8B Instruct pour ses 2000 "
             "agents, une centaine en simultané au pic. Données de santé : aucun cloud possible. Budget 40 k€ HT.")
    result = cli("intake", "--brief", "-", "--assume-defaults", "--json", db=tmp_path / "s.db", stdin=brief)
    assert result.returncode == 0, result.stderr
    text = proposal_md(tmp_path / "s.db", "fr")
    assert "| ECC exigée | oui | supposé |" in text
    assert "GeForce" not in text.split("## 1.")[0]  # neither the plan nor an alternative in the summary
    team = ("Five analysts at Brightline want an internal chat on Llama 3.1 8B Instruct, 3 at once, "
            "in-house.")
    small = cli("intake", "--brief", "-", "--assume-defaults", "--json", db=tmp_path / "t.db", stdin=team)
    assert small.returncode == 0, small.stderr
    assert "| ECC required | no | assumed |" in proposal_md(tmp_path / "t.db", "en")


def test_yolo_without_its_size_is_asked_and_48_cameras_get_a_server_not_an_8_gpu_node(tmp_path: Path) -> None:
    # "YOLOv8" names five networks from 3 to 68 M parameters: the size is asked, the cameras still read. Once
    # answered (v8m), 48 cameras at 15 fps (720 images/s at YOLO's own 640 px) need a small server: with a
    # 20 kEUR budget, a 2-card server on quote whose cards cost 14.7 kEUR is the plan, not a 271 kEUR 8-GPU node
    brief = ("Bonjour, nous sommes la start-up Vigilens. Nous voulons faire de la détection d'objets (YOLOv8) sur "
             "48 caméras en 1080p à 15 images/s, en temps réel, sur site (entrepôt). Budget 20 k€.")
    asked = cli("intake", "--brief", "-", "--json", db=tmp_path / "a.db", stdin=brief)
    out = json.loads(asked.stdout)
    assert out["suggestions"]["vision_model"] == ["yolov8n", "yolov8s", "yolov8m", "yolov8l", "yolov8x"]
    fields = {f["field"]: f["value"] for f in out["understood"]}
    assert fields["images_per_s"] == 720 and fields["vision_mode"] == "inference"
    answers = tmp_path / "answers.yaml"
    answers.write_text("vision_model: yolov8m\n")
    result = cli("intake", "--brief", "-", "--answers", str(answers), "--assume-defaults", db=tmp_path / "s.db",
                 stdin=brief)
    assert result.returncode == 0, result.stderr
    text = proposal_md(tmp_path / "s.db", "fr")
    summary = text.split("## 1.")[0].replace("\u202f", " ").replace("\u00a0", " ")
    plan = summary.split("Configuration recommandée")[1].split(".")[0]
    assert "sur devis" in plan and "8 GPU" not in plan
    assert "sous le budget de 20 000 €" in summary and "640 px" in summary


def test_a_yolo_family_with_no_size_is_sized_on_the_middle_one_when_defaults_are_assumed(tmp_path: Path) -> None:
    # "a YOLO-style detector" with no size: asked in the interview; with --assume-defaults (or "I don't know") the
    # middle of YOLOv8's n–x range, yolov8m, stands for it, said as an assumption — not a stop at "which network?"
    brief = ("We run quality inspection for a bottling plant. We need to train a YOLO-style detector on 200,000 "
             "images at 1280 px, about 300 epochs, finished within two weeks. Budget up to €20k.")
    result = cli("intake", "--brief", "-", "--assume-defaults", "--json", db=tmp_path / "s.db", stdin=brief)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["profile"]["vision_model"] == "yolov8m" and "vision_model" in out["assumed"]
    assert out["profile"]["vision_family"] == "yolov8"
    # a YOLOv5 is another network the tools do not build: still asked, never replaced by a v8
    other = cli("intake", "--brief", "-", "--assume-defaults", "--json", db=tmp_path / "t.db",
                stdin=brief.replace("a YOLO-style detector", "a YOLOv5s detector"))
    assert other.returncode != 0 and any(p["field"] == "vision_model" for p in json.loads(other.stdout)["problems"])


def test_a_model_pre_trained_from_scratch_is_sized_on_the_published_shape_of_its_size(tmp_path: Path) -> None:
    # "pre-train a 7B model from scratch": no registry model is theirs, but a 7B dense decoder's memory is a
    # Llama-2-7B's (6.7 B parameters), assumed and said so; from scratch, every weight trains (no LoRA knob);
    # a 13B with no published shape within 30 % is still asked
    brief = ("Quantara here. We plan to pre-train a 7B model from scratch on about 300B tokens, bf16, sequence "
             "length 4096, within 6 weeks. Renting is fine.")
    result = cli("intake", "--brief", "-", "--assume-defaults", "--json", db=tmp_path / "s.db", stdin=brief)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["profile"]["model"] == "meta-llama/Llama-2-7b-hf" and "model" in out["assumed"]
    call = next(e for e in out["events"] if e["kind"] == "tool_call" and e["tool"] == "recommend")
    assert call["arguments"]["workload"]["from_scratch"] is True
    assert "LoRA" not in proposal_md(tmp_path / "s.db", "en")
    other = cli("intake", "--brief", "-", "--assume-defaults", db=tmp_path / "t.db",
                stdin="We plan to pre-train a 13B model from scratch on 300B tokens.")
    assert other.returncode == 2 and "model" in other.stderr


def test_a_brief_naming_only_a_model_beside_cad_work_is_sized_as_a_served_model_on_its_engine(tmp_path: Path) -> None:
    # "un petit LLM type Llama 3.1 8B" beside Revit: no use case said, the model only suggested. With
    # --assume-defaults the suggestion is taken and serving is assumed — and the engine assumed after it is the
    # serving one (vLLM), not the training stack a missing use case would give
    brief = tmp_path / "brief.txt"
    brief.write_text("Cabinet d'architectes Rive Gauche, 8 architectes. On veut remplacer nos postes : Revit, "
                     "Twinmotion, et un peu d'IA (un petit LLM type Llama 3.1 8B). Budget 12 000 € par poste.",
                     encoding="utf-8")
    result = cli("intake", "--brief", str(brief), "--assume-defaults", "--json", db=tmp_path / "s.db")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["profile"]["use_case"] == "online_serving" and out["profile"]["framework"] == "vllm"
    assert {"use_case", "model", "framework"} <= set(out["assumed"])
