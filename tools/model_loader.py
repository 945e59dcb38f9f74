"""Find a model's config: bundled registry, local file or directory, or the Hugging Face Hub.

Hub downloads are cached under `$SIZER_AGENT_CACHE` (default `~/.cache/sizer-agent/hub`), keyed by model id
and revision, so a model fetched once works offline (`HF_HUB_OFFLINE=1` forbids the network). Where the
checkpoint's exact tensor sizes are known (local safetensors headers or `model.safetensors.index.json`),
they are recorded on the spec and win over the formula for the weights.
"""

from __future__ import annotations

import json
import os
import re
import struct
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from sizer_agent.tools.architectures import spec_from_config
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.input_files import parse_json, read_json
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_spec import LongContext, ModelSpec

MAX_CONFIG_BYTES = 4 * 2**20  # the largest published config.json is ~100 kB (with an id2label table)
MAX_HEADER_BYTES = 100 * 2**20  # safetensors spec: a header is at most 100 MB
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_REVISION = re.compile(r"^[\w.\-/]{1,100}$")
# Bytes per element of safetensors dtypes (safetensors format spec).
_DTYPE_BYTES = {"F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2,
                "I16": 2, "U16": 2, "F8_E4M3": 1, "F8_E5M2": 1, "I8": 1, "U8": 1, "BOOL": 1}  # fmt: skip


def bundled_dir() -> Path:
    """The folder of the bundled model configs: registry.toml, INDEX.md (provenance), one folder per model."""
    return Path(str(resources.files("sizer_agent.tools") / "data" / "models"))


@cache
def _registry() -> tuple[dict[str, Any], ...]:
    with (bundled_dir() / "registry.toml").open("rb") as handle:
        return tuple(tomllib.load(handle)["model"])


def _registry_entry(name: str) -> dict[str, Any] | None:
    wanted = name.strip().lower()
    for entry in _registry():
        names = [entry["id"].lower(), entry["folder"].lower(), *(a.lower() for a in entry["aliases"])]
        if wanted in names:
            return entry
    return None


def _read_json(path: Path, field: str) -> dict[str, Any]:
    data = read_json(path, field, max_bytes=MAX_CONFIG_BYTES)
    if not isinstance(data, dict):
        raise InputError(field, f"{path} must hold a JSON object")
    return data


def _safetensors_params(directory: Path) -> tuple[int | None, int | None]:
    """Exact (params, bytes) from safetensors headers, or from the index's total_size (bytes only)."""
    files = sorted(directory.glob("*.safetensors"))
    if files:
        params = size = 0
        for file in files:
            header = _safetensors_header(file)
            for key, tensor in header.items():
                if key == "__metadata__":
                    continue
                shape = tensor.get("shape") if isinstance(tensor, dict) else None
                if not isinstance(shape, list) or not all(type(d) is int and d >= 0 for d in shape):
                    raise InputError("model", f"{file}: tensor {key!r} has no valid shape", "a safetensors file")
                count = 1
                for dim in shape:
                    count *= dim
                params += count
                size += count * _DTYPE_BYTES.get(str(tensor.get("dtype")), 2)
        return params, size
    index = directory / "model.safetensors.index.json"
    if index.exists():
        total = _read_json(index, "model").get("metadata", {}).get("total_size")
        return None, int(total) if total else None
    return None, None


def _safetensors_header(file: Path) -> dict[str, Any]:
    """The JSON header of a safetensors file: 8 bytes of length, then at most 100 MB of JSON."""
    try:
        with file.open("rb") as handle:
            if not file.is_file():
                raise InputError("model", f"{file} is not a regular file", "a safetensors file")
            raw = handle.read(8)
            (length,) = struct.unpack("<Q", raw) if len(raw) == 8 else (0,)
            if not 2 <= length <= MAX_HEADER_BYTES:
                raise InputError("model", f"{file} is not a safetensors file (header length {length})")
            text = handle.read(length)
    except OSError as error:
        raise InputError("model", f"cannot read {file}: {error.strerror or error}") from None
    try:
        header = parse_json(text.decode("utf-8"), "model", file)
    except UnicodeDecodeError:
        raise InputError("model", f"{file}: the safetensors header is not UTF-8 JSON") from None
    if not isinstance(header, dict):
        raise InputError("model", f"{file}: the safetensors header is not a JSON object")
    return header


def _cache_root() -> Path:
    return Path(os.environ.get("SIZER_AGENT_CACHE") or Path.home() / ".cache" / "sizer-agent" / "hub")


