"""One chat-completions call at a time against an OpenAI-compatible endpoint, with a disk cache, token
accounting and a token budget.

The `openai` package is imported on the first uncached call only, so that using KernelOPT without this
proposer never needs it. The API key is held by the `openai` client and never appears in a cache entry,
a log line, a transcript or an exception text produced here.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("kernelopt.proposers.llm")

CHARS_PER_TOKEN = 4          # rough prompt-size estimate, used only to refuse calls that cannot fit the budget


class BudgetExhausted(Exception):
    """The token budget does not allow another call."""


class EndpointError(Exception):
    """The endpoint failed (connection, HTTP status, malformed reply); the message holds no secret."""


@dataclass
class Answer:
    content: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool


@dataclass
class TokenCount:
    prompt: int = 0
    completion: int = 0
    cached_prompt: int = 0          # tokens of answers replayed from the cache (cost nothing now)
    cached_completion: int = 0
    requests: int = 0               # HTTP requests made
    cache_hits: int = 0

    @property
    def total(self) -> int:
        return self.prompt + self.completion

    def as_dict(self) -> dict:
        return {"prompt": self.prompt, "completion": self.completion, "total": self.total,
                "cached_prompt": self.cached_prompt, "cached_completion": self.cached_completion,
                "requests": self.requests, "cache_hits": self.cache_hits}


def cache_key(model: str, base_url: str, messages: list[dict]) -> str:
    payload = json.dumps({"model": model, "base_url": base_url, "messages": messages}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass
class ChatClient:
    base_url: str
    model: str
    api_key: str = field(default="", repr=False)
    budget: int = 200_000               # prompt + completion tokens over the client's life
    answer_tokens: int = 4096           # per-answer cap sent as max_tokens
    temperature: float = 0.2
    timeout_s: float = 120.0
    cache_dir: Path | None = None       # None: no cache
    tokens: TokenCount = field(default_factory=TokenCount)
    _client: object = field(default=None, repr=False)

    def remaining(self) -> int:
        return self.budget - self.tokens.total

    def chat(self, messages: list[dict]) -> Answer:
        key = cache_key(self.model, self.base_url, messages)
        cached = self._read_cache(key)
        if cached is not None:
            self.tokens.cache_hits += 1
            self.tokens.cached_prompt += cached.prompt_tokens
            self.tokens.cached_completion += cached.completion_tokens
            return cached
        self._check_budget(messages)
        answer = self._request(messages)
        self.tokens.requests += 1
        self.tokens.prompt += answer.prompt_tokens
        self.tokens.completion += answer.completion_tokens
        self._write_cache(key, answer)
        return answer

    def _check_budget(self, messages: list[dict]) -> None:
        estimate = sum(len(m.get("content") or "") for m in messages) // CHARS_PER_TOKEN
        if self.remaining() <= 0 or estimate >= self.remaining():
            raise BudgetExhausted(f"token budget exhausted: {self.tokens.total} of {self.budget} used, "
                                  f"next prompt needs about {estimate}")

    def _request(self, messages: list[dict]) -> Answer:
        client = self._openai()
        # lazy: openai takes seconds to import; only a configured LLM endpoint needs it
        import openai

        max_tokens = max(1, min(self.answer_tokens, self.remaining()))
        try:
            reply = client.chat.completions.create(model=self.model, messages=messages,
                                                   max_tokens=max_tokens, temperature=self.temperature)
        except openai.APIStatusError as error:
            raise EndpointError(f"endpoint answered HTTP {error.status_code}") from None
        except openai.APIError as error:
            raise EndpointError(f"endpoint request failed: {type(error).__name__}") from None
        if not getattr(reply, "choices", None):
            raise EndpointError("endpoint reply has no choices")
        content = reply.choices[0].message.content or ""
        usage = getattr(reply, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        if usage is None:   # some servers omit usage: count with the same rough estimate as the budget check
            prompt = sum(len(m.get("content") or "") for m in messages) // CHARS_PER_TOKEN
            completion = len(content) // CHARS_PER_TOKEN
        log.debug("llm answer: %d prompt + %d completion tokens", prompt, completion)
        return Answer(content, prompt, completion, cached=False)

    def _openai(self):
        if self._client is None:
            # lazy: openai takes seconds to import; only a configured LLM endpoint needs it
            import openai

            # local OpenAI-compatible servers accept any key; the client insists on a non-empty one
            self._client = openai.OpenAI(base_url=self.base_url, api_key=self.api_key or "unused",
                                         timeout=self.timeout_s, max_retries=1)
        return self._client

    def _cache_path(self, key: str) -> Path | None:
        return None if self.cache_dir is None else Path(self.cache_dir) / f"{key}.json"

    def _read_cache(self, key: str) -> Answer | None:
        path = self._cache_path(key)
        if path is None or not path.is_file():
            return None
        try:
            entry = json.loads(path.read_text())
            return Answer(entry["content"], int(entry["prompt_tokens"]), int(entry["completion_tokens"]), True)
        except (ValueError, KeyError, TypeError, OSError):
            return None      # a damaged entry is a miss; it is overwritten by the fresh answer

    def _write_cache(self, key: str, answer: Answer) -> None:
        path = self._cache_path(key)
        if path is None:
            return
        entry = {"model": self.model, "base_url": self.base_url, "content": answer.content,
                 "prompt_tokens": answer.prompt_tokens, "completion_tokens": answer.completion_tokens}
        write_json_atomically(path, entry)


def write_json_atomically(path: Path, value) -> None:
    """Write through a temporary file and rename, so a concurrent reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as stream:
            json.dump(value, stream, indent=1, sort_keys=True)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
