"""sizer-agent: tells people which GPUs to buy or rent for an AI workload, and proves it."""

__version__ = "0.1.0"
