"""Emit every corpus and fixture capture on the CPU and write one file per emitted module.

Refactors must not change what KernelOPT emits: run this before and after, then `diff -r` the two
folders. Each capture is lifted to .kir and emitted as a standalone and a patched module (with the
capture's manifest, where there is one, pinning its recorded launch configs).

    python scripts/emit_snapshot.py OUT_DIR
"""
from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _captures() -> list[tuple[Path, Path | None]]:
    found = []
    for root in (REPO / "tests" / "corpus", REPO / "tests" / "fixtures"):
        for module in sorted(root.glob("**/*.py")):
            if module.name.startswith("_") or "__pycache__" in module.parts:
                continue
            manifest = module.parent / "manifest.json"
            found.append((module, manifest if manifest.is_file() else None))
    return found


def _emit(item: tuple[Path, Path | None], out: Path) -> str:
    module, manifest = item
    stem = str(module.relative_to(REPO)).replace("/", "__")
    results = []
    commands = {"kir": ["lift", str(module), "-o", str(out / f"{stem}.kir")]}
    for style in ("standalone", "patched"):
        cmd = ["emit", str(module), "--style", style, "-o", str(out / f"{stem}.{style}.py")]
        if manifest is not None:
            cmd += ["--manifest", str(manifest)]
        commands[style] = cmd
    for name, cmd in commands.items():
        proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", *cmd], cwd=REPO,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            (out / f"{stem}.{name}.error").write_text(proc.stderr[-2000:])
        results.append(f"{name}:{proc.returncode}")
    return f"{stem} {' '.join(results)}"


def main() -> int:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(4) as pool:
        for line in pool.map(lambda item: _emit(item, out), _captures()):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
