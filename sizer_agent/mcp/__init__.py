"""`sizer-agent mcp`: the sizing tools as a Model Context Protocol server (stdio, or streamable HTTP)."""
