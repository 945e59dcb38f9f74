"""MCP resources: the catalogue (as the tools load it) and the config.json of every bundled model."""

from __future__ import annotations

import json
from urllib.parse import quote, unquote

import mcp_types as types

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.model_loader import bundled_config_path, registry_entries

CATALOG_URI = "sizer://catalog"
_MODEL_PREFIX = "sizer://models/"
_MODEL_SUFFIX = "/config.json"


def model_uri(model_id: str) -> str:
    return f"{_MODEL_PREFIX}{quote(model_id, safe='')}{_MODEL_SUFFIX}"


def list_resources() -> list[types.Resource]:
    resources = [types.Resource(
        name="catalog", title="GPU catalogue", uri=CATALOG_URI, mime_type="application/json",
        description="Every GPU, platform and offer recommend ranks, with prices, dates, the assumptions "
                    "(exchange rate, energy price, amortisation) and the source of each figure.",
    )]
    for entry in registry_entries():
        resources.append(types.Resource(
            name=entry["id"], title=f"{entry['title']} config.json", uri=model_uri(entry["id"]),
            mime_type="application/json",
            description=f"The bundled Hugging Face config of {entry['title']} ({entry['provenance']}); "
                        f"also known as {', '.join(entry['aliases'])}.",
        ))
    return resources


def read_resource(uri: str) -> types.TextResourceContents | None:
    """The resource's text, or None when the URI names none of them."""
    if uri == CATALOG_URI:
        text = json.dumps(load_catalog().model_dump(mode="json"), ensure_ascii=False, indent=1)
        return types.TextResourceContents(uri=uri, mime_type="application/json", text=text)
    if uri.startswith(_MODEL_PREFIX) and uri.endswith(_MODEL_SUFFIX):
        model_id = unquote(uri[len(_MODEL_PREFIX):-len(_MODEL_SUFFIX)])
        if model_id not in {entry["id"] for entry in registry_entries()}:
            return None  # only registry ids: a crafted id never reaches the file system
        path = bundled_config_path(model_id)
        if path is not None and path.is_file():
            return types.TextResourceContents(uri=uri, mime_type="application/json", text=path.read_text())
    return None
