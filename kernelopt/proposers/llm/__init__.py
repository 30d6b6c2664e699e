"""The `llm` proposer package (see proposer.py); `openai` is imported only when a request is made."""
from kernelopt.proposers.llm.proposer import LLMProposer

__all__ = ["LLMProposer"]
