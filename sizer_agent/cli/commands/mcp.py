"""`sizer-agent mcp`: the sizing tools as an MCP server, for AI assistants and IDEs."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from sizer_agent.cli.numbers import port_or_zero

NAME = "mcp"
ORDER = 80
HELP = "serve the sizing tools to an AI assistant or IDE over the Model Context Protocol (needs the `mcp` extra)"
DESCRIPTION = """\
Serve the sizing tools over the Model Context Protocol, so that an assistant (Claude Desktop, an IDE, any MCP
client) can call them: estimate_memory, estimate_vision (with the vision extra), recommend, size_system,
list_models, list_offers, compare_bench and calibrate_bench. Results are the same JSON as the CLI's --json.
Resources: sizer://catalog (the GPU catalogue) and sizer://models/<id>/config.json (bundled model configs).
Prompt: intake (a sizing interview started from a customer's brief).

By default the server speaks over standard input and output: the client starts it. Add it to a client's
configuration (Claude Desktop's claude_desktop_config.json, for example) as:
  {"mcpServers": {"sizer-agent": {"command": "sizer-agent", "args": ["mcp"]}}}

Safety: tools read no file unless you allow a folder with --allow-path (a config.json, a vendor catalogue, a
benchmark result); bench_serve, which loads an inference server, is listed only with --allow-bench.

Install the extra first:  pip install 'sizer-agent[mcp]'

Examples:
  sizer-agent mcp                                      stdio, for a client that starts it
  sizer-agent mcp --allow-path ./configs --allow-path ./results
  sizer-agent mcp --http --port 8765                   streamable HTTP at http://127.0.0.1:8765/mcp
  sizer-agent mcp --allow-bench                        also bench_serve (measures a running server)

Exit codes: 0 stopped normally; 2 bad option or the extra is missing.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="with --http: address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port_or_zero, default=8765,
                        help="with --http: port (default 8765; 0 picks a free one)")
    parser.add_argument("--allow-path", action="append", default=[], metavar="DIR", type=Path,
                        help="let the tools read files under DIR (repeat for several); none by default")
    parser.add_argument("--allow-bench", action="store_true",
                        help="also expose bench_serve, which sends load to an inference server")


def _error(message: str) -> int:
    print(f"sizer-agent mcp: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        import mcp.server.lowlevel  # noqa: F401
    except ImportError:
        return _error("the MCP SDK is not installed; install the mcp extra: pip install 'sizer-agent[mcp]'")
    if not 0 <= args.port < 65536:
        return _error(f"--port: {args.port} (allowed: 0-65535)")
    for folder in args.allow_path:
        if not folder.expanduser().is_dir():
            return _error(f"--allow-path: {folder} is not a folder")
    if args.http and args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"sizer-agent mcp: warning: listening on {args.host}: any machine that reaches it can call the "
              "tools; put your own authentication in front", file=sys.stderr)

    import anyio

    from sizer_agent.mcp.server import build_server, serve_http, serve_stdio

    server = build_server(allow_bench=args.allow_bench, allowed_paths=args.allow_path)
    if args.http:
        def ready(port: int) -> None:  # one line on stderr: scripts and tests read the port from it
            print(f"sizer-agent mcp: listening on http://{args.host}:{port}/mcp", file=sys.stderr, flush=True)

        with contextlib.suppress(KeyboardInterrupt):
            serve_http(server, args.host, args.port, ready)
        return 0
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(serve_stdio, server)
    return 0
