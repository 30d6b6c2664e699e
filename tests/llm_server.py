"""A real HTTP server on loopback that speaks the OpenAI chat-completions protocol with scripted answers.

    server = ScriptedServer(["first answer", {"content": "second", "prompt_tokens": 900}])
    base_url = server.start()          # "http://127.0.0.1:<free port>/v1"
    ...                                # point any OpenAI client (or the llm proposer) at base_url
    server.request_count, server.requests[-1]["body"]["messages"]
    server.stop()

`answers` is either a list served in order, or a mapping from agent role ("planner", "executor",
"summarizer", found from "You are the <ROLE>" in the request's system message; "*" for anything else) to
such a list. An answer is a string, a dict {"content", "prompt_tokens", "completion_tokens", "status"},
or a callable(request_body) -> either of those. Token counts default to len(text) // 4. When a list runs
out the server answers HTTP 400 ("no scripted answer left"), which clients do not retry.
"""
from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Mapping, Sequence

_ROLE = re.compile(r"You are the (\w+)")


def role_of(body: dict) -> str:
    """The agent role named in the first system message, lower-cased ("*" when there is none)."""
    for message in body.get("messages", []):
        if message.get("role") == "system":
            match = _ROLE.search(message.get("content") or "")
            return match.group(1).lower() if match else "*"
    return "*"


class ScriptedServer:
    def __init__(self, answers: Sequence[Any] | Mapping[str, Sequence[Any]]):
        if isinstance(answers, Mapping):
            self._queues = {role: list(queue) for role, queue in answers.items()}
        else:
            self._queues = {"*": list(answers)}
        self._by_role = isinstance(answers, Mapping)
        self.requests: list[dict] = []           # {"path", "body", "authorization", "role", "time"}
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self) -> str:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-llm", daemon=True)
        self._thread.start()
        return self.base_url

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "ScriptedServer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- what was asked ----------------------------------------------------------------------------

    @property
    def request_count(self) -> int:
        return len(self.requests)

    def requests_for(self, role: str) -> list[dict]:
        return [r for r in self.requests if r["role"] == role]

    def remaining(self, role: str = "*") -> int:
        return len(self._queues.get(role, []))

    # -- answering ---------------------------------------------------------------------------------

    def _next_answer(self, body: dict) -> tuple[int, dict]:
        role = role_of(body)
        with self._lock:
            key = role if self._by_role and role in self._queues else "*"
            queue = self._queues.get(key, [])
            scripted = queue.pop(0) if queue else None
        if scripted is None:
            return 400, {"error": {"message": f"no scripted answer left for role {role!r}",
                                   "type": "invalid_request_error"}}
        if callable(scripted):
            scripted = scripted(body)
        if isinstance(scripted, str):
            scripted = {"content": scripted}
        status = int(scripted.get("status", 200))
        if status != 200:
            return status, {"error": {"message": scripted.get("content", "scripted failure"), "type": "server_error"}}
        content = scripted["content"]
        prompt_text = "".join(m.get("content") or "" for m in body.get("messages", []))
        prompt_tokens = int(scripted.get("prompt_tokens", len(prompt_text) // 4))
        completion_tokens = int(scripted.get("completion_tokens", len(content) // 4))
        return 200, {
            "id": f"chatcmpl-scripted-{len(self.requests)}", "object": "chat.completion",
            "created": int(time.time()), "model": body.get("model", "scripted"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens},
        }

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:   # keep test output quiet
                pass

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/v1/models"):
                    self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    self._send(400, {"error": {"message": "body is not JSON"}})
                    return
                if not self.path.rstrip("/").endswith("/v1/chat/completions"):
                    self._send(404, {"error": {"message": f"unknown path {self.path}"}})
                    return
                with server._lock:
                    server.requests.append({"path": self.path, "body": body, "role": role_of(body),
                                            "authorization": self.headers.get("Authorization", ""),
                                            "time": time.time()})
                status, payload = server._next_answer(body)
                self._send(status, payload)

        return Handler

