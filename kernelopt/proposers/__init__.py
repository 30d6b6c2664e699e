"""Proposers: plugins that suggest replacement kernels to the `agentic-rewrite` pass."""
