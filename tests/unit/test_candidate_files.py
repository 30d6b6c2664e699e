"""The candidate sources a job loads (Triton reads a kernel's source from its file) live in a folder of
the loading process's own, removed when it exits: a shared /tmp/kernelopt-candidates kept every timed
candidate of every job (1,587 files after a day of test runs) and was never cleaned."""
import subprocess
import sys
import textwrap


def test_loaded_candidates_leave_no_files_after_the_process_exits(tmp_path):
    script = textwrap.dedent('''
        import inspect, os, tempfile
        from kernelopt.rewrite.evaluate import load_candidate
        run = load_candidate("def helper(x):\\n    return x + 1\\n\\ndef run(x):\\n    return helper(x)\\n")
        assert run(1) == 2
        folders = [p for p in os.listdir(tempfile.gettempdir()) if p.startswith("kernelopt-candidates")]
        assert len(folders) == 1, folders
        assert "return x + 1" in inspect.getsource(run.__globals__["helper"])   # what Triton's JIT needs
        print("ok")
    ''')
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("kernelopt-candidates")] == []


def test_a_candidate_loads_after_the_job_folder_holding_the_last_ones_is_gone(tmp_path):
    """torch.compile runs one optimize job per graph in the same process, each under its own work folder
    (TMPDIR): the candidates folder made during the first job goes with it, and the second graph's
    candidates must get a new one (on the H100 they failed with FileNotFoundError and the graph fell back)."""
    script = textwrap.dedent('''
        import os, shutil, tempfile
        from kernelopt.rewrite.evaluate import load_candidate
        first_job = tempfile.mkdtemp(prefix="job-one-")
        tempfile.tempdir = first_job
        assert load_candidate("def run(x):\\n    return x + 1\\n")(1) == 2
        tempfile.tempdir = None
        shutil.rmtree(first_job)                          # the first job ends and removes its folder
        assert load_candidate("def run(x):\\n    return x + 2\\n")(1) == 3
        print("ok")
    ''')
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("kernelopt-candidates")] == []
