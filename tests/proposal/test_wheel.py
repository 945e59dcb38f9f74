"""The installed wheel, not the source tree, renders a proposal and validates the estimator: templates,
catalogue and the validation set ship inside it.

Builds the wheel with pip (hatchling from this environment, no network), installs it with --no-deps into
a fresh virtual environment that sees this interpreter's packages (pydantic, jinja2…), and runs
`python -m sizer_agent propose` from a directory outside the repository, with no PYTHONPATH.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest


@pytest.mark.slow
def test_installed_wheel_renders_a_proposal(repo_root: Path, fixture_path: Path, tmp_path: Path) -> None:
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("hatchling (the build backend, in the `dev` extra) is not installed")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(repo_root),
        ],
        check=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    (wheel,) = wheels.glob("sizer_agent-*.whl")
    target = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(target)
    python = target / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
        check=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    # Packages with the common names `tools` and `templates` in the same environment: the wheel has only
    # `sizer_agent` at the top, so both theirs and ours import, each from its own place.
    site = Path(
        subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                       check=True, env=env, capture_output=True, text=True, timeout=60).stdout.strip()
    )
    for name in ("tools", "templates"):
        (site / name).mkdir()
        (site / name / "__init__.py").write_text(f"WHO = 'another project named {name}'\n")
    assert not any(p.name.startswith(("tools", "templates")) for p in site.glob("*.dist-info"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import tools, templates, sizer_agent, sizer_agent.tools.estimate, sizer_agent.templates\n"
        "assert tools.WHO == 'another project named tools' and templates.WHO.endswith('templates')\n"
        "for module in (sizer_agent, sizer_agent.tools.estimate, sizer_agent.templates, tools, templates):\n"
        "    print(module.__file__)\n"
    )
    where = subprocess.run(
        [str(python), "-c", code],
        check=True,
        env=env,
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.split()
    assert all(path.startswith(str(target)) for path in where), f"imported from outside the wheel: {where}"
    ours, theirs = where[:3], where[3:]
    assert all("/sizer_agent/" in path for path in ours) and not any("/sizer_agent/" in path for path in theirs)
    def installed(*args: str) -> subprocess.CompletedProcess[str]:
        """The installed command, run from a folder with no checkout in it."""
        done = subprocess.run([str(python), "-m", "sizer_agent", *args], env=env, cwd=elsewhere,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done

    out = elsewhere / "proposal.html"
    installed("propose", str(fixture_path), "--lang", "en", "-o", str(out))
    html = out.read_text(encoding="utf-8")
    assert "Hardware proposal — Acme" in html and "€55,480" in html and "<svg" in html
    md = installed("propose", str(fixture_path), "--lang", "fr").stdout
    assert "Limites de recette" in md
    # the validation set ships inside the wheel: `validate` needs no folder beside anything
    report = installed("validate", "--json")
    summary = {row["metric"]: row for row in json.loads(report.stdout)["summary"]}
    assert summary["weights"]["count"] == 10 and summary["training_peak"]["count"] == 5
    assert summary["params"]["max_abs_error_pct"] == 0