def _hub_config(model_id: str, revision: str | None) -> tuple[dict[str, Any], str]:
    rev = revision or "main"
    cached = _cache_root() / model_id.replace("/", "__") / rev.replace("/", "__") / "config.json"
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    url = f"{endpoint}/{model_id}/resolve/{rev}/config.json"
    offline = os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0")
    if offline:
        if cached.exists():
            return _read_json(cached, "model"), f"{url} (cached)"
        raise InputError(
            "model",
            f"{model_id!r} at revision {rev!r} is not in the cache and HF_HUB_OFFLINE forbids the network",
            "a bundled model (see `sizer-agent models`), a config.json path, or a Hub id fetched once online",
        )
    import httpx  # lazy: only Hub look-ups need it

    headers = {"Authorization": f"Bearer {os.environ['HF_TOKEN']}"} if os.environ.get("HF_TOKEN") else {}
    try:
        response = httpx.get(url, headers=headers, follow_redirects=True, timeout=15.0)
    except httpx.HTTPError as error:
        if cached.exists():
            return _read_json(cached, "model"), f"{url} (cached; Hub unreachable: {error})"
        raise InputError(
            "model",
            f"{model_id!r} is not bundled and the Hub could not be reached ({type(error).__name__}); "
            "nothing cached either",
            "a bundled model (see `sizer-agent models`) or a local config.json",
        ) from None
    if response.status_code in (401, 403):
        raise InputError("model", f"{model_id!r} is gated on the Hub: set HF_TOKEN with access to it")
    if response.status_code == 404:
        raise InputError(
            "model" if revision is None else "revision",
            f"no config.json for {model_id!r} at revision {rev!r} on the Hub",
            "an existing Hub id and revision, a bundled model, or a local path",
        )
    if response.status_code != 200:
        raise InputError("model", f"the Hub answered HTTP {response.status_code} for {url}")
    if len(response.content) > MAX_CONFIG_BYTES:
        raise InputError("model", f"the Hub returned more than {MAX_CONFIG_BYTES:,} bytes for {url}")
    try:
        data = parse_json(response.content.decode("utf-8"), "model", url)
    except (UnicodeDecodeError, InputError):
        raise InputError("model", f"the Hub returned something that is not JSON for {url}") from None
    if not isinstance(data, dict):
        raise InputError("model", f"{url} does not hold a JSON object")
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(data, indent=1))
    return data, url


def load_model(source: str, revision: str | None = None) -> ModelSpec:
    """Load a model by registry name/alias, config.json path, directory, or Hub id (`org/name`)."""
    if not source or not source.strip():
        raise InputError("model", "is empty", "a bundled model name, a config.json path or a Hub id")
    if revision is not None and not _REVISION.match(revision):
        raise InputError("revision", f"{revision!r} is not a valid revision", "a branch, tag or commit hash")
    path = Path(source).expanduser()
    if path.exists():
        directory = path if path.is_dir() else path.parent
        config_path = path / "config.json" if path.is_dir() else path
        if not config_path.exists():
            raise InputError("model", f"{path} has no config.json")
        config = _read_json(config_path, "model")
        name = str(config.get("_name_or_path") or directory.name)
        spec = spec_from_config(config, name=name, revision=revision, source=str(config_path))
        exact_params, exact_bytes = _safetensors_params(directory)
        return spec.model_copy(update={"checkpoint_params": exact_params, "checkpoint_bytes": exact_bytes})
    entry = _registry_entry(source)
    if entry is not None:
        config = _read_json(bundled_dir() / entry["folder"] / "config.json", "model")
        pinned = revision or entry["revision"] or None
        spec = spec_from_config(config, name=entry["id"], revision=pinned, source=f"bundled: {entry['provenance']}")
        if "long_context" in entry:
            spec = spec.model_copy(update={"long_context": LongContext.model_validate(entry["long_context"])})
        if revision and revision != (entry["revision"] or None):
            spec.warnings.append(Msg("model.bundled_revision", revision=revision))
        return spec
    if source.lower().endswith(".json") or source.startswith(("/", "./", "../", "~")):
        raise InputError("model", f"no such file: {source}", "an existing config.json or model directory")
    if _HUB_ID.match(source):
        config, url = _hub_config(source, revision)
        return spec_from_config(config, name=source, revision=revision, source=url)
    known = ", ".join(sorted(alias for e in _registry() for alias in e["aliases"]))
    raise InputError("model", f"{source!r} is not a bundled model, an existing path or a Hub id", known)


@cache
def bundled_quantization(name: str) -> dict[str, Any] | None:
    """The `quantization_config` of a bundled model's checkpoint (gpt-oss: mxfp4, DeepSeek-V3: fp8), None when
    its weights are published unquantized or the name is not bundled. Reads no network."""
    entry = _registry_entry(name)
    if entry is None:
        return None
    config = _read_json(bundled_dir() / entry["folder"] / "config.json", "model")
    found = config.get("quantization_config")
    return dict(found) if isinstance(found, dict) else None


def list_models() -> list[ModelSpec]:
    """Every model of the bundled registry."""
    return [load_model(entry["id"]) for entry in _registry()]


def registry_entries() -> list[dict[str, Any]]:
    """The raw registry rows (id, aliases, title, provenance, revision)."""
    return [dict(entry) for entry in _registry()]


def bundled_config_path(name: str) -> Path | None:
    """The config.json bundled for a registry model (id, folder or alias), or None when it is not bundled."""
    entry = _registry_entry(name)
    return None if entry is None else bundled_dir() / entry["folder"] / "config.json"
