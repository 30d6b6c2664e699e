"""`expect_exit.py --code=N CMD...`: succeed only when CMD exits with code N (without --code: any failure)."""
import subprocess
import sys

args = sys.argv[1:]
want = None
if args and args[0].startswith("--code="):
    want = int(args[0].split("=", 1)[1])
    args = args[1:]
code = subprocess.call(args)
if want is not None:
    sys.exit(0 if code == want else 1)
sys.exit(0 if code != 0 else 1)
