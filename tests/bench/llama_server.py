"""Serve a GGUF with llama.cpp's HTTP server (xllamacpp wheel) on 127.0.0.1 until stdin closes."""

from __future__ import annotations

import socket
import sys


def main() -> None:
    import xllamacpp

    model, parallel = sys.argv[1], int(sys.argv[2])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    params = xllamacpp.CommonParams()
    params.model.path = model
    params.n_parallel = parallel
    params.n_ctx = 512 * parallel
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.verbosity = 1
    params.use_jinja = True
    server = xllamacpp.Server(params)
    print(f"PORT {port}", flush=True)
    sys.stdin.read()
    del server


if __name__ == "__main__":
    main()
