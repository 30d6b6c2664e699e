"""The agentic-rewrite machinery: targets from the IR, a budgeted search over proposers, evaluation
(legality gate + timing), and a disk cache of results. The pass itself is `passes/agentic_rewrite.py`."""
